package cmd

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// specExitCodes is SPEC.md section 2's exit-code table, as it reads there
// (backticks dropped). help exit-codes and the README must say the same.
var specExitCodes = map[int]string{
	0:   "success; for waits: the condition was met",
	1:   "failure (tmux error, internal error) with tmux's own message",
	2:   "usage or invalid input: bad flag, invalid regex, bad cursor, unknown JSON field, out-of-range value",
	3:   "a stop pattern matched (wait-for-text); a guarded action was refused (approval pending, pane busy, text pending on the input line); wait-for-turn ended in a state other than awaiting_input",
	4:   "not found: no tmux server at the socket, no such pane, no such task",
	5:   "the pane or its process exited during the operation",
	124: "timed out",
	130: "interrupted (SIGINT/SIGTERM): panectl cleans up (control client detached) and exits",
}

func TestExitCodeTablesAgree(t *testing.T) {
	help := map[int]string{}
	for _, m := range regexp.MustCompile(`(?m)^  (\d+) +(.+)$`).FindAllStringSubmatch(topicText("exit-codes"), -1) {
		n, _ := strconv.Atoi(m[1])
		help[n] = m[2]
	}
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := map[int]string{}
	for _, m := range regexp.MustCompile(`(?m)^\| (\d+) \| (.+) \|$`).FindAllStringSubmatch(string(b), -1) {
		n, _ := strconv.Atoi(m[1])
		readme[n] = strings.ReplaceAll(m[2], "`", "")
	}
	for code, want := range specExitCodes {
		if help[code] != want {
			t.Errorf("help exit-codes, %d: %q; SPEC.md says %q", code, help[code], want)
		}
		if readme[code] != want {
			t.Errorf("README, %d: %q; SPEC.md says %q", code, readme[code], want)
		}
	}
	if len(help) != len(specExitCodes) || len(readme) != len(specExitCodes) {
		t.Errorf("tables have %d (help) and %d (README) rows; SPEC.md has %d", len(help), len(readme), len(specExitCodes))
	}
}

package cmd_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestFixtureScreens classifies every captured screen of
// recognize/testdata/screens/INDEX.tsv as labelled, twice: through
// `recognize --file` (with the title and command it had), and through a
// real pane of the fixture's size that shows it (the title set with OSC 2,
// the cursor put back where it was, the alternate screen on when it was,
// and the foreground process named as the agent's), with both the named
// recognizer and auto (with -short: one fixture per agent and label). The script is generated from INDEX.tsv so a new
// fixture is tested without editing anything here.
func TestFixtureScreens(t *testing.T) {
	requireTmux(t)
	dir, err := filepath.Abs(filepath.Join("..", "recognize", "testdata", "screens"))
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "INDEX.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	n := 0
	seen := map[string]bool{}
	for _, line := range strings.Split(string(index), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) < 9 {
			t.Fatalf("INDEX.tsv: short row %q", line)
		}
		file, agent, label, title, command, size := c[0], c[1], c[2], c[3], c[4], c[6]
		state, _, _ := strings.Cut(label, ":")
		if testing.Short() && seen[agent+label] {
			continue // -short: one fixture per agent and label
		}
		seen[agent+label] = true
		base := filepath.Join(dir, strings.TrimSuffix(file, ".txt"))
		n++
		fmt.Fprintf(&b, "# %s: %s\n", file, label)
		fmt.Fprintf(&b, "code 0 panectl -L t --json recognize --file %s --recognizer %s --title %s --command %s\n", quote(base+".txt"), agent, quote(title), quote(command))
		fmt.Fprintf(&b, "jsonfield state '\"%s\"'\njsonfield recognizer '\"%s\"'\njsonfield evidence.rule '.'\n", state, agent)
		fmt.Fprintf(&b, "exec panectl -L t new --size %s -- bash $WORK/show.sh %s shown%d\nenvstdout P\ntmux wait-for shown%d\n", size, quote(base), n, n)
		fmt.Fprintf(&b, "code 0 panectl -L t --json recognize $P --recognizer %s\n", agent)
		fmt.Fprintf(&b, "jsonfield state '\"%s\"'\njsonfield evidence.rule '.'\n", state)
		fmt.Fprintf(&b, "code 0 panectl -L t --json recognize $P\n")
		fmt.Fprintf(&b, "jsonfield state '\"%s\"'\njsonfield recognizer '\"%s\"'\n", state, agent)
		fmt.Fprintf(&b, "exec panectl -L t kill $P\n\n")
	}
	b.WriteString(showScript)
	sdir := t.TempDir()
	if err := os.WriteFile(filepath.Join(sdir, "fixtures.txtar"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, params(sdir, "bash"))
}

// quote renders s as one testscript argument (single quotes, ” for ').
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// showScript draws a fixture in the pane it runs in, signals the tmux
// channel $2, and leaves a process named as the fixture's foreground
// command in the foreground.
const showScript = `-- show.sh --
meta=$1.meta
get() { sed -n "s/^$1: //p" "$meta"; }
title=$(get pane_title)
cmd=$(get pane_current_command)
cur=$(get cursor)
if [ "$(get alternate_on)" = 1 ]; then printf '\033[?1049h'; fi
printf '\033[H\033[2J'
printf '%s' "$(cat "$1.txt")"
printf '\033[%d;%dH' $(( ${cur#*,} + 1 )) $(( ${cur%,*} + 1 ))
printf '\033]2;%s\033\\' "$title"
(sleep 0.3; tmux wait-for -S "$2") &
exec -a "$cmd" sleep 1000
`

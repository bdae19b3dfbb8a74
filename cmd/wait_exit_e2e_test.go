package cmd_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

// A program that prints the awaited line and exits at once: tmux 3.3a drops
// the %output it had not yet sent a control client when the pane is
// destroyed, and a capture after the death finds no pane, so the line was
// lost (exited, "output": [], in most tries). The wait holds the pane while
// it runs: the line decides, and the pane closes afterwards as it would
// have.

// printThenExit is a pane program that prints line and exits with status
// when Enter is pressed (the wait is attached by then).
func printThenExit(line string, status int) []string {
	return []string{"sh", "-c", fmt.Sprintf("read x; echo '%s'; exit %d", line, status)}
}

// waitAttached waits until a client is attached to session.
func waitAttached(t *testing.T, s *tmuxtest.Server, session string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !slices.Contains(strings.Fields(s.Tmux("list-clients", "-F", "#{session_id}")), session) {
		if time.Now().After(deadline) {
			t.Fatalf("no client attached to %s", session)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitHeld waits until a wait is attached to pane p's session and, once
// its first look found nothing, holds the pane (the option @panectl-watch:
// waiter.holdExitVia): output from then on reaches the wait even when the
// program exits at once. A wait that never holds it (panectl before the
// hold) is given 3 s, then the test goes on and its assertions decide.
func waitHeld(t *testing.T, s *tmuxtest.Server, p tmux.PaneInfo) {
	t.Helper()
	waitAttached(t, s, p.SessionID)
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if v, _ := s.TryTmux("show-options", "-p", "-q", "-v", "-t", p.ID, "@panectl-watch"); v != "" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("pane %s was not held within 3 s", p.ID)
}

// paneGone reports whether pane id has left the server.
func paneGone(s *tmuxtest.Server, id string) bool {
	out, _ := s.TryTmux("list-panes", "-a", "-F", "#{pane_id}")
	return !slices.Contains(strings.Fields(out), id)
}

type waitCase struct {
	name           string
	line           string
	status         int
	args           []string
	code           int
	outcome, match string
}

var printExitCases = []waitCase{
	{"matched", "5 passed in 0.1s", 0, []string{"--pattern", "passed", "--stop", "FAILED"}, 0, "matched", "5 passed in 0.1s"},
	{"stopped", "error: port in use", 7, []string{"--pattern", "listening", "--stop", "error"}, 3, "stopped", "error: port in use"},
	{"exited", "just bye", 7, []string{"--pattern", "listening", "--stop", "error"}, 5, "exited", ""},
}

func TestWaitPrintThenExit(t *testing.T) {
	s := tmuxtest.New(t)
	for round := range 3 {
		for _, tc := range printExitCases {
			p := s.NewPane([2]int{80, 24}, printThenExit(tc.line, tc.status)...)
			c := panectlCmd(s, append([]string{"--json", "wait-for-text", p.ID, "--timeout", "20"}, tc.args...)...)
			var stdout, stderr strings.Builder
			c.Stdout, c.Stderr = &stdout, &stderr
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			waitHeld(t, s, p)
			s.Tmux("send-keys", "-t", p.ID, "go", "Enter")
			code := exitCode(c.Wait())
			var out struct {
				Outcome     string   `json:"outcome"`
				Output      []string `json:"output"`
				MatchedLine string   `json:"matched_line"`
			}
			if err := json.Unmarshal([]byte(stdout.String()), &out); err != nil {
				t.Fatalf("%s %d: %v: %q (stderr %q)", tc.name, round, err, stdout.String(), stderr.String())
			}
			if code != tc.code || out.Outcome != tc.outcome || out.MatchedLine != tc.match || !slices.Contains(out.Output, tc.line) {
				t.Errorf("%s %d: exit %d %s, want exit %d %s with the line %q in output: %s",
					tc.name, round, code, out.Outcome, tc.code, tc.outcome, tc.line, stdout.String())
			}
			// the pane closes, as it would have without the wait
			deadline := time.Now().Add(10 * time.Second)
			for !paneGone(s, p.ID) {
				if time.Now().After(deadline) {
					t.Fatalf("%s %d: pane %s is still there after the wait: %s", tc.name, round, p.ID,
						s.Tmux("list-panes", "-a", "-F", "#{pane_id} dead=#{pane_dead}"))
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	if cl := s.Clients(); len(cl) != 0 {
		t.Errorf("clients left attached: %q", cl)
	}
}

// The pane's own settings decide what happens to it after the wait, and
// its options end as they were: remain-on-exit failed keeps a failed pane
// (dead, its options as they were); a live pane's options are untouched.
func TestWaitHoldLeavesOptions(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, printThenExit("boom", 7)...)
	s.Tmux("set-option", "-p", "-t", p.ID, "remain-on-exit", "failed")
	s.Tmux("set-option", "-p", "-t", p.ID, "remain-on-exit-format", "gone #{pane_dead_status}")
	before := s.Tmux("show-options", "-p", "-t", p.ID)
	c := panectlCmd(s, "wait-for-text", p.ID, "--pattern", "never", "--timeout", "20")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, s, p)
	s.Tmux("send-keys", "-t", p.ID, "go", "Enter")
	if code := exitCode(c.Wait()); code != 5 {
		t.Errorf("exit %d, want 5", code)
	}
	if dead := s.Tmux("display-message", "-p", "-t", p.ID, "#{pane_dead}"); dead != "1" {
		t.Errorf("pane_dead %q: remain-on-exit failed keeps a pane that exited 7", dead)
	}
	if after := s.Tmux("show-options", "-p", "-t", p.ID); after != before {
		t.Errorf("options after the wait:\n%s\nwant\n%s", after, before)
	}

	live := s.NewPane([2]int{80, 24}, "sh", "-c", "read x; echo ready; exec cat")
	before = s.Tmux("show-options", "-p", "-t", live.ID)
	c = panectlCmd(s, "wait-for-text", live.ID, "--pattern", "ready", "--timeout", "20")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, s, live)
	s.Tmux("send-keys", "-t", live.ID, "go", "Enter")
	if code := exitCode(c.Wait()); code != 0 {
		t.Errorf("live pane: exit %d, want 0", code)
	}
	if after := s.Tmux("show-options", "-p", "-t", live.ID); after != before {
		t.Errorf("live pane options after the wait:\n%s\nwant\n%s", after, before)
	}
}

// A wait killed (SIGKILL) while it holds the pane: the guard gives the pane
// its own settings back, and a pane that died meanwhile closes.
func TestWaitHoldKilled(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "sh", "-c", "read x; exit 0")
	before := s.Tmux("show-options", "-p", "-t", p.ID)
	c := panectlCmd(s, "wait-for-text", p.ID, "--pattern", "never", "--timeout", "60")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, s, p)
	if v, _ := s.TryTmux("show-options", "-p", "-v", "-t", p.ID, "remain-on-exit"); v != "on" {
		t.Fatalf("remain-on-exit %q while the wait holds the pane, want on", v)
	}
	_ = c.Process.Kill()
	_ = c.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for {
		after, err := s.TryTmux("show-options", "-p", "-t", p.ID)
		if err == nil && after == before {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("options after the wait was killed: %q (%v), want %q", after, err, before)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.Tmux("send-keys", "-t", p.ID, "Enter")
	deadline = time.Now().Add(10 * time.Second)
	for !paneGone(s, p.ID) {
		if time.Now().After(deadline) {
			t.Fatalf("pane %s did not close on exit after the killed wait", p.ID)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// MCP wait_for_text (a long-lived process, which keeps its control clients)
// decides on the line too.
func TestMCPWaitPrintThenExit(t *testing.T) {
	s := tmuxtest.New(t)
	m := startMCPLines(t, s)
	for i, tc := range printExitCases {
		p := s.NewPane([2]int{80, 24}, printThenExit(tc.line, tc.status)...)
		args := map[string]any{"pane_id": p.ID, "timeout": 20}
		for j := 0; j < len(tc.args); j += 2 {
			key := map[string]string{"--pattern": "patterns", "--stop": "stop"}[tc.args[j]]
			args[key] = tc.args[j+1]
		}
		id := 10 + i
		m.send(t, map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": "wait_for_text", "arguments": args}})
		waitHeld(t, s, p)
		s.Tmux("send-keys", "-t", p.ID, "go", "Enter")
		v := m.next(t, 20*time.Second)
		r, _ := v["result"].(map[string]any)
		sc, _ := r["structuredContent"].(map[string]any)
		b, _ := json.Marshal(sc)
		var out struct {
			Outcome     string   `json:"outcome"`
			Output      []string `json:"output"`
			MatchedLine string   `json:"matched_line"`
		}
		_ = json.Unmarshal(b, &out)
		if out.Outcome != tc.outcome || out.MatchedLine != tc.match || !slices.Contains(out.Output, tc.line) {
			t.Errorf("%s: %s, want %s with the line %q in output: %v", tc.name, out.Outcome, tc.outcome, tc.line, v)
		}
	}
}

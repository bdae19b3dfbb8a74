package cmd_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
)

// A pane's process replaced in the middle of a wait (respawn-pane -k: the
// pane keeps its id, a new process runs in it, the old one's output is
// gone) ends every wait that watches the pane, well before its timeout,
// with outcome exited (exit 5) and a note naming the old and the new
// process: wait-for-text, wait-quiet, wait-for-turn, run (exit_code null:
// the command's status went with its shell), send-text --when-ready, and
// the same tools over MCP. The bound is generous (a shared, loaded
// machine): within 15 s of a 60 s timeout; the control client's death
// watch notices within about half a second.

// respawnLimit bounds how long after the respawn a wait may end.
const respawnLimit = 15 * time.Second

// respawn replaces pane p's process with a new one and returns the old and
// the new pid.
func respawn(t *testing.T, s *tmuxtest.Server, p string) (old, now string) {
	t.Helper()
	old = s.Tmux("display-message", "-p", "-t", p, "#{pane_pid}")
	s.Tmux("respawn-pane", "-k", "-t", p, "sleep 300")
	now = s.Tmux("display-message", "-p", "-t", p, "#{pane_pid}")
	if old == now {
		t.Fatalf("respawn-pane left pid %s", old)
	}
	return old, now
}

// wantReplacedNote checks that text says the process was replaced, naming
// both pids.
func wantReplacedNote(t *testing.T, what, text, old, now string) {
	t.Helper()
	if !strings.Contains(text, "replaced") || !strings.Contains(text, "process "+old) || !strings.Contains(text, "process "+now) {
		t.Errorf("%s: %s; want a note that the process was replaced (process %s, now %s)", what, text, old, now)
	}
}

// longWait is a command that watches a pane for up to 60 s; busy: the pane
// runs a foreground job first (a turn that does not end).
type longWait struct {
	name string
	busy bool
	args func(p string) []string
}

// longWaits are the waits a respawn or a stopped server must end early.
var longWaits = []longWait{
	{"wait-for-text", false, func(p string) []string {
		return []string{"--json", "wait-for-text", p, "--pattern", "never", "--timeout", "60"}
	}},
	{"wait-quiet", false, func(p string) []string {
		return []string{"--json", "wait-quiet", p, "--quiet-ms", "60000", "--timeout", "60"}
	}},
	{"wait-for-turn", true, func(p string) []string {
		return []string{"--json", "wait-for-turn", p, "--wait-through-busy", "--timeout", "60"}
	}},
	{"run", false, func(p string) []string { return []string{"--json", "run", p, "sleep 100", "--timeout", "60"} }},
}

// startWaiting starts panectl with args (output into stdout and stderr),
// killed when the test ends, and returns once its control client is
// attached and a second more has passed (its first look is done).
func startWaiting(t *testing.T, s *tmuxtest.Server, stdout, stderr io.Writer, args ...string) *exec.Cmd {
	t.Helper()
	c := panectlCmd(s, args...)
	c.Stdout, c.Stderr = stdout, stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill() })
	waitClients(t, s, 1) // the wait's control client
	time.Sleep(time.Second)
	return c
}

func TestFaultRespawnEndsWaits(t *testing.T) {
	cases := append(longWaits[:len(longWaits):len(longWaits)], longWait{"send-text --when-ready", true, func(p string) []string {
		return []string{"--json", "send-text", p, "hello", "--when-ready", "--timeout", "60"}
	}})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tmuxtest.New(t)
			p := shellPane(t, s, [2]int{80, 24})
			if tc.busy {
				s.Tmux("send-keys", "-t", p, "-l", "sleep 100\n")
			}
			var stdout, stderr strings.Builder
			c := startWaiting(t, s, &stdout, &stderr, tc.args(p)...)
			old, now := respawn(t, s, p)
			code, took := waitExit(t, c, respawnLimit)
			if code != 5 || took > respawnLimit {
				t.Errorf("%s, pane respawned during it: exit %d after %v, want 5 within %v (stdout %s, stderr %s)",
					tc.name, code, took.Round(time.Millisecond), respawnLimit, stdout.String(), stderr.String())
			}
			wantReplacedNote(t, tc.name, stdout.String()+stderr.String(), old, now)
			if tc.name == "run" {
				var out map[string]any
				if err := json.Unmarshal([]byte(stdout.String()), &out); err != nil {
					t.Fatalf("run --json: %v: %s", err, stdout.String())
				}
				if v, ok := out["exit_code"]; !ok || v != nil || out["outcome"] != "exited" {
					t.Errorf("run on a respawned pane: exit_code %v (present %v), outcome %v; want null and exited", v, ok, out["outcome"])
				}
			}
			t.Logf("%s ended %v after the respawn", tc.name, took.Round(time.Millisecond))
		})
	}
}

// A cursor made before a respawn is still a bad cursor (exit 2) for a wait
// that begins after it: only a respawn during the wait ends it as exited.
func TestRespawnedBeforeWaitIsBadCursor(t *testing.T) {
	s := tmuxtest.New(t)
	p := shellPane(t, s, [2]int{80, 24})
	code, cursor, stderr, _ := runLimited(t, s, 10*time.Second, "cursor", p)
	if code != 0 {
		t.Fatalf("cursor: exit %d %s", code, stderr)
	}
	respawn(t, s, p)
	code, _, stderr, _ = runLimited(t, s, 10*time.Second, "wait-for-text", p, "--cursor", strings.TrimSpace(cursor), "--pattern", "never", "--timeout", "5")
	if code != 2 || !strings.Contains(stderr, "respawned") {
		t.Errorf("wait with a cursor from before a respawn: exit %d, stderr %q; want 2, a bad cursor", code, stderr)
	}
}

// The MCP tools end the same way: wait_for_text's result says exited with
// the note; run_shell_command's says exited with exit_code null. The kept
// control client serves the next call on the respawned pane.
func TestMCPRespawnEndsWaits(t *testing.T) {
	s := tmuxtest.New(t)
	p := shellPane(t, s, [2]int{80, 24})
	q := shellPane(t, s, [2]int{80, 24}) // (another session: its own kept client)
	m := startMCPLines(t, s)
	m.call(t, 2, "capture", map[string]any{"pane_id": p})
	m.call(t, 3, "capture", map[string]any{"pane_id": q})

	calls := []struct {
		pane string
		tool string
		args map[string]any
	}{
		{p, "wait_for_text", map[string]any{"pane_id": p, "patterns": "never", "timeout": 60}},
		{q, "run_shell_command", map[string]any{"pane_id": q, "command": "sleep 100", "timeout": 60}},
	}
	for i, call := range calls {
		m.send(t, map[string]any{"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call", "params": map[string]any{
			"name": call.tool, "arguments": call.args}})
		time.Sleep(time.Second)
		old, now := respawn(t, s, call.pane)
		start := time.Now()
		var r map[string]any
		for r == nil {
			v := m.next(t, respawnLimit)
			if v["id"] != nil { // (progress notifications carry no id)
				r = v
			}
		}
		took := time.Since(start)
		res, _ := r["result"].(map[string]any)
		out, _ := res["structuredContent"].(map[string]any)
		if out == nil || res["isError"] == true || out["outcome"] != "exited" || took > respawnLimit {
			t.Errorf("%s, pane respawned during it: %s after %v; want outcome exited within %v", call.tool, toJSON(r), took.Round(time.Millisecond), respawnLimit)
			continue
		}
		wantReplacedNote(t, call.tool, toJSON(out["note"]), old, now)
		if call.tool == "run_shell_command" {
			if v, ok := out["exit_code"]; !ok || v != nil {
				t.Errorf("run_shell_command on a respawned pane: exit_code %v (present %v), want null", v, ok)
			}
		}
		t.Logf("%s answered %v after the respawn", call.tool, took.Round(time.Millisecond))
	}
	// the respawned pane is a pane like any other for the next call
	m.call(t, 20, "capture", map[string]any{"pane_id": p})
}

// send-text --submit verifying a submission (the program takes 1.5 s to
// react to Enter) when the pane's process is replaced: exit 5 with the
// note, from the CLI and from MCP's send_text (an error result, exited).
func TestFaultRespawnDuringSubmit(t *testing.T) {
	start := func(t *testing.T) (*tmuxtest.Server, string) {
		s := tmuxtest.New(t)
		p := s.NewPane([2]int{80, 24}, "python3", "-c", slowEnter)
		awaitShown(t, s, p.ID, ">") // raw mode is on
		return s, p.ID
	}
	t.Run("cli", func(t *testing.T) {
		t.Parallel()
		s, p := start(t)
		c := panectlCmd(s, "--json", "send-text", p, "hello", "--submit")
		var stderr strings.Builder
		c.Stderr = &stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill() })
		awaitShown(t, s, p, "> hello") // typed; slowEnter holds the Enter
		old, now := respawn(t, s, p)
		code, took := waitExit(t, c, respawnLimit)
		if code != 5 || !strings.Contains(stderr.String(), `"code":"exited"`) {
			t.Errorf("pane respawned during send-text --submit: exit %d after %v, stderr %q; want 5 (exited)", code, took, stderr.String())
		}
		wantReplacedNote(t, "send-text --submit", stderr.String(), old, now)
		t.Logf("send-text --submit ended %v after the respawn", took.Round(time.Millisecond))
	})
	t.Run("mcp", func(t *testing.T) {
		t.Parallel()
		s, p := start(t)
		m := startMCPLines(t, s)
		m.send(t, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
			"name": "send_text", "arguments": map[string]any{"pane_id": p, "text": "hello", "submit": true}}})
		awaitShown(t, s, p, "> hello") // typed; slowEnter holds the Enter
		old, now := respawn(t, s, p)
		r := m.next(t, respawnLimit)
		text := toJSON(r)
		if !strings.Contains(text, `"isError":true`) || !strings.Contains(text, `"code":"exited"`) {
			t.Errorf("send_text with the pane respawned during it: %s; want an error result with code exited", text)
		}
		wantReplacedNote(t, "send_text", text, old, now)
	})
}

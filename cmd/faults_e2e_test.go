//go:build e2e

package cmd_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

// Fault injection (issue 14: never hang, never harm). Each test drives the
// real panectl binary against a real tmux server that is stopped, deaf,
// killed or whose panes die in the ways that used to hang panectl or give
// the wrong code. The time bounds are the "done means"; they are
// generous on purpose (a shared, loaded machine).

// stopServer stops s's tmux server (SIGSTOP) and returns a function that
// resumes it; the cleanup resumes it too, before the server is killed.
func stopServer(t *testing.T, s *tmuxtest.Server) func() {
	t.Helper()
	pid, err := strconv.Atoi(s.Tmux("display-message", "-p", "#{pid}"))
	if err != nil {
		t.Fatal(err)
	}
	resume := func() { _ = syscall.Kill(pid, syscall.SIGCONT) }
	t.Cleanup(resume) // runs before tmuxtest's kill-server (cleanups run last-in first-out)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	return resume
}

// A stopped server: a wait with --timeout 2 exits 1 ("not responding",
// naming the socket) within 5 s, whether the server stopped before the wait
// or during it; SIGTERM ends a stuck command within 2 s with 130; after
// SIGCONT everything works again and no client is left attached.
func TestFaultStoppedServer(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	resume := stopServer(t, s)

	code, _, stderr, _ := runLimited(t, s, 5*time.Second, "wait-for-text", p.ID, "--pattern", "never", "--timeout", "2")
	if code != 1 || !strings.Contains(stderr, "not responding") || !strings.Contains(stderr, s.Socket) {
		t.Errorf("stopped server: exit %d, stderr %q; want 1 naming the socket and \"not responding\"", code, stderr)
	}
	code, _, stderr, _ = runLimited(t, s, 7*time.Second, "--json", "list")
	if code != 1 || !strings.Contains(stderr, `"code":"not_responding"`) {
		t.Errorf("stopped server, list --json: exit %d, stderr %q; want 1 with code not_responding", code, stderr)
	}

	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		c := panectlCmd(s, "wait-for-text", p.ID, "--pattern", "never", "--timeout", "60")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond) // stuck in its first tmux call
		_ = c.Process.Signal(sig)
		if code, took := waitExit(t, c, 2*time.Second); code != 130 || took > 2*time.Second {
			t.Errorf("%v on a stuck wait: exit %d after %v, want 130 within 2 s", sig, code, took)
		}
	}

	resume()
	code, _, stderr, _ = runLimited(t, s, 10*time.Second, "send-text", p.ID, "typed", "--submit")
	if code != 0 {
		t.Fatalf("send-text after SIGCONT: exit %d %s", code, stderr)
	}
	s.Tmux("send-keys", "-t", p.ID, "-l", "after-cont\n") // not typed by panectl: not discounted as echo
	code, stdout, stderr, _ := runLimited(t, s, 10*time.Second, "wait-for-text", p.ID, "--cursor", "history", "--pattern", "after-cont", "--timeout", "5")
	if code != 0 || !strings.Contains(stdout, "after-cont") {
		t.Errorf("wait after SIGCONT: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	// stopped during a wait, after its control client attached
	c := startWait(t, s, 1, p.ID, "--pattern", "never", "--timeout", "2")
	stopServer(t, s)
	if code, took := waitExit(t, c, 5*time.Second); code == 0 || took > 5*time.Second {
		t.Errorf("server stopped mid-wait: exit %d after %v, want nonzero within 5 s (stderr %v)", code, took, c.Stderr)
	}
	resume()
	waitClients(t, s, 0)
}

// A server stopped while an operation runs (kill -STOP half a second in,
// when run's command is running, the watch streams, the follow waits):
// each ends within its timeout plus the documented margin (1.5 s; run 6.5
// s: its recovery after the timeout), and no later than one tmux call's
// deadline (5 s) after the stop plus that margin, plus a second of slack
// for a loaded machine, with exit 1 "not responding" naming the socket;
// never 130, which only SIGINT or SIGTERM give (and then within 2 s). The
// MCP server's run_shell_command answers with the same error in the same
// time.
func TestFaultStoppedServerDuringOperations(t *testing.T) {
	cases := []struct {
		name  string
		args  func(p string) []string
		limit time.Duration
	}{
		{"run --timeout 3", func(p string) []string { return []string{"--json", "run", p, "sleep 1", "--timeout", "3"} }, 10500 * time.Millisecond},
		{"run --timeout 10", func(p string) []string { return []string{"--json", "run", p, "sleep 1", "--timeout", "10"} }, 8 * time.Second},
		{"watch --timeout 3", func(p string) []string { return []string{"--json", "watch", p, "--format", "events", "--timeout", "3"} }, 5500 * time.Millisecond},
		{"tasks --follow --timeout 3", func(string) []string { return []string{"--json", "tasks", "--follow", "--timeout", "3"} }, 5500 * time.Millisecond},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tmuxtest.New(t)
			p := shellPane(t, s, [2]int{80, 24})
			c := panectlCmd(s, tc.args(p)...)
			var stderr strings.Builder
			c.Stderr = &stderr
			start := time.Now()
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond)
			stopServer(t, s)
			code, _ := waitExit(t, c, tc.limit)
			took := time.Since(start)
			if code != 1 || took > tc.limit || !strings.Contains(stderr.String(), `"code":"not_responding"`) || !strings.Contains(stderr.String(), s.Socket) {
				t.Errorf("exit %d after %v, stderr %q; want 1, not_responding naming the socket, within %v", code, took.Round(time.Millisecond), stderr.String(), tc.limit)
			}
			t.Logf("exit %d after %v", code, took.Round(time.Millisecond))
		})
	}
	t.Run("run SIGINT", func(t *testing.T) {
		t.Parallel()
		s := tmuxtest.New(t)
		p := shellPane(t, s, [2]int{80, 24})
		c := panectlCmd(s, "run", p, "sleep 1", "--timeout", "10")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		stopServer(t, s)
		time.Sleep(time.Second) // stuck in a tmux call
		_ = c.Process.Signal(syscall.SIGINT)
		if code, took := waitExit(t, c, 2*time.Second); code != 130 || took > 2*time.Second {
			t.Errorf("SIGINT on a run stuck on a stopped server: exit %d after %v, want 130 within 2 s", code, took)
		}
	})
	t.Run("mcp run_shell_command", func(t *testing.T) {
		t.Parallel()
		s := tmuxtest.New(t)
		p := shellPane(t, s, [2]int{80, 24})
		m := startMCPLines(t, s)
		m.call(t, 2, "capture", map[string]any{"pane_id": p})
		m.send(t, map[string]any{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": map[string]any{
			"name": "run_shell_command", "arguments": map[string]any{"pane_id": p, "command": "sleep 1", "timeout": 3}}})
		start := time.Now()
		time.Sleep(500 * time.Millisecond)
		stopServer(t, s)
		const limit = 10500 * time.Millisecond
		r := m.next(t, limit)
		took := time.Since(start)
		text := toJSON(r)
		if took > limit || !strings.Contains(text, `"isError":true`) || !strings.Contains(text, `not_responding`) {
			t.Errorf("run_shell_command on a server stopped during it: %s after %v; want an error result, not_responding, within %v", text, took.Round(time.Millisecond), limit)
		}
		t.Logf("answered after %v", took.Round(time.Millisecond))
	})
}

// A kept control client is what tmux takes for "the current client" of a
// command run from outside tmux without -c/-t (here display-message -p,
// harmless; switch-client and detach-client choose the same way: tmux has
// no flag to keep a client out, cmd-find.c cmd_find_best_client). So
// panectl mcp detaches an idle kept client after tmux.DefaultKeepIdle (15
// s; it was 5 minutes): afterwards such a command no longer finds
// panectl's client, and the next call attaches again and works. (The waits
// here time out: one that matches at once looks through a tmux process and
// attaches nothing.)
func TestKeptClientIdleDetach(t *testing.T) {
	s := tmuxtest.New(t)
	p := shellPane(t, s, [2]int{80, 24})
	m := startMCPLines(t, s)
	m.call(t, 2, "wait_for_text", map[string]any{"pane_id": p, "patterns": "never-shown", "timeout": 0.3})
	lastUse := time.Now()
	waitClients(t, s, 1)
	if cur := s.Tmux("display-message", "-p", "#{client_name} #{client_flags}"); !strings.Contains(cur, "control-mode") {
		t.Errorf("the current client while the kept client is attached: %q, want panectl's control client", cur)
	}
	limit := tmux.DefaultKeepIdle + 3*time.Second
	for len(s.Clients()) != 0 {
		if time.Since(lastUse) > limit {
			t.Fatalf("the kept client is still attached %v after its last use (idle detach %v): %q", time.Since(lastUse).Round(time.Second), tmux.DefaultKeepIdle, s.Clients())
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("idle kept client detached %v after its last use", time.Since(lastUse).Round(100*time.Millisecond))
	if cur := s.Tmux("display-message", "-p", "#{client_name}"); cur != "" {
		t.Errorf("the current client after the idle detach: %q, want none", cur)
	}
	m.call(t, 3, "wait_for_text", map[string]any{"pane_id": p, "patterns": "never-shown", "timeout": 0.3})
	waitClients(t, s, 1)
}

// panectl mcp --keep-idle: 0 keeps no client between calls (each call
// attaches and detaches its own); 1 detaches the kept client a second
// after the last call.
func TestKeptClientKeepIdleFlag(t *testing.T) {
	s := tmuxtest.New(t)
	p := shellPane(t, s, [2]int{80, 24})
	none := startMCPLines(t, s, "--keep-idle", "0")
	none.call(t, 2, "wait_for_text", map[string]any{"pane_id": p, "patterns": "never-shown", "timeout": 0.3})
	waitClients(t, s, 0)
	none.call(t, 3, "capture", map[string]any{"pane_id": p})
	waitClients(t, s, 0)

	short := startMCPLines(t, s, "--keep-idle", "1")
	short.call(t, 2, "wait_for_text", map[string]any{"pane_id": p, "patterns": "never-shown", "timeout": 0.3})
	lastUse := time.Now()
	waitClients(t, s, 1)
	// Gone after its second of idle: not before (the answer left a
	// moment after the last use), and not much later.
	for len(s.Clients()) != 0 {
		if time.Since(lastUse) > 3*time.Second {
			t.Fatalf("--keep-idle 1: the kept client is still attached %v after its last use: %q", time.Since(lastUse).Round(100*time.Millisecond), s.Clients())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if took := time.Since(lastUse); took < 900*time.Millisecond {
		t.Errorf("--keep-idle 1: the kept client detached %v after its last use, want about 1 s", took.Round(10*time.Millisecond))
	}
}

// The server killed during a send (send-text --submit verifying, send-keys
// and send-ascii waiting --when-ready): exit 5, as wait-for-text, run and
// task wait give for a pane whose server went away with it after panectl
// saw it alive; the same "exited" error from the MCP tools.
func TestFaultServerKilledDuringSend(t *testing.T) {
	busy := []string{"sh", "-c", "while :; do echo busy; sleep 0.05; done"}
	cases := []struct {
		name    string
		program []string
		ready   string // shown once the program runs
		args    func(p string) []string
		typed   string // shown once panectl typed; "" waits for its client
	}{
		{"send-text --submit", []string{"python3", "-c", slowEnter}, ">", func(p string) []string { return []string{"--json", "send-text", p, "hello", "--submit"} }, "> hello"},
		{"send-keys --when-ready", busy, "busy", func(p string) []string {
			return []string{"--json", "send-keys", p, "Enter", "--when-ready", "--timeout", "20"}
		}, ""},
		{"send-ascii --when-ready", busy, "busy", func(p string) []string {
			return []string{"--json", "send-ascii", p, "3", "--when-ready", "--timeout", "20"}
		}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tmuxtest.New(t)
			p := s.NewPane([2]int{80, 24}, tc.program...)
			awaitShown(t, s, p.ID, tc.ready) // the program started
			c := panectlCmd(s, tc.args(p.ID)...)
			var stderr strings.Builder
			c.Stderr = &stderr
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			// Kill the server once panectl is in the send: its text is
			// shown (slowEnter then holds the Enter 1.5 s), or its
			// control client is attached for the --when-ready wait.
			if tc.typed != "" {
				awaitShown(t, s, p.ID, tc.typed)
			} else {
				waitClients(t, s, 1)
			}
			s.Tmux("kill-server")
			if code, took := waitExit(t, c, 5*time.Second); code != 5 || !strings.Contains(stderr.String(), `"code":"exited"`) {
				t.Errorf("server killed during %s: exit %d after %v, stderr %q; want 5 (exited)", tc.name, code, took, stderr.String())
			}
		})
	}
	t.Run("mcp send_text", func(t *testing.T) {
		t.Parallel()
		s := tmuxtest.New(t)
		p := s.NewPane([2]int{80, 24}, "python3", "-c", slowEnter)
		awaitShown(t, s, p.ID, ">")
		m := startMCPLines(t, s)
		m.send(t, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
			"name": "send_text", "arguments": map[string]any{"pane_id": p.ID, "text": "hello", "submit": true}}})
		awaitShown(t, s, p.ID, "> hello") // typed; slowEnter holds the Enter
		s.Tmux("kill-server")
		r := m.next(t, 5*time.Second)
		if text := toJSON(r); !strings.Contains(text, `"isError":true`) || !strings.Contains(text, `"code":"exited"`) {
			t.Errorf("send_text with the server killed during it: %s; want an error result with code exited", text)
		}
	})
}

// deafSocket listens on a unix socket, accepts every connection and never
// answers: what a hung server looks like to a client.
func deafSocket(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pctl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "deaf")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		for _, c := range conns {
			c.Close()
		}
		os.RemoveAll(dir)
	})
	return path
}

// A socket that accepts and never answers: exit 1 "not responding" within
// the operation's timeout plus the margin; SIGTERM ends a stuck command.
func TestFaultDeafSocket(t *testing.T) {
	s := &tmuxtest.Server{T: t, Socket: deafSocket(t)}
	code, _, stderr, _ := runLimited(t, s, 5*time.Second, "wait-for-text", "%0", "--pattern", "x", "--timeout", "2")
	if code != 1 || !strings.Contains(stderr, "not responding") {
		t.Errorf("deaf socket, wait: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr, _ = runLimited(t, s, 7*time.Second, "list")
	if code != 1 || !strings.Contains(stderr, "not responding") {
		t.Errorf("deaf socket, list: exit %d, stderr %q", code, stderr)
	}
	c := panectlCmd(s, "new", "--", "true")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	_ = c.Process.Signal(syscall.SIGTERM)
	if code, took := waitExit(t, c, 2*time.Second); code != 130 || took > 2*time.Second {
		t.Errorf("SIGTERM on a stuck new: exit %d after %v, want 130 within 2 s", code, took)
	}
}

// A pane that dies under remain-on-exit without printing ends every wait
// promptly (tmux 3.3a sends a control client nothing for it): the issue's
// bar is `new -- sleep 1` then wait-for-text exiting 5 within 3 s.
func TestFaultSilentDeathEndsWaits(t *testing.T) {
	s := tmuxtest.New(t)
	s.Tmux("set-option", "-g", "remain-on-exit", "on")
	waits := map[string][]string{
		"wait-for-text": {"wait-for-text", "--pattern", "never", "--timeout", "20"},
		"wait-quiet":    {"wait-quiet", "--quiet-ms", "60000", "--timeout", "20"},
		"wait-for-turn": {"wait-for-turn", "--recognizer", "generic", "--quiet-ms", "60000", "--wait-through-busy", "--timeout", "20"},
	}
	for name, args := range waits {
		t.Run(name, func(t *testing.T) {
			code, out, stderr, _ := runLimited(t, s, 5*time.Second, "new", "--", "sleep", "1")
			if code != 0 {
				t.Fatalf("new: exit %d %s", code, stderr)
			}
			id := strings.TrimSpace(out)
			code, _, stderr, took := runLimited(t, s, 3*time.Second, append(append([]string{args[0], id}, args[1:]...), "--json")...)
			if code != 5 {
				t.Errorf("%s on a pane that died silently: exit %d after %v, want 5 (stderr %s)", name, code, took, stderr)
			}
			t.Logf("%s ended %v after start (the process lived 1 s)", name, took.Round(time.Millisecond))
		})
	}
	t.Run("run", func(t *testing.T) {
		id := shellPane(t, s, [2]int{80, 24})
		// the shell itself dies, silently, while the command runs
		code, _, stderr, took := runLimited(t, s, 4*time.Second, "--json", "run", id, "sleep 1; kill -9 $$", "--allow-multi", "--timeout", "20")
		if code != 5 {
			t.Errorf("run in a shell that died silently: exit %d after %v, want 5 (stderr %s)", code, took, stderr)
		}
	})
}

// The README's CI flow: a pane that is its server's only one; its process
// exits, the server exits with it: the wait says exited (5), not "no
// server" (4). And `new` with a command that exits at once is 5 every time,
// also when the server has other sessions.
func TestFaultExitsAreExitFive(t *testing.T) {
	dir, err := os.MkdirTemp("", "pctl")
	if err != nil {
		t.Fatal(err)
	}
	s := &tmuxtest.Server{T: t, Socket: filepath.Join(dir, "ci")}
	t.Cleanup(func() {
		_, _ = s.TryTmux("kill-server")
		os.RemoveAll(dir)
	})
	code, out, stderr, _ := runLimited(t, s, 10*time.Second, "new", "--", "sh", "-c", "echo starting; sleep 1")
	if code != 0 {
		t.Fatalf("new: exit %d %s", code, stderr)
	}
	code, _, stderr, _ = runLimited(t, s, 5*time.Second, "wait-for-text", strings.TrimSpace(out), "--cursor", "history", "--pattern", "listening on", "--timeout", "20")
	if code != 5 {
		t.Errorf("CI flow, server exits with its only pane: exit %d, want 5 (stderr %s)", code, stderr)
	}

	k := tmuxtest.New(t) // a server with another session
	fives := 0
	for i := 0; i < 20; i++ {
		code, _, stderr, _ := runLimited(t, k, 10*time.Second, "new", "--", "sh", "-c", "exit 3")
		if code == 5 {
			fives++
		} else {
			t.Logf("try %d: exit %d %s", i, code, stderr)
		}
	}
	if fives != 20 {
		t.Errorf("new -- sh -c 'exit 3': exit 5 in %d of 20 tries, want 20", fives)
	}
	if panes := k.Tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_dead}"); strings.Count(panes, "\n") != 0 {
		t.Errorf("panes left behind by the exits: %q", panes)
	}
}

// watch changes remain-on-exit on the user's pane; killed with SIGKILL it
// cannot clean up itself, and its tmux guard client puts the options back
// at once; the pane then closes on exit as it would have.
func TestFaultWatchKilledRestoresOptions(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "sh", "-c", "sleep 2")
	if ok, err := tmuxtest.AtLeast("3.3"); err != nil {
		t.Fatal(err)
	} else if ok { // (tmux 3.2 has no remain-on-exit-format)
		s.Tmux("set-option", "-p", "-t", p.ID, "remain-on-exit-format", "mine #{pane_id}")
	}
	before := s.Tmux("show-options", "-p", "-t", p.ID)
	w := panectlCmd(s, "watch", p.ID, "--format", "events")
	out, err := w.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Process.Kill() })
	if _, err := bufio.NewReader(out).ReadBytes('\n'); err != nil {
		t.Fatal(err)
	}
	if during := s.Tmux("show-options", "-p", "-v", "-t", p.ID, "remain-on-exit"); during != "on" {
		t.Fatalf("watch did not hold the pane (remain-on-exit %q): the test proves nothing", during)
	}
	_ = w.Process.Signal(syscall.SIGKILL)
	_ = w.Wait()
	deadline := time.Now().Add(2 * time.Second)
	for s.Tmux("show-options", "-p", "-t", p.ID) != before {
		if time.Now().After(deadline) {
			t.Fatalf("pane options after SIGKILL:\n%s\nwant, as before:\n%s", s.Tmux("show-options", "-p", "-t", p.ID), before)
		}
		time.Sleep(20 * time.Millisecond)
	}
	deadline = time.Now().Add(5 * time.Second)
	for strings.Contains(s.Tmux("list-panes", "-a", "-F", "#{pane_id}"), p.ID) {
		if time.Now().After(deadline) {
			t.Fatal("the pane stayed after its process exited: remain-on-exit was left on")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// MCP: a malformed line gets a JSON-RPC -32700 answer, JSON that is not one
// message (a batch too) a -32600 answer, and the session goes on (go-sdk
// issue #1209): after them, a ping still gets its answer.
func TestFaultMCPMalformedLine(t *testing.T) {
	s := tmuxtest.New(t)
	m := spawnMCPLines(t, s)
	send := func(line string) {
		if _, err := io.WriteString(m.in, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{bad json`)
	v := m.next(t, 5*time.Second)
	if e, _ := v["error"].(map[string]any); e == nil || e["code"] != float64(-32700) || v["id"] != nil {
		t.Errorf("answer to {bad json: %v, want a -32700 error with id null", v)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if v := m.next(t, 5*time.Second); v["id"] != float64(1) || v["result"] == nil {
		t.Errorf("initialize after a bad line: %v", v)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`not json either`)
	if v := m.next(t, 5*time.Second); v["error"] == nil {
		t.Errorf("answer to a second bad line: %v", v)
	}
	// JSON that is not one message (the SDK's reader would end the session)
	for _, line := range []string{`{}`, `null`, `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, `{"jsonrpc":"2.0","id":3}`} {
		send(line)
		v := m.next(t, 5*time.Second)
		if e, _ := v["error"].(map[string]any); e == nil || e["code"] != float64(-32600) {
			t.Errorf("answer to %s: %v, want a -32600 error", line, v)
		}
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if v := m.next(t, 5*time.Second); v["id"] != float64(2) || v["error"] != nil {
		t.Errorf("ping after bad lines: %v", v)
	}
}

// Arguments reach tmux as given, through the tmux.Arg escaping: the issue's
// cases, checked where they land (the program's argv and environment, the
// server's options).
func TestFaultArgumentsReachTmuxUnchanged(t *testing.T) {
	s := tmuxtest.New(t)
	dir := t.TempDir()
	argsOut := filepath.Join(dir, "args")
	code, _, stderr, _ := runLimited(t, s, 10*time.Second, "new", "--env", "K=v;", "--", "sh", "-c",
		`printf '[%s]' "$@" "$K" > "$0.tmp" && mv "$0.tmp" "$0"; sleep 100`, argsOut, "a;", `b\;`, ";", "find . -exec echo {} \\;")
	if code != 0 {
		t.Fatalf("new: exit %d %s", code, stderr)
	}
	want := `[a;][b\;][;][find . -exec echo {} \;][v;]`
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, _ := os.ReadFile(argsOut)
		if string(b) == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command got %q, want %q", b, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	status := s.Tmux("show-options", "-gv", "status-right")
	code, _, stderr, _ = runLimited(t, s, 10*time.Second, "call", "new_pane",
		`{"command":["sh","-c","sleep 100","y;","set-option","-g","status-right","INJECTED"]}`)
	if code != 0 {
		t.Fatalf("call new_pane: exit %d %s", code, stderr)
	}
	if got := s.Tmux("show-options", "-gv", "status-right"); got != status {
		t.Errorf("a command array ran a tmux command: status-right is %q", got)
	}
	// tmux expands formats in both: #(...) would run a shell command and
	// be replaced by its output, #{pane_id} by the id
	cwd := filepath.Join(dir, "d#(echo x)#{pane_id};")
	if err := os.Mkdir(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	name := "n#(echo x)#{pane_id}#S;"
	code, out, stderr, _ := runLimited(t, s, 10*time.Second, "--json", "new", "--name", name, "--cwd", cwd, "--", "sleep", "100")
	if code != 0 {
		t.Fatalf("new --name/--cwd with # and ;: exit %d %s", code, stderr)
	}
	var np struct {
		SessionName string `json:"session_name"`
		CWD         string `json:"cwd"`
	}
	_ = json.Unmarshal([]byte(out), &np)
	if np.SessionName != name || np.CWD != cwd {
		t.Errorf("session %q in %q; want the name and directory as given, %q in %q", np.SessionName, np.CWD, name, cwd)
	}
}

// `-S` naming a regular file is refused (exit 2) and the file is intact;
// the "no server" advice never names a command that would replace a file.
func TestFaultSocketPathNotASocket(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &tmuxtest.Server{T: t, Socket: notes}
	for _, args := range [][]string{{"new"}, {"list"}, {"new", "--", "true"}} {
		code, _, stderr, _ := runLimited(t, s, 5*time.Second, args...)
		if code != 2 || !strings.Contains(stderr, "not a tmux socket") {
			t.Errorf("-S FILE %s: exit %d %q; want 2", strings.Join(args, " "), code, stderr)
		}
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "keep me\n" {
		t.Errorf("the file after -S: %q, %v", b, err)
	}
	s.Socket = filepath.Join(dir, "none")
	code, _, stderr, _ := runLimited(t, s, 5*time.Second, "list")
	if code != 4 || strings.Contains(stderr, "tmux -S") || !strings.Contains(stderr, fmt.Sprintf("panectl -S %s new", s.Socket)) {
		t.Errorf("no server: exit %d %q; want 4 advising panectl's own new", code, stderr)
	}
}

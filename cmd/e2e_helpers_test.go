package cmd_test

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
)

// Helpers the end-to-end tests share, in the quick run and with -tags e2e.

// run runs panectl and returns its exit code, stdout, stderr and how long
// it took; it fails the test if panectl runs longer than limit.
func runLimited(t *testing.T, s *tmuxtest.Server, limit time.Duration, args ...string) (int, string, string, time.Duration) {
	t.Helper()
	c := panectlCmd(s, args...)
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	start := time.Now()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	code, _ := waitExit(t, c, limit)
	took := time.Since(start)
	if took > limit {
		t.Errorf("panectl %s took %v, want at most %v", strings.Join(args, " "), took.Round(time.Millisecond), limit)
	}
	return code, stdout.String(), stderr.String(), took
}

// mcpLines is `panectl mcp` on a server, driven with raw JSON-RPC lines.
type mcpLines struct {
	in    io.WriteCloser
	lines chan map[string]any
}

// startMCPLines starts `panectl mcp` on s and initializes the session.
func startMCPLines(t *testing.T, s *tmuxtest.Server, args ...string) *mcpLines {
	t.Helper()
	m := spawnMCPLines(t, s, args...)
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "0"}}})
	m.next(t, 10*time.Second)
	m.send(t, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return m
}

// spawnMCPLines starts `panectl mcp ARGS` on s, not yet initialized.
func spawnMCPLines(t *testing.T, s *tmuxtest.Server, args ...string) *mcpLines {
	t.Helper()
	c := panectlCmd(s, append([]string{"mcp"}, args...)...)
	in, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	m := &mcpLines{in: in, lines: make(chan map[string]any, 10)}
	t.Cleanup(func() { in.Close(); _ = c.Process.Kill(); _ = c.Wait() })
	go func() {
		sc := bufio.NewScanner(outPipe)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var v map[string]any
			if json.Unmarshal(sc.Bytes(), &v) == nil {
				m.lines <- v
			}
		}
		close(m.lines)
	}()
	return m
}

func (m *mcpLines) send(t *testing.T, v any) {
	t.Helper()
	if _, err := io.WriteString(m.in, toJSON(v)+"\n"); err != nil {
		t.Fatal(err)
	}
}

// next is the next message, within limit (plus 5 s: then the test fails).
func (m *mcpLines) next(t *testing.T, limit time.Duration) map[string]any {
	t.Helper()
	select {
	case v, ok := <-m.lines:
		if !ok {
			t.Fatal("the MCP server ended")
		}
		return v
	case <-time.After(limit + 5*time.Second):
		t.Fatalf("no answer within %v", limit+5*time.Second)
	}
	return nil
}

// call calls a tool and returns its result; an error result fails the test.
func (m *mcpLines) call(t *testing.T, id int, name string, args map[string]any) map[string]any {
	t.Helper()
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
	v := m.next(t, 10*time.Second)
	if r, _ := v["result"].(map[string]any); r == nil || r["isError"] == true {
		t.Fatalf("%s: %v", name, v)
	}
	return v
}

// slowEnter is a program that echoes what it reads (raw mode) and takes
// 1.5 s to react to Enter: a submission's verification is still looking
// when the server is killed.
const slowEnter = `import os, time, tty
tty.setraw(0)
buf = b""
os.write(1, b"> ")
while True:
    c = os.read(0, 1)
    if c in (b"\r", b"\n"):
        time.sleep(1.5)
        os.write(1, b"\r\ngot " + buf + b"\r\n> ")
        buf = b""
    else:
        buf += c
        os.write(1, c)
`

// awaitShown waits (up to 20 s) until pane p shows text: a program that
// announces it is ready (slowEnter's prompt ">") has started, however long its
// interpreter took (a pyenv shim adds 0.4 to 2 s here).
func awaitShown(t *testing.T, s *tmuxtest.Server, p, text string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, err := s.TryTmux("capture-pane", "-p", "-t", p)
		if err == nil && strings.Contains(out, text) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %s never showed %q: %q (%v)", p, text, out, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// awaitCommand waits (up to 20 s) until pane p's foreground command is
// name: a program the test typed or started has got that far.
func awaitCommand(t *testing.T, s *tmuxtest.Server, p, name string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, err := s.TryTmux("display-message", "-p", "-t", p, "#{pane_current_command}")
		if err == nil && strings.TrimSpace(out) == name {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %s never ran %s: its command is %q (%v)", p, name, out, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

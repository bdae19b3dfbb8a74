package cmd_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
)

// Exchanges that real MCP clients had trouble with, replayed as raw
// JSON-RPC (findings-2026-12-02/mcp-clients.md).
func TestMCPClientExchanges(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat").ID
	m := startMCPLines(t, s)

	// Gemini CLI parses an error's text as JSON and validates it against the
	// output schema: the text must not be JSON, the object is in _meta.
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
		"name": "run_shell_command", "arguments": map[string]any{"pane_id": p, "cmd": "ls", "wait_for_previous": true}}})
	r, _ := m.next(t, 10*time.Second)["result"].(map[string]any)
	text := resultText(r)
	if r["isError"] != true || json.Valid([]byte(text)) ||
		!strings.Contains(text, "cmd: unknown field (did you mean command?); command: required field missing") {
		t.Errorf("error result %v: want a sentence naming cmd and command, not JSON", r)
	}
	if meta, _ := r["_meta"].(map[string]any); meta == nil || meta["panectl/error"].(map[string]any)["code"] != "usage" {
		t.Errorf("error result %v: want the error object in _meta", r)
	}

	// tools/list: list_tasks is read-only, so clients do not ask to approve it.
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": 3, "method": "tools/list"})
	tools, _ := m.next(t, 10*time.Second)["result"].(map[string]any)["tools"].([]any)
	for _, tl := range tools {
		tm := tl.(map[string]any)
		if tm["name"] == "list_tasks" {
			if a, _ := tm["annotations"].(map[string]any); a["readOnlyHint"] != true || a["destructiveHint"] == true {
				t.Errorf("list_tasks annotations %v: want read-only", a)
			}
		}
	}

	// A long capture: the small fields come first (a client that cuts the
	// text keeps them), and the lines are cut to the result's byte bound.
	s.Tmux("set-option", "-g", "history-limit", "100000")
	long := s.NewPane([2]int{80, 24}, "sh", "-c", "seq -f 'line %06g of a capture that a client would cut' 1 100000; echo END; exec cat").ID
	awaitShown(t, s, long, "END")
	for _, args := range []map[string]any{
		{"pane_id": long, "cursor": "history"},
		{"pane_id": long, "cursor": "history", "max_lines": 10000},
	} {
		m.send(t, map[string]any{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": map[string]any{"name": "capture", "arguments": args}})
		r, _ := m.next(t, 20*time.Second)["result"].(map[string]any)
		text := resultText(r)
		if c, o := strings.Index(text, `"cursor"`), strings.Index(text, `"output"`); c < 0 || o < c || !strings.Contains(text, `"truncated":true`) ||
			len(text) > 40<<10 || !strings.Contains(text, "END") {
			t.Errorf("capture %v: %d bytes, cursor at %d, output at %d; want cursor first, truncated, within 40 KiB, ending with END", args, len(text), c, o)
		}
		if args["max_lines"] != nil && !strings.Contains(text, "output cut to its newest 32 KiB") {
			t.Errorf("capture %v: no note of the byte bound in %.300s", args, text)
		}
	}

	// A long run, as opencode showed it live (docs/mcp-clients-live.md):
	// outcome, exit code, cursor and note come before command and output.
	sh := newShellPane(t, s)
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": map[string]any{"name": "run_shell_command",
		"arguments": map[string]any{"pane_id": sh, "command": "seq -f 'line %06g of a long run' 1 5000", "max_lines": 5000}}})
	r, _ = m.next(t, 20*time.Second)["result"].(map[string]any)
	text = resultText(r)
	for _, field := range []string{"outcome", "exit_code", "truncated", "cursor", "note"} {
		if f, c := strings.Index(text, `"`+field+`"`), strings.Index(text, `"command"`); f < 0 || c < f || !strings.Contains(text, "line 005000") {
			t.Errorf("run: %s at %d, command at %d in %.300s; want it before command and output", field, f, c, text)
		}
	}

	// A string past 1 MiB is refused before any decoding, whatever the tool.
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": map[string]any{
		"name": "send_text", "arguments": map[string]any{"pane_id": p, "text": strings.Repeat("x", 2<<20)}}})
	if v := m.next(t, 10*time.Second); v["id"] != float64(7) || !strings.Contains(toJSON(v["error"]), "longer than 1048576 bytes") {
		t.Errorf("a 2 MiB text: %.300v", v)
	}
	// At most 8 calls at once: a 9th is answered at once with an error.
	for id := 10; id < 19; id++ {
		m.send(t, map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{
			"name": "wait_for_text", "arguments": map[string]any{"pane_id": p, "patterns": "never", "timeout": 30}}})
	}
	if v := m.next(t, 10*time.Second); v["id"] != float64(18) || !strings.Contains(toJSON(v["error"]), "8 tool calls are running already") {
		t.Errorf("a 9th call: %.300v", v)
	}
	for id := 10; id < 18; id++ {
		m.send(t, map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": map[string]any{"requestId": id}})
	}

	// A cancelled wait sends nothing after the cancel.
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": map[string]any{
		"name": "wait_for_text", "arguments": map[string]any{"pane_id": p, "patterns": "never", "timeout": 30}}})
	m.send(t, map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": map[string]any{"requestId": 4}})
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": map[string]any{
		"name": "list_panes", "arguments": map[string]any{}}})
	for {
		v := m.next(t, 10*time.Second)
		if id, _ := v["id"].(float64); id == 4 || id >= 10 && id < 18 {
			t.Fatalf("an answer to a cancelled request: %v", v)
		}
		if v["id"] == float64(5) {
			break
		}
	}
	m.in.Close() // the server answers what it has, then exits
	for v := range m.lines {
		if v["id"] == float64(4) {
			t.Errorf("an answer to the cancelled request: %v", v)
		}
	}
}

func resultText(r map[string]any) string {
	c, _ := r["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	s, _ := c[0].(map[string]any)["text"].(string)
	return s
}

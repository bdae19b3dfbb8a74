//go:build e2e

package cmd_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
)

// Every tool call that lasts longer than a second sends MCP progress
// notifications about once a second when it carries a progress token, not
// only wait_for_text (tester4 D1): each long tool is called with a token on
// a pane where it lasts about 2.5 s and must send at least two, with its
// token, a progress that grows, and a message naming what it waits for.
func TestMCPProgressEveryLongCall(t *testing.T) {
	s := tmuxtest.New(t)
	sh := shellPane(t, s, [2]int{80, 24})
	busy := s.NewPane([2]int{80, 24}, "sh", "-c", "while :; do date +%s%N; sleep 0.1; done").ID
	m := startMCPLines(t, s)

	started := m.call(t, 2, "run_shell_command", map[string]any{"pane_id": sh, "command": "sleep 2.5", "background": true})
	taskID, _ := started["result"].(map[string]any)["structuredContent"].(map[string]any)["task_id"].(string)
	if taskID == "" {
		t.Fatalf("run_shell_command background: no task_id in %v", started)
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"wait_task", map[string]any{"task_id": taskID, "timeout": 20}},
		{"wait_for_text", map[string]any{"pane_id": sh, "patterns": "never-appears", "timeout": 2.5}},
		{"wait_for_quiet", map[string]any{"pane_id": sh, "quiet_ms": 60000, "timeout": 2.5}},
		{"wait_for_turn", map[string]any{"pane_id": sh, "recognizer": "generic", "quiet_ms": 60000, "timeout": 2.5}},
		{"run_shell_command", map[string]any{"pane_id": sh, "command": "sleep 2.5", "timeout": 20}},
		// never quiet: when_ready waits its whole timeout, then refuses
		{"send_text", map[string]any{"pane_id": busy, "text": "x", "when_ready": true, "timeout": 2.5}},
	}
	for i, c := range calls {
		id := 10 + i
		token := fmt.Sprintf("tok-%s", c.tool)
		start := time.Now()
		m.send(t, map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{
			"name": c.tool, "arguments": c.args, "_meta": map[string]any{"progressToken": token}}})
		var progress []map[string]any
		for {
			v := m.next(t, 30*time.Second)
			if v["method"] == "notifications/progress" {
				p, _ := v["params"].(map[string]any)
				if p["progressToken"] != token {
					t.Errorf("%s: progress for another token: %v", c.tool, p)
				}
				progress = append(progress, p)
				continue
			}
			if n, _ := v["id"].(float64); int(n) == id {
				break
			}
		}
		took := time.Since(start)
		t.Logf("%s: %d progress notifications in %v", c.tool, len(progress), took.Round(time.Millisecond))
		if took < 2*time.Second {
			t.Errorf("%s ended after %v: the call was meant to last about 2.5 s", c.tool, took)
		}
		if len(progress) < 2 {
			t.Errorf("%s lasted %v and sent %d progress notifications, want at least 2", c.tool, took, len(progress))
		}
		last := 0.0
		for _, p := range progress {
			v, _ := p["progress"].(float64)
			msg, _ := p["message"].(string)
			if v <= last || !strings.HasPrefix(msg, "waiting") {
				t.Errorf("%s: progress %v: want a growing progress and a message saying what is awaited", c.tool, p)
			}
			last = v
		}
	}
}

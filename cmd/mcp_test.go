package cmd_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/schematest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/panectl/panectl/schema"
)

// privateTmux gives a test its own tmux socket directory (so -L t is
// private), and kills the server and removes the directory afterwards.
// It returns the environment for panectl and tmux.
func privateTmux(t *testing.T) []string {
	t.Helper()
	requireTmux(t)
	tmp, err := os.MkdirTemp("", "pctl")
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TMUX_TMPDIR="+tmp, "TMUX=", "TMUX_PANE=", "PS1=$ ", "TERM=xterm-256color",
		"LANG=C.UTF-8", "LC_ALL=C.UTF-8", "HOME="+tmp)
	t.Cleanup(func() {
		c := exec.Command("tmux", "-L", "t", "kill-server")
		c.Env = env
		_ = c.Run()
		os.RemoveAll(tmp)
	})
	return env
}

func tmuxOut(t *testing.T, env []string, args ...string) string {
	t.Helper()
	c := exec.Command("tmux", append([]string{"-L", "t"}, args...)...)
	c.Env = env
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("tmux %v: %v %s", args, err, out)
	}
	return string(out)
}

// TestMCP starts `panectl -L t mcp` as a subprocess and drives it with the
// MCP Go SDK's own client.
func TestMCP(t *testing.T) {
	env := privateTmux(t)
	bin, err := exec.LookPath("panectl") // put on $PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	var mu sync.Mutex
	var progress []*mcp.ProgressNotificationParams
	client := mcp.NewClient(&mcp.Implementation{Name: "panectl-test", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, req.Params)
			mu.Unlock()
		},
	})
	srv := exec.Command(bin, "-L", "t", "mcp")
	srv.Env = env
	srv.Stderr = os.Stderr
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: srv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()

	if info := session.InitializeResult().ServerInfo; info.Name != "panectl" || info.Version == "" {
		t.Errorf("server info %+v: want name panectl and a version", info)
	}

	// tools/list: every tool, with the published schemas and annotations.
	list, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range list.Tools {
		byName[tl.Name] = tl
	}
	if len(list.Tools) != len(schema.Tools()) {
		t.Errorf("%d tools listed, want %d", len(list.Tools), len(schema.Tools()))
	}
	for _, want := range schema.Tools() {
		got := byName[want.Name]
		if got == nil {
			t.Errorf("tool %s not listed", want.Name)
			continue
		}
		s, err := schema.SchemasOf(want)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, got.InputSchema, s.Input) || !sameJSON(t, got.OutputSchema, s.Output) {
			t.Errorf("tool %s: listed schemas differ from schema.SchemasOf", want.Name)
		}
		a := got.Annotations
		if got.Title != want.Title || got.Description != want.Description || a == nil || a.Title != want.Title ||
			a.ReadOnlyHint != want.Annotations.ReadOnly || a.IdempotentHint != want.Annotations.Idempotent ||
			a.DestructiveHint == nil || *a.DestructiveHint != want.Annotations.Destructive ||
			a.OpenWorldHint == nil || *a.OpenWorldHint != want.Annotations.OpenWorld {
			t.Errorf("tool %s: title/description/annotations %+v do not match %+v", want.Name, a, want.Annotations)
		}
	}

	call := func(name string, args any, token any) (map[string]any, *mcp.CallToolResult) {
		t.Helper()
		p := &mcp.CallToolParams{Name: name, Arguments: args}
		if token != nil {
			p.SetProgressToken(token)
		}
		res, err := session.CallTool(ctx, p)
		if err != nil {
			t.Fatalf("%s: protocol error %v", name, err)
		}
		if res.IsError {
			return nil, res
		}
		b, _ := json.Marshal(res.StructuredContent)
		tool, _ := schema.Lookup(name)
		if err := schematest.ValidateOutput(tool, b); err != nil {
			t.Errorf("%s: structured output does not validate: %v", name, err)
		}
		if len(res.Content) != 1 || !sameJSONText(t, res.Content[0].(*mcp.TextContent).Text, string(b)) {
			t.Errorf("%s: text content is not a copy of the structured output", name)
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		return m, res
	}
	errorOf := func(res *mcp.CallToolResult) schema.ErrorOutput {
		t.Helper()
		if res == nil || !res.IsError {
			t.Fatalf("want an isError result, got %+v", res)
		}
		// The text is a sentence, not JSON (Gemini CLI would validate JSON
		// text against the output schema); the error object is in _meta.
		text := res.Content[0].(*mcp.TextContent).Text
		if json.Valid([]byte(text)) || !strings.Contains(text, "(error ") {
			t.Errorf("error text %q: want a sentence ending with its code, not JSON", text)
		}
		b, _ := json.Marshal(res.Meta["panectl/error"])
		var e schema.ErrorOutput
		if err := json.Unmarshal(b, &e.Error); err != nil || e.Error.Code == "" || !strings.HasPrefix(text, e.Error.Message) {
			t.Errorf("_meta %s: want the error object of %q", b, text)
		}
		return e
	}

	newp, _ := call("new_pane", map[string]any{"size": "80x24", "command": []string{"bash", "--norc", "--noprofile"}}, nil)
	pane, _ := newp["pane_id"].(string)
	if !strings.HasPrefix(pane, "%") {
		t.Fatalf("new_pane: %v", newp)
	}
	if w, _ := call("wait_for_text", map[string]any{"pane_id": pane, "cursor": "history", "patterns": `[$#] ?$`, "regex": true, "timeout": 10}, nil); w["outcome"] != "matched" {
		t.Fatalf("no prompt: %v", w)
	}

	// A wait with progress: every second, elapsed against the timeout.
	sent, _ := call("send_text", map[string]any{"pane_id": pane, "text": `sleep 2.2; echo mcp-""done`, "submit": true}, nil)
	w, _ := call("wait_for_text", map[string]any{"pane_id": pane, "cursor": sent["cursor"], "patterns": []string{"mcp-done"}, "timeout": 20}, "wait-1")
	if w["outcome"] != "matched" || w["matched_line"] != "mcp-done" {
		t.Errorf("wait_for_text: %v", w)
	}
	mu.Lock()
	if len(progress) < 1 {
		t.Errorf("no progress notifications during a 2 s wait")
	}
	for _, p := range progress {
		if p.ProgressToken != "wait-1" || p.Total != 20 || p.Progress <= 0 || p.Message == "" {
			t.Errorf("progress %+v: want token wait-1, total 20, progress > 0", p)
		}
	}
	mu.Unlock()

	if c, _ := call("capture", map[string]any{"pane_id": pane, "cursor": sent["cursor"]}, nil); !strings.Contains(toJSON(c["output"]), "mcp-done") {
		t.Errorf("capture: %v", c)
	}
	// Outcomes other than matched are results too, not errors.
	if w, _ := call("wait_for_text", map[string]any{"pane_id": pane, "patterns": "never", "timeout": 0.2}, nil); w["outcome"] != "timeout" {
		t.Errorf("timeout wait: %v", w)
	}

	// Failures are isError results carrying the error object.
	if _, res := call("capture", map[string]any{"pane_id": "%999"}, nil); errorOf(res).Error.ExitCode != 4 {
		t.Errorf("capture %%999: %+v", errorOf(res))
	}
	if _, res := call("wait_for_text", map[string]any{"pane_id": pane, "patterns": "x", "bogus": 1}, nil); !strings.Contains(errorOf(res).Error.Message, "bogus") || errorOf(res).Error.ExitCode != 2 {
		t.Errorf("unknown field: %+v", errorOf(res))
	}

	// Gemini CLI adds wait_for_previous to every call: it is ignored.
	if l, res := call("list_panes", map[string]any{"wait_for_previous": true}, nil); res.IsError || l["panes"] == nil {
		t.Errorf("list_panes with wait_for_previous: %v", res.Content)
	}
	// Text reaches the model as typed: && is not \u0026\u0026.
	if r, res := call("run_shell_command", map[string]any{"pane_id": pane, "command": "true && echo '<&>'"}, nil); res.IsError ||
		!strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"true && echo '<&>'"`) || toJSON(r["output"]) != `["\u003c\u0026\u003e"]` {
		t.Errorf("run with && and <>: %v", res.Content)
	}

	// Cancelling a long wait ends it promptly and leaves no client attached.
	cctx, ccancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		p := &mcp.CallToolParams{Name: "wait_for_text",
			Arguments: map[string]any{"pane_id": pane, "patterns": "never-appears", "timeout": 60}}
		p.SetProgressToken("cancel-1")
		_, err := session.CallTool(cctx, p)
		done <- err
	}()
	countCancelProgress := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, p := range progress {
			if p.ProgressToken == "cancel-1" {
				n++
			}
		}
		return n
	}
	// the wait is under way once its first progress came
	for deadline := time.Now().Add(10 * time.Second); countCancelProgress() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("no progress for the long wait within 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	ccancel()
	select {
	case err := <-done:
		t.Logf("the cancelled call returned %v after cancel", time.Since(start))
		if err == nil {
			t.Errorf("cancelled call returned no error")
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("cancelled wait_for_text did not return")
	}
	// The server must have stopped waiting too: the wait's progress
	// notifications (sent while it waits) stop, it answers
	// the next call, and no control client stays attached.
	// Quiet windows, not conditions: notifications already sent arrive
	// within 0.5 s; a wait still running would send more within 2.5 s.
	time.Sleep(500 * time.Millisecond)
	before := countCancelProgress()
	time.Sleep(2500 * time.Millisecond)
	if after := countCancelProgress(); after != before {
		t.Errorf("the cancelled wait still runs in the server: %d more progress notifications", after-before)
	}
	if c, _ := call("cursor", map[string]any{"pane_id": pane}, nil); c["cursor"] == nil {
		t.Errorf("cursor after cancel: %v", c)
	}
	// the server keeps one control client on the session between calls
	// (and no other): the next wait starts without attaching
	if clients := strings.Fields(strings.TrimSpace(tmuxOut(t, env, "list-clients", "-F", "#{client_control_mode}"))); len(clients) != 1 || clients[0] != "1" {
		t.Errorf("clients after the cancelled wait: %q, want the one kept control client", clients)
	}

	// run_shell_command: the command's own output and exit status, as a
	// result (not an error) whatever the status.
	if r, res := call("run_shell_command", map[string]any{"pane_id": pane, "command": "echo mcp-run; (exit 3)", "allow_multi": true}, nil); res.IsError || toJSON(r["output"]) != `["mcp-run"]` || r["exit_code"] != float64(3) || r["outcome"] != "completed" {
		t.Errorf("run_shell_command: %v (isError %v)", r, res.IsError)
	}
	// screen: the rows as displayed, with the run's output on them.
	if sc, res := call("screen", map[string]any{"pane_id": pane}, nil); res.IsError || !strings.Contains(toJSON(sc["rows"]), "mcp-run") {
		t.Errorf("screen: %v", sc)
	}

	// A wait over several panes: the one whose screen shows the text
	// decides; with all, every pane's result. The waits use the kept
	// clients: one per session, no more.
	other, _ := call("new_pane", map[string]any{"command": []string{"cat"}}, nil)
	if w, res := call("wait_for_text", map[string]any{"pane_ids": []any{other["pane_id"], pane}, "cursor": "screen", "patterns": "mcp-run", "timeout": 10}, nil); res.IsError || w["pane_id"] != pane || w["results"] != nil {
		t.Errorf("wait_for_text over two panes: %v", res.Content)
	}
	if w, res := call("wait_for_quiet", map[string]any{"pane_ids": []any{pane, other["pane_id"]}, "all": true, "quiet_ms": 100, "timeout": 10}, nil); res.IsError ||
		len(w["results"].([]any)) != 2 || w["results"].([]any)[1].(map[string]any)["pane_id"] != other["pane_id"] {
		t.Errorf("wait_for_quiet over two panes, all: %v", res.Content)
	}
	if clients := strings.Fields(tmuxOut(t, env, "list-clients", "-F", "#{client_control_mode}")); len(clients) > 2 {
		t.Errorf("clients after waits over two sessions: %q, want one per session", clients)
	}
	call("kill_pane", map[string]any{"pane_id": other["pane_id"]}, nil)

	if k, _ := call("kill_pane", map[string]any{"pane_id": pane}, nil); k["killed"] != true {
		t.Errorf("kill_pane: %v", k)
	}

	// the kept client is detached before the server exits
	keep, _ := call("new_pane", map[string]any{"command": []string{"cat"}}, nil)
	if w, _ := call("wait_for_text", map[string]any{"pane_id": keep["pane_id"], "patterns": "x", "timeout": 0}, nil); w["outcome"] != "timeout" {
		t.Errorf("wait on a new pane: %v", w)
	}
	if clients := strings.TrimSpace(tmuxOut(t, env, "list-clients")); clients == "" {
		t.Error("no control client kept after a wait")
	}
	if err := session.Close(); err != nil {
		t.Errorf("closing the session: %v", err)
	}
	if clients := strings.TrimSpace(tmuxOut(t, env, "list-clients")); clients != "" {
		t.Errorf("clients still attached after panectl mcp exited: %s", clients)
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	return sameJSONText(t, toJSON(a), toJSON(b))
}

func sameJSONText(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Errorf("%v: %s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Errorf("%v: %s", err, b)
	}
	return reflect.DeepEqual(x, y)
}

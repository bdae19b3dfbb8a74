//go:build e2e

package cmd_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/panectl/panectl/internal/tmuxtest"
)

// The README's flow with an agent that thinks for 11 s between send-text
// and the wait (a new user's report): the echo of the command line, which
// holds the pattern, is still discounted by where it landed more than 10 s
// after the submission, on the CLI (the cursor send-text printed, and
// --cursor history) and over MCP (wait_for_text in `panectl mcp`, the same
// waiter with a kept control client). Each wait ends on the command's own
// output, printed 14 s after the submission. On a pane with a journal
// (--cursor history reads it: no rows) the echo is discounted by its text.
// The 11 s are slept once, for all four waits.
func TestEchoDiscountedAfterTheWindow(t *testing.T) {
	s := tmuxtest.New(t)
	out, err := panectlCmd(s, "new", "--", "env", "PS1=$ ", "bash", "--norc", "--noprofile").Output()
	if err != nil {
		t.Fatal(err)
	}
	p := strings.TrimSpace(string(out))
	if err := panectlCmd(s, "wait-for-text", p, "--cursor", "history", "--pattern", "$", "--timeout", "10").Run(); err != nil {
		t.Fatal(err)
	}
	// a pane with a journal: a wait from --cursor history reads the
	// journal, where no row can place the echo: its text is discounted
	out, err = panectlCmd(s, "new", "--journal", "--", "env", "PS1=$ ", "bash", "--norc", "--noprofile").Output()
	if err != nil {
		t.Fatal(err)
	}
	jp := strings.TrimSpace(string(out))
	if err := panectlCmd(s, "wait-for-text", jp, "--cursor", "history", "--pattern", "$", "--timeout", "10").Run(); err != nil {
		t.Fatal(err)
	}
	if err := panectlCmd(s, "send-text", jp, "sleep 14; echo SENTINEL-DONE", "--submit").Run(); err != nil {
		t.Fatal(err)
	}
	out, err = panectlCmd(s, "send-text", p, "sleep 14; echo SENTINEL-DONE", "--submit").Output()
	if err != nil {
		t.Fatal(err)
	}
	submitted := time.Now()
	cursor := strings.TrimSpace(string(out))

	// the MCP server is up (and its client kept) before the wait
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	bin, err := exec.LookPath("panectl")
	if err != nil {
		t.Fatal(err)
	}
	srv := exec.Command(bin, "-S", s.Socket, "mcp")
	srv.Env = append(os.Environ(), "TMUX=", "TMUX_PANE=")
	srv.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "panectl-test", Version: "0"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: srv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()

	time.Sleep(time.Until(submitted.Add(11 * time.Second))) // the agent thinks

	type result struct {
		name string
		out  map[string]any
		err  error
		took time.Duration
	}
	results := make(chan result, 4)
	var wg sync.WaitGroup
	cli := func(name, p, cur string) {
		defer wg.Done()
		b, err := panectlCmd(s, "--json", "wait-for-text", p, "--cursor", cur, "--pattern", "SENTINEL-DONE", "--timeout", "20").Output()
		var m map[string]any
		if err == nil {
			err = json.Unmarshal(b, &m)
		}
		results <- result{name, m, err, time.Since(submitted)}
	}
	wg.Add(4)
	go cli("cli, send-text's cursor", p, cursor)
	go cli("cli, --cursor history", p, "history")
	go cli("cli, a journal from --cursor history", jp, "history")
	go func() {
		defer wg.Done()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "wait_for_text", Arguments: map[string]any{
			"pane_id": p, "cursor": cursor, "patterns": "SENTINEL-DONE", "timeout": 20}})
		var m map[string]any
		if err == nil {
			b, _ := json.Marshal(res.StructuredContent)
			err = json.Unmarshal(b, &m)
		}
		results <- result{"mcp wait_for_text", m, err, time.Since(submitted)}
	}()
	wg.Wait()
	close(results)
	for r := range results {
		if r.err != nil {
			t.Errorf("%s: %v", r.name, r.err)
			continue
		}
		if r.out["outcome"] != "matched" || r.out["matched_line"] != "SENTINEL-DONE" {
			t.Errorf("%s: outcome %v, matched_line %q: want the command's output, not its echo", r.name, r.out["outcome"], r.out["matched_line"])
		}
		if r.took < 13*time.Second {
			t.Errorf("%s: matched %v after the submission: before the command's output (sleep 14)", r.name, r.took)
		}
		note, _ := r.out["note"].(string)
		if !strings.Contains(note, "discounted as the echo") {
			t.Errorf("%s: note %q: want the echo discounted", r.name, note)
		}
		if byText := strings.Contains(note, "only by their text"); byText != strings.Contains(r.name, "journal") {
			t.Errorf("%s: note %q: by text alone only on the journal", r.name, note)
		}
	}
}

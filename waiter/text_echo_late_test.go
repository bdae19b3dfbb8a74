package waiter

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// A wait that starts more than pane.EchoWindow after the command was
// submitted (an agent that thought for 11 s) still discounts the echo of
// the command line by where it landed: with the cursor send-text printed
// (before the echo's row), --cursor history and --cursor screen alike, the
// echo, which holds the pattern, never matches; the command's output does.
// The ledger's entries are aged by rewriting their times (the pane option
// as panectl stores it), not by sleeping. With a kept control client (as
// `panectl mcp` keeps one) the stream's decisions go through the same rule:
// the stream keeps the echo marks its capture found (no capture at each
// change of a long wait).
func TestWaitDiscountsEchoByPlaceAfterTheWindow(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("kept client %v", keep), func(t *testing.T) {
			s := tmuxtest.New(t)
			ctx := context.Background()
			c := *s.Client
			if keep {
				c.KeepControl(time.Minute)
				defer c.Close()
			}
			p := s.NewPane([2]int{80, 24}, "env", "PS1=$ ", "bash", "--norc", "--noprofile")
			waitPrompt(t, s, p.ID)
			// as send-text: read the screen with the ledger, type with Enter
			r, err := pane.Read(ctx, s.Client, p.ID, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1, Ledger: true})
			if err != nil {
				t.Fatal(err)
			}
			typed := time.Now()
			if err := pane.Type(ctx, s.Client, p.ID, r.Ledger, "sleep 1.5; echo SENTINEL_9", true); err != nil {
				t.Fatal(err)
			}
			age(t, s.Client, p.ID, pane.EchoWindow+time.Second)
			for i, cur := range []pane.Cursor{r.Cursor, {Special: pane.CursorHistory}, {Special: pane.CursorScreen}} {
				match, _ := NewMatcher("pattern", []string{"SENTINEL_9"}, false, false)
				before := streamDecisions.Load()
				res, err := WaitForText(ctx, &c, TextOptions{PaneID: p.ID, Match: match, Timeout: 10 * time.Second, Cursor: cur, HasStart: true})
				if err != nil {
					t.Fatal(err)
				}
				if res.Outcome != schema.OutcomeMatched || res.MatchedLine != "SENTINEL_9" {
					t.Fatalf("cursor %q: outcome %s, matched line %q (output %q)", cur.Special, res.Outcome, res.MatchedLine, res.Output)
				}
				if took := time.Since(typed); took < 1400*time.Millisecond {
					t.Errorf("cursor %q: matched %v after typing: the echo, not the output (sleep 1.5 first)", cur.Special, took)
				}
				if res.Discounted == 0 || !strings.Contains(res.Note, "discounted") || strings.Contains(res.Note, "only by their text") {
					t.Errorf("cursor %q: note %q, discounted %d: want the echo discounted by place", cur.Special, res.Note, res.Discounted)
				}
				// the first wait sees the output come (the others find it
				// there): it matches on the stream
				if i == 0 && streamDecisions.Load() == before {
					t.Errorf("cursor %q: no decision was made on the stream (the echo's marks were not kept)", cur.Special)
				}
			}
			// output identical to the typed line, printed after the window,
			// is output: the text alone no longer discounts
			if err := s.Client.SendText(ctx, p.ID, "printf '%s\\n' 'sleep 1.5; echo SENTINEL_9'", true); err != nil {
				t.Fatal(err)
			}
			match, _ := NewMatcher("pattern", []string{"^sleep 1.5; echo SENTINEL_9$"}, true, false)
			res, err := WaitForText(ctx, &c, TextOptions{PaneID: p.ID, Match: match, Timeout: 5 * time.Second, Cursor: r.Cursor, HasStart: true})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(res.Output); res.Outcome != schema.OutcomeMatched || res.MatchedLine != "sleep 1.5; echo SENTINEL_9" ||
				n < 2 || !strings.HasPrefix(res.Output[n-2], "$ printf") {
				t.Errorf("identical output: outcome %s, matched line %q (output %q)", res.Outcome, res.MatchedLine, res.Output)
			}
		})
	}
}

// When the rows before the echo are gone (history cleared, or trimmed at
// history-limit) its place can no longer be found: a line showing the
// typed text is discounted rather than matched, and the note says why.
func TestWaitDiscountsUnplacedEchoByText(t *testing.T) {
	for _, tc := range []struct {
		name    string
		typed   string
		shown   string // on the screen once typed
		cursor  pane.Cursor
		prepare func(s *tmuxtest.Server, id string)
	}{
		{"history cleared", "sleep 30; echo UNPLACED_4", "$ sleep 30; echo UNPLACED_4", pane.Cursor{Special: pane.CursorScreen}, func(s *tmuxtest.Server, id string) {
			s.Tmux("clear-history", "-t", id)
		}},
		// 5 rows of screen and 20 of history: the echo and the 20 lines
		// after it are about all that is left
		{"history trimmed", "seq 101 120; sleep 30; echo UNPLACED_4", "120", pane.Cursor{Special: pane.CursorHistory}, func(*tmuxtest.Server, string) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tmuxtest.New(t)
			ctx := context.Background()
			s.Tmux("set-option", "-g", "history-limit", "20")
			p := s.NewPane([2]int{80, 5}, "env", "PS1=$ ", "bash", "--norc", "--noprofile")
			waitPrompt(t, s, p.ID)
			if err := s.Client.SendText(ctx, p.ID, "seq 1 40", true); err != nil {
				t.Fatal(err)
			}
			waitFor(t, s, p.ID, "40\n$")
			r, err := pane.Read(ctx, s.Client, p.ID, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1, Ledger: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := pane.Type(ctx, s.Client, p.ID, r.Ledger, tc.typed, true); err != nil {
				t.Fatal(err)
			}
			waitFor(t, s, p.ID, tc.shown)
			age(t, s.Client, p.ID, pane.EchoWindow+time.Second)
			tc.prepare(s, p.ID)
			match, _ := NewMatcher("pattern", []string{"UNPLACED_4"}, false, false)
			res, err := WaitForText(ctx, s.Client, TextOptions{PaneID: p.ID, Match: match, Timeout: 500 * time.Millisecond,
				Cursor: tc.cursor, HasStart: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != schema.OutcomeTimeout {
				t.Fatalf("outcome %s, matched line %q: the echo matched (output %q)", res.Outcome, res.MatchedLine, res.Output)
			}
			if res.Discounted != 1 || !strings.Contains(res.Note, "only by their text") {
				t.Errorf("note %q, discounted %d: want the echo discounted by its text, said so", res.Note, res.Discounted)
			}
			s.Tmux("send-keys", "-t", p.ID, "C-c")
		})
	}
}

// age moves the times of every entry of the pane's echo ledger back by d,
// as if the text had been typed and submitted d earlier (the entries'
// stored form: base64url JSON with "at" and "sub" in unix ms).
func age(t *testing.T, c *tmux.Client, id string, d time.Duration) {
	t.Helper()
	opts, err := c.PaneOptions(context.Background(), id, "@panectl_echo_")
	if err != nil || len(opts) == 0 {
		t.Fatalf("ledger: %v, %d entries", err, len(opts))
	}
	set := map[string]string{}
	for k, v := range opts {
		b, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil {
			t.Fatal(err)
		}
		var e map[string]any
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber() // (fingerprints are 64-bit)
		if err := dec.Decode(&e); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"at", "sub"} {
			if n, ok := e[f].(json.Number); ok {
				ms, _ := n.Int64()
				e[f] = ms - d.Milliseconds()
			}
		}
		b, _ = json.Marshal(e)
		set[k] = base64.RawURLEncoding.EncodeToString(b)
	}
	if err := c.SetPaneOptions(context.Background(), id, set, nil); err != nil {
		t.Fatal(err)
	}
}

// waitFor waits until the pane's screen holds text.
func waitFor(t *testing.T, s *tmuxtest.Server, id, text string) {
	t.Helper()
	for range 300 {
		if strings.Contains(s.Tmux("capture-pane", "-p", "-t", id), text) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %q on the screen: %q", text, s.Tmux("capture-pane", "-p", "-t", id))
}

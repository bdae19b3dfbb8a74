package waiter

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// A wait that decides on the output stream discounts the echo of text
// another panectl process types while it waits (the ledger is read after
// the output, never before it): the typed command line, which holds the
// pattern, does not end the wait; the command's own output does. The
// decision is made on the stream (no capture).
func TestStreamWaitDiscountsEchoTypedDuringTheWait(t *testing.T) {
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
			match, _ := NewMatcher("pattern", []string{"DONE_17"}, false, false)
			before := streamDecisions.Load()
			type result struct {
				r   TextResult
				err error
			}
			done := make(chan result, 1)
			go func() {
				r, err := WaitForText(ctx, &c, TextOptions{PaneID: p.ID, Match: match, Timeout: 10 * time.Second})
				done <- result{r, err}
			}()
			time.Sleep(300 * time.Millisecond) // the wait follows the stream
			// typed by "another process": the ledger is written, then the
			// keys, in one tmux command list, as panectl send-text does
			l, err := pane.LoadLedger(ctx, s.Client, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			typed := time.Now()
			if err := pane.Type(ctx, s.Client, p.ID, l, "sleep 0.5; echo DONE_17", true); err != nil {
				t.Fatal(err)
			}
			got := <-done
			if got.err != nil {
				t.Fatal(got.err)
			}
			r := got.r
			if r.Outcome != schema.OutcomeMatched || r.MatchedLine != "DONE_17" {
				t.Fatalf("outcome %s, matched line %q (output %q)", r.Outcome, r.MatchedLine, r.Output)
			}
			if took := time.Since(typed); took < 450*time.Millisecond {
				t.Errorf("matched %v after typing: the echo, not the output (sleep 0.5 first)", took)
			}
			if !strings.Contains(r.Note, "discounted") || r.Discounted == 0 {
				t.Errorf("note %q, discounted %d: want the echo discounted", r.Note, r.Discounted)
			}
			if streamDecisions.Load() == before {
				t.Error("no decision was made on the stream")
			}
		})
	}
}

// The same output, waited for on the stream and with a capture at every
// change (the wait before streams), gives the same result: the lines to
// the match, the matched line, and a cursor that reads on from the same
// point (what comes after it, exactly once).
func TestStreamWaitAgreesWithCaptureWait(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	type run struct {
		res  TextResult
		pane tmux.PaneInfo
		w    *os.File
	}
	chunks := []string{"first line\r\n", "\x1b[1mbold\x1b[0m and a partial ", "line\r\n", "progress 10%\rprogress 100%\r\n",
		strings.Repeat("long ", 20) + "\r\n", "tab\tbed\r\n", "the END", "_MARK here\r\n", "after\r\n"}
	wait := func(stream bool) run {
		followStream = stream
		defer func() { followStream = true }()
		fifo := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		w, err := os.OpenFile(fifo, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := s.NewPane([2]int{40, 10}, "sh", "-c", "stty -opost; exec cat "+fifo)
		match, _ := NewMatcher("pattern", []string{"END_MARK"}, false, false)
		done := make(chan run, 1)
		go func() {
			r, err := WaitForText(ctx, s.Client, TextOptions{PaneID: p.ID, Match: match, Timeout: 10 * time.Second})
			if err != nil {
				t.Error(err)
			}
			done <- run{r, p, w}
		}()
		time.Sleep(300 * time.Millisecond)
		for _, ch := range chunks {
			if _, err := w.WriteString(ch); err != nil {
				t.Fatal(err)
			}
			time.Sleep(30 * time.Millisecond)
		}
		return <-done
	}
	before := streamDecisions.Load()
	viaStream := wait(true)
	if streamDecisions.Load() == before {
		t.Fatal("the stream wait made no decision on the stream")
	}
	viaCapture := wait(false)
	a, b := viaStream.res, viaCapture.res
	if a.Outcome != schema.OutcomeMatched || a.Outcome != b.Outcome || a.MatchedLine != b.MatchedLine || a.Matched != b.Matched ||
		!reflect.DeepEqual(a.Output, b.Output) || a.LinesDropped != b.LinesDropped || a.Truncated != b.Truncated {
		t.Errorf("stream: %s %q %q\ncapture: %s %q %q", a.Outcome, a.MatchedLine, a.Output, b.Outcome, b.MatchedLine, b.Output)
	}
	// each wait's cursor reads on from where its wait stopped
	for name, r := range map[string]run{"stream": viaStream, "capture": viaCapture} {
		if _, err := r.w.WriteString("next\r\n"); err != nil {
			t.Fatal(err)
		}
		var got pane.ReadResult
		for range 100 {
			var err error
			if got, err = pane.Read(ctx, s.Client, r.pane.ID, r.res.Cursor, pane.ReadOptions{}); err != nil {
				t.Fatal(err)
			}
			if len(got.Lines) > 0 && got.Lines[len(got.Lines)-1] == "next" {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if !reflect.DeepEqual(got.Lines, []string{"after", "next"}) && !reflect.DeepEqual(got.Lines, []string{"next"}) {
			t.Errorf("%s: read from the wait's cursor: %q", name, got.Lines)
		}
		r.w.Close()
	}
}

// waitPrompt waits for a "$ " prompt in the pane.
func waitPrompt(t *testing.T, s *tmuxtest.Server, id string) {
	t.Helper()
	for range 200 {
		if strings.Contains(s.Tmux("capture-pane", "-p", "-t", id), "$") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no prompt")
}

package waiter

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// countingSource counts the command lists sent through its control client,
// and the most in flight at once.
type countingSource struct {
	Source
	lists *counts
}

type counts struct {
	sent, inFlight, most atomic.Int32
	// pair, when set, holds the first list until a second is in flight
	// (at most 5 s): lists sent one after the other never overlap
	pair     chan struct{}
	pairOnce sync.Once
}

func (s countingSource) Via() tmux.Snapshotter {
	v := s.Source.Via()
	if v == nil {
		return nil
	}
	return countingSnapshotter{v, s.lists}
}

type countingSnapshotter struct {
	tmux.Snapshotter
	lists *counts
}

func (s countingSnapshotter) SnapshotOptions(ctx context.Context, id, prefix string, specs ...tmux.CaptureSpec) (tmux.PaneInfo, []string, map[string]string, error) {
	s.lists.sent.Add(1)
	n := s.lists.inFlight.Add(1)
	defer s.lists.inFlight.Add(-1)
	for m := s.lists.most.Load(); n > m && !s.lists.most.CompareAndSwap(m, n); m = s.lists.most.Load() {
	}
	switch {
	case s.lists.pair == nil:
	case n == 1:
		select {
		case <-s.lists.pair:
		case <-time.After(5 * time.Second):
		}
	default:
		s.lists.pairOnce.Do(func() { close(s.lists.pair) })
	}
	return s.Snapshotter.SnapshotOptions(ctx, id, prefix, specs...)
}

// A run's preflight on a warm shell at its prompt takes two looks, in flight
// at once: the start read with the ledger, and the screen with the saved
// prompt. Learning the prompt after the end marker takes one look when the
// prompt is known, and none when a look beside the full read came first.
func TestRunLooksInFewRoundTrips(t *testing.T) {
	s := tmuxtest.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p := s.NewPane([2]int{100, 30}, "env", "PS1=$ ", "bash", "--norc", "--noprofile")
	deadline := time.Now().Add(30 * time.Second)
	info, sh, err := Ready(ctx, s.Client, p, deadline)
	if err != nil {
		t.Fatal(err)
	}
	// (a first run learns the prompt, as on any warm pane)
	if res, err := Run(ctx, s.Client, RunOptions{Info: info, Shell: sh, Command: "true", Deadline: deadline}); err != nil || res.Outcome != schema.OutcomeCompleted {
		t.Fatalf("first run: %+v %v", res, err)
	}
	if info, err = s.Client.Pane(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	watched, err := WatchPane(ctx, s.Client, info)
	if err != nil {
		t.Fatal(err)
	}
	defer watched.Close()
	if watched.Via() == nil {
		t.Fatalf("no control client: %s", watched.Note())
	}
	lists := counts{pair: make(chan struct{})}
	src := countingSource{watched, &lists}
	mode, _ := proc.ReadTTYMode(info.TTY)
	opt := RunOptions{Info: info, Shell: sh, Command: "true", Deadline: deadline}
	_, scr, seen, err := preflight(ctx, s.Client, src, opt, mode)
	if err != nil {
		t.Fatal(err)
	}
	if !seen.Seen || strings.TrimSpace(seen.Text) != "$" {
		t.Fatalf("preflight read the saved prompt as %+v", seen)
	}
	if n, most := lists.sent.Load(), lists.most.Load(); n != 2 || most != 2 {
		t.Errorf("preflight sent %d command lists, at most %d at once; want 2, both at once", n, most)
	}
	lists.sent.Store(0)
	lists.pair = nil
	w := runWatch{startRow: scr.Info.HistorySize + scr.Info.CursorY - 1, editor: true}
	w.learnPrompt(ctx, s.Client, src, p.ID, "no-nonce", nil)
	if n := lists.sent.Load(); n != 1 {
		t.Errorf("learning a known prompt sent %d command lists; want 1", n)
	}
	ahead := screenBeside(ctx, s.Client, watched, p.ID) // (not counted)
	lists.sent.Store(0)
	w.learnPrompt(ctx, s.Client, src, p.ID, "no-nonce", ahead)
	if n := lists.sent.Load(); n != 0 {
		t.Errorf("learning a known prompt from a look beside sent %d command lists; want 0", n)
	}
}

package waiter

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// countingSource counts the command lists sent through its control client.
type countingSource struct {
	Source
	lists *atomic.Int32
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
	lists *atomic.Int32
}

func (s countingSnapshotter) SnapshotOptions(ctx context.Context, id, prefix string, specs ...tmux.CaptureSpec) (tmux.PaneInfo, []string, map[string]string, error) {
	s.lists.Add(1)
	return s.Snapshotter.SnapshotOptions(ctx, id, prefix, specs...)
}

// A run's preflight on a warm shell at its prompt takes two looks: the start
// read with the ledger, and the screen with the saved prompt. Learning the
// prompt after the end marker takes one look when the prompt is known.
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
	var lists atomic.Int32
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
	if n := lists.Load(); n != 2 {
		t.Errorf("preflight sent %d command lists; want 2", n)
	}
	lists.Store(0)
	w := runWatch{startRow: scr.Info.HistorySize + scr.Info.CursorY - 1, editor: true}
	w.learnPrompt(ctx, s.Client, src, p.ID, "no-nonce")
	if n := lists.Load(); n != 1 {
		t.Errorf("learning a known prompt sent %d command lists; want 1", n)
	}
}

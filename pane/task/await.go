package task

import (
	"context"
	"errors"
	"time"

	"github.com/panectl/panectl/tmux"
)

// Await waits until task t (read once already) has ended or deadline
// passes, and returns it as last read. gone reports that the server went
// away: the task was then read from its record alone.
func Await(ctx context.Context, c *tmux.Client, t Task, deadline time.Time) (_ Task, gone bool, err error) {
	for {
		if t.Status != TaskRunning {
			return t, false, nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return t, false, nil
		}
		// Event-driven: the supervisor signals the task's wait-for channel
		// once it has recorded the end. A look every second covers a signal
		// another waiter consumed and a supervisor killed with SIGKILL.
		paneID, _ := TaskPaneID(t.ID)
		err := WaitChannel(ctx, c, TaskChannel(paneID), min(left, time.Second))
		var nt Task
		if err == nil {
			nt, err = LoadTask(ctx, c, t.ID)
		}
		if errors.Is(err, tmux.ErrNoServer) {
			t, err = awaitRecord(ctx, t, deadline)
			return t, true, err
		}
		if err != nil {
			return t, false, err
		}
		t = nt
	}
}

// RecordPoll is how often a wait reads task records once the server is
// gone (no wait-for channel is left to wake it).
const RecordPoll = 50 * time.Millisecond

// awaitRecord waits, reading the task's record alone, until its supervisor
// has recorded the end or the deadline passes. The server is gone.
func awaitRecord(ctx context.Context, t Task, deadline time.Time) (Task, error) {
	for {
		nt, err := ReadTask(t.Dir, t.ID)
		if err != nil {
			return t, err
		}
		t = nt
		left := time.Until(deadline)
		if t.Status != TaskRunning || left <= 0 {
			return t, nil
		}
		select {
		case <-ctx.Done():
			return t, ctx.Err()
		case <-time.After(min(left, RecordPoll)):
		}
	}
}

// WaitChannel waits for a signal on a tmux wait-for channel, at most d.
// It returns ctx's error, or the error of a server that went away.
func WaitChannel(ctx context.Context, c *tmux.Client, channel string, d time.Duration) error {
	wctx, cancel := context.WithTimeout(ctx, d)
	err := c.WaitFor(wctx, channel)
	cancel()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil && wctx.Err() == nil {
		return err // the server went away
	}
	return nil
}

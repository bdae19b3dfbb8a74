package waiter

import (
	"context"
	"syscall"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
)

// OutcomeEnded: the task a wait_task waited for has ended.
const OutcomeEnded = "ended"

// WaitTask waits until the task has ended (its supervisor recorded how, or
// its pane is dead) or the timeout passes; it returns the task as last
// read and OutcomeEnded or OutcomeTimeout. Unknown task: pane.ErrNoTask.
func WaitTask(ctx context.Context, c *tmux.Client, id string, timeout time.Duration) (pane.Task, string, error) {
	deadline := time.Now().Add(timeout)
	interval := 10 * time.Millisecond
	for {
		t, err := pane.LoadTask(ctx, c, id)
		if err != nil {
			return t, "", err
		}
		if t.Status != pane.TaskRunning {
			return t, OutcomeEnded, nil
		}
		if !time.Now().Before(deadline) {
			return t, OutcomeTimeout, nil
		}
		select {
		case <-ctx.Done():
			return t, "", ctx.Err()
		case <-time.After(min(interval, time.Until(deadline))):
		}
		interval = min(interval*3/2, 200*time.Millisecond)
	}
}

// KillTask stops a running task: it is marked killed, then its process
// group gets SIGINT, and SIGTERM and SIGKILL each after grace while it
// still runs. It returns the task once ended and the signals sent. A task
// that already ended is returned as it is.
func KillTask(ctx context.Context, c *tmux.Client, id string, grace time.Duration) (pane.Task, []string, error) {
	t, err := pane.LoadTask(ctx, c, id)
	if err != nil {
		return t, nil, err
	}
	sent := []string{}
	if t.Status != pane.TaskRunning {
		return t, sent, nil
	}
	if err := pane.MarkTask(ctx, c, t.Pane.ID, pane.TaskKilled); err != nil {
		return t, sent, err
	}
	for _, s := range []struct {
		sig  syscall.Signal
		name string
	}{{syscall.SIGINT, "SIGINT"}, {syscall.SIGTERM, "SIGTERM"}, {syscall.SIGKILL, "SIGKILL"}} {
		if err := pane.SignalTask(t, s.sig); err != nil {
			break // the group is gone: it ended
		}
		sent = append(sent, s.name)
		nt, outcome, err := WaitTask(ctx, c, id, grace)
		if err != nil {
			return t, sent, err
		}
		t = nt
		if outcome == OutcomeEnded {
			return t, sent, nil
		}
	}
	t, _, err = WaitTask(ctx, c, id, grace)
	return t, sent, err
}

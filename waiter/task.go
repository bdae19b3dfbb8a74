package waiter

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
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
	for {
		t, err := pane.LoadTask(ctx, c, id)
		if err != nil {
			return t, "", err
		}
		if t.Status != pane.TaskRunning {
			return t, OutcomeEnded, nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return t, OutcomeTimeout, nil
		}
		// Event-driven: the supervisor signals the task's wait-for channel
		// once it has recorded the end. A look every second covers a signal
		// another waiter consumed and a pane killed without its supervisor.
		wctx, cancel := context.WithTimeout(ctx, min(left, time.Second))
		err = c.WaitFor(wctx, pane.TaskChannel(t.Pane.ID))
		cancel()
		if ctx.Err() != nil {
			return t, "", ctx.Err()
		}
		if err != nil && wctx.Err() == nil {
			return t, "", err // the server went away
		}
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

// SuperviseTask is the supervisor a task pane runs (panectl -S SOCKET
// __task-exec %N -- SHELL -c COMMAND): it runs argv in the pane, records
// its exit code or signal in the pane's options (pane.RecordTaskExit: tmux
// 3.3 reports no signal and sometimes no status), and enforces the task's
// time limit (SIGINT, SIGTERM, SIGKILL, TaskKillGrace apart). Signals sent
// to the pane's process group (task kill, C-c typed into the pane) reach
// the command; the supervisor outlives them to record how it ended.
func SuperviseTask(c *tmux.Client, paneID string, argv []string) error {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	go func() {
		for range sigs { // the command got the signal too; outlive it
		}
	}()
	ctx := context.Background()
	var limit time.Duration
	if t, err := pane.LoadTask(ctx, c, pane.TaskIDOf(paneID)); err == nil && t.Spec.LimitMS > 0 {
		limit = time.Duration(t.Spec.LimitMS)*time.Millisecond - time.Since(time.UnixMilli(t.Spec.Started))
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "panectl: cannot start %s: %v\n", argv[0], err)
		return pane.RecordTaskExit(ctx, c, paneID, 127, 0)
	}
	done := make(chan struct{})
	if limit > 0 || limit < 0 {
		go func() {
			select {
			case <-done:
				return
			case <-time.After(max(limit, 0)):
			}
			_ = pane.MarkTask(ctx, c, paneID, pane.TaskTimedOut)
			for _, s := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
				if s == syscall.SIGKILL {
					_ = cmd.Process.Kill() // not the group: this supervisor must record it
				} else {
					_ = syscall.Kill(-os.Getpid(), s)
				}
				select {
				case <-done:
					return
				case <-time.After(pane.TaskKillGrace):
				}
			}
		}()
	}
	_ = cmd.Wait()
	close(done)
	code, sig := 0, 0
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
		if ws.Signaled() {
			sig = int(ws.Signal())
		} else {
			code = ws.ExitStatus()
		}
	}
	// How the command ended is in the pane's options; the supervisor's
	// own exit status is not used (and a signal to the pane's group has
	// cancelled panectl's context, which would print "interrupted").
	return pane.RecordTaskExit(ctx, c, paneID, code, sig)
}

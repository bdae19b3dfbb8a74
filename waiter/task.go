package waiter

import (
	"context"
	"errors"
	"os"
	"sort"
	"syscall"
	"time"

	"github.com/panectl/panectl/pane/statedir"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// WaitTask waits until the task ended or the timeout passes. A task ended when its supervisor
// recorded how, or it is gone without a record. It returns the task as last read, with
// schema.OutcomeEnded or schema.OutcomeTimeout. Errors: task.ErrNoTask, tmux.ErrNoServer. A server
// going away takes the task's pane along. The supervisor then records the command killed, in a
// directory that outlives the server. WaitTask reads that record until the end or the timeout, and
// returns schema.OutcomeExited.
func WaitTask(ctx context.Context, c *tmux.Client, id string, timeout time.Duration) (task.Task, schema.Outcome, error) {
	defer Waiting(ctx, "", timeout, "task "+id)()
	deadline := time.Now().Add(timeout)
	t, err := task.LoadTask(ctx, c, id)
	if err != nil {
		return t, "", err
	}
	return waitLoaded(ctx, c, t, deadline)
}

// waitLoaded is WaitTask for a task already read once (t).
func waitLoaded(ctx context.Context, c *tmux.Client, t task.Task, deadline time.Time) (task.Task, schema.Outcome, error) {
	t, gone, err := task.Await(ctx, c, t, deadline)
	switch {
	case err != nil:
		return t, "", err
	case gone:
		return t, schema.OutcomeExited, nil
	case t.Status != task.TaskRunning:
		return t, schema.OutcomeEnded, nil
	}
	return t, schema.OutcomeTimeout, nil
}

// KillTask stops a running task. It marks it killed and sends SIGINT to its process group, then
// SIGTERM and SIGKILL a grace apart while it runs. It returns the task once ended and the signals
// sent. A task already ended comes back as it is.
func KillTask(ctx context.Context, c *tmux.Client, id string, grace time.Duration) (task.Task, []string, error) {
	t, err := task.LoadTask(ctx, c, id)
	if err != nil {
		return t, nil, err
	}
	sent := []string{}
	if t.Status != task.TaskRunning {
		return t, sent, nil
	}
	if err := task.MarkTask(t.Dir, task.TaskKilled); err != nil {
		return t, sent, err
	}
	// A supervisor yet to start the command sees the mark once it starts it, and stops it.
	for _, s := range []struct {
		sig  syscall.Signal
		name string
	}{{syscall.SIGINT, "SIGINT"}, {syscall.SIGTERM, "SIGTERM"}, {syscall.SIGKILL, "SIGKILL"}} {
		ok, err := task.SignalTask(t, s.sig)
		if err != nil {
			return t, sent, err
		}
		if ok {
			sent = append(sent, s.name)
		}
		nt, _, err := waitLoaded(ctx, c, t, time.Now().Add(grace))
		if err != nil {
			return t, sent, err
		}
		t = nt
		if t.Status != task.TaskRunning {
			return t, sent, nil
		}
	}
	t, _, err = waitLoaded(ctx, c, t, time.Now().Add(grace))
	return t, sent, err
}

// FollowTasks calls emit with each task of the server that ends while it follows, in the order they
// end. Any panectl process may have started it, before or during the follow. It runs until the
// timeout (schema.OutcomeTimeout) or an error of emit. Tasks ended before it began are not
// reported, and it marks none reported (see WaitAnyTask). When the server goes away, every running
// task's supervisor records its command killed in the state directory. FollowTasks then reads the
// records and emits each end as recorded. It returns schema.OutcomeExited once none is left
// running, or at the timeout.
func FollowTasks(ctx context.Context, c *tmux.Client, timeout time.Duration, emit func(task.Task) error) (schema.Outcome, error) {
	deadline := time.Now().Add(timeout)
	seen := map[string]bool{}
	state, err := statedir.Find(ctx, c)
	if err != nil {
		return "", err
	}
	tasks, err := task.ListTasks(ctx, c)
	if err != nil {
		return "", err
	}
	for _, t := range tasks {
		if t.Status != task.TaskRunning {
			seen[t.ID] = true
		}
	}
	// report emits the tasks ended since the last look, in order. It never stops the follow.
	report := func(tasks []task.Task) (stop bool, err error) {
		var ended []task.Task
		for _, t := range tasks {
			if t.Status != task.TaskRunning && !seen[t.ID] {
				seen[t.ID] = true
				ended = append(ended, t)
			}
		}
		sort.SliceStable(ended, func(i, j int) bool { return ended[i].Ended.Before(ended[j].Ended) })
		for _, t := range ended {
			if err := emit(t); err != nil {
				return false, err
			}
		}
		return false, nil
	}
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return schema.OutcomeTimeout, nil
		}
		// Each supervisor signals TasksChannel at its end. A look each second covers a miss.
		err := task.WaitChannel(ctx, c, task.TasksChannel, min(left, time.Second))
		if err == nil && state == "" { // no task yet when the follow began
			state, err = statedir.Find(ctx, c)
		}
		var tasks []task.Task
		if err == nil {
			tasks, err = task.ListTasks(ctx, c)
		}
		if errors.Is(err, tmux.ErrNoServer) {
			return followRecords(ctx, state, deadline, report)
		}
		if err != nil {
			return "", err
		}
		keepTaskSession(ctx, c, tasks)
		if _, err := report(tasks); err != nil {
			return "", err
		}
	}
}

// keepTaskSession keeps a control client on the task session for the next listings. Only a
// long-lived process keeps them (KeepControl).
func keepTaskSession(ctx context.Context, c *tmux.Client, tasks []task.Task) {
	for _, t := range tasks {
		if t.Pane.SessionID != "" {
			_ = c.KeepAttached(ctx, t.Pane.SessionID)
			return
		}
	}
}

// WaitAnyTask waits for an ended task of the server that no WaitAnyTask in any process has returned
// yet. The ended tasks form a queue, unlike bash's wait -n, which forgets jobs that ended before
// the call. It returns the first ended one at once, else the next to end, until the timeout. A task
// ended before the wait counts, however long ago, until tasks --prune removes it. The task returned
// is marked reported (task.ClaimTaskReport), so it comes back once, also to concurrent waits.
// WaitTask and FollowTasks neither mark nor skip marked tasks.
//
// Outcomes: schema.OutcomeEnded with the task, schema.OutcomeTimeout with a zero Task. If the
// server went away, its running tasks are killed and recorded: schema.OutcomeExited with the first,
// or a zero Task when none ran. No server: tmux.ErrNoServer.
func WaitAnyTask(ctx context.Context, c *tmux.Client, timeout time.Duration) (task.Task, schema.Outcome, error) {
	defer Waiting(ctx, "", timeout, "any task to end")()
	deadline := time.Now().Add(timeout)
	state, err := statedir.Find(ctx, c)
	if err != nil {
		return task.Task{}, "", err
	}
	for {
		if err == nil && state == "" { // no task yet
			state, err = statedir.Find(ctx, c)
		}
		var tasks []task.Task
		if err == nil && state != "" {
			tasks, err = task.ListTasks(ctx, c)
		}
		if errors.Is(err, tmux.ErrNoServer) {
			var t task.Task
			outcome, err := followRecords(ctx, state, deadline, func(tasks []task.Task) (bool, error) {
				var ok bool
				var err error
				t, ok, err = claimEnded(tasks)
				return ok, err
			})
			return t, outcome, err
		}
		if err != nil {
			return task.Task{}, "", err
		}
		keepTaskSession(ctx, c, tasks)
		if t, ok, err := claimEnded(tasks); err != nil || ok {
			return t, schema.OutcomeEnded, err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return task.Task{}, schema.OutcomeTimeout, nil
		}
		// Every supervisor signals TasksChannel when its task ends. A look every second covers a
		// signal between two waits, or one another waiter consumed.
		err = task.WaitChannel(ctx, c, task.TasksChannel, min(left, time.Second))
		if err != nil && !errors.Is(err, tmux.ErrNoServer) {
			return task.Task{}, "", err
		}
	}
}

// claimEnded marks reported the first ended task not reported yet, and returns it (ok).
func claimEnded(tasks []task.Task) (t task.Task, ok bool, err error) {
	var ended []task.Task
	for _, t := range tasks {
		if t.Status != task.TaskRunning {
			ended = append(ended, t)
		}
	}
	// tasks come in id order, which ties keep
	sort.SliceStable(ended, func(i, j int) bool { return ended[i].Ended.Before(ended[j].Ended) })
	for _, t := range ended {
		ok, err := task.ClaimTaskReport(t.Dir)
		if errors.Is(err, os.ErrNotExist) {
			continue // pruned meanwhile
		}
		if err != nil || ok {
			return t, ok, err
		}
	}
	return task.Task{}, false, nil
}

// followRecords is FollowTasks once the server is gone. It passes the records in the state
// directory, if any, to report until no task runs, report says stop, or the deadline. Stop means
// WaitAnyTask got one. It returns schema.OutcomeExited.
func followRecords(ctx context.Context, state string, deadline time.Time, report func([]task.Task) (bool, error)) (schema.Outcome, error) {
	for state != "" {
		tasks, err := task.ListTaskRecords(state)
		if err != nil {
			return "", err
		}
		if stop, err := report(tasks); err != nil {
			return "", err
		} else if stop {
			break
		}
		running := false
		for _, t := range tasks {
			running = running || t.Status == task.TaskRunning
		}
		left := time.Until(deadline)
		if !running || left <= 0 {
			break
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(min(left, task.RecordPoll)):
		}
	}
	return schema.OutcomeExited, nil
}

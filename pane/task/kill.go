package task

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/panectl/panectl/pane/journal"
	"github.com/panectl/panectl/pane/statedir"
	"github.com/panectl/panectl/tmux"
)

// KillPane kills a pane (kill-pane). A running task's pane: the task is
// marked killed first, and KillPane waits (at most two grace periods and a
// second) until the supervisor has stopped the command's process group and
// recorded it, so `tasks` shows it killed. The task's record and journal
// stay (tasks --prune removes them). A journaled pane's journal is removed
// with it.
func KillPane(ctx context.Context, c *tmux.Client, info tmux.PaneInfo) error {
	id := TaskIDOf(info.ID)
	t, terr := LoadTask(ctx, c, id)
	isTask := terr == nil && t.Spec.PaneID == info.ID
	jdir := ""
	if !isTask {
		var err error
		if jdir, err = journal.DirOf(ctx, c, info); err != nil {
			return err
		}
	}
	if isTask && t.Status == TaskRunning {
		if err := MarkTask(t.Dir, TaskKilled); err != nil {
			return err
		}
	}
	if err := c.KillPane(ctx, info.ID); err != nil {
		return err
	}
	if isTask && t.Status == TaskRunning {
		// (the pane may have been the server's last: then the record tells)
		if _, _, err := Await(ctx, c, t, time.Now().Add(2*TaskKillGrace+time.Second)); err != nil {
			return err
		}
	}
	return journal.Remove(jdir)
}

// PruneResult is what Prune removed.
type PruneResult struct {
	Tasks   []string // ids of the tasks removed
	Servers int      // state directories of servers that no longer run
}

// Prune removes every task that has ended: its pane (if still there),
// its record and its journal; the journals of journaled panes that are
// gone; and the state directories (of this machine) of tmux servers that
// no longer run. Running tasks are left alone. With no server at the
// socket, only the last: the state directories of servers that no longer
// run, where this process would make one for a server at the socket
// (statedir.PruneServersAt).
func Prune(ctx context.Context, c *tmux.Client) (PruneResult, error) {
	res := PruneResult{Tasks: []string{}}
	state, err := statedir.Find(ctx, c)
	if errors.Is(err, tmux.ErrNoServer) {
		res.Servers = statedir.PruneServersAt(c.Server.Socket)
		return res, nil
	}
	if err != nil {
		return res, err
	}
	tasks, err := ListTasks(ctx, c)
	if err != nil {
		return res, err
	}
	pruned := []string{}
	for _, t := range tasks {
		if t.Status == TaskRunning {
			continue
		}
		if t.Pane.ID != "" {
			if err := c.KillPane(ctx, t.Pane.ID); err != nil && !errors.Is(err, tmux.ErrPaneNotFound) {
				return PruneResult{Tasks: pruned}, err
			}
		}
		if err := RemoveTask(t); err != nil && !errors.Is(err, os.ErrNotExist) {
			return PruneResult{Tasks: pruned}, err
		}
		pruned = append(pruned, t.ID)
	}
	if err := journal.Prune(ctx, c); err != nil && !errors.Is(err, tmux.ErrNoServer) {
		return PruneResult{Tasks: pruned}, err // (no server: the task session was its last)
	}
	res.Tasks = pruned
	if state != "" {
		res.Servers = statedir.PruneServers(state)
	} else {
		res.Servers = statedir.PruneServersAt(c.Server.Socket)
	}
	return res, nil
}

// The bounds of a server's tasks. A client that starts task after task
// (run_shell_command with background in a loop) meets them.
const (
	MaxRunning = 32 // tasks running at once; one more is refused
	MaxEnded   = 16 // ended tasks kept, each with its journal; older ones go
)

// ErrTooMany: MaxRunning tasks run already.
var ErrTooMany = errors.New("too many tasks")

// Bound makes room for a new task: it refuses one past MaxRunning tasks,
// and removes the oldest ended tasks (pane, record, journal) past MaxEnded
// and the journals of journaled panes that are gone. It returns the ids of
// the tasks removed.
func Bound(ctx context.Context, c *tmux.Client) ([]string, error) {
	tasks, err := ListTasks(ctx, c)
	if err != nil {
		return nil, err
	}
	var ended []Task
	running := 0
	for _, t := range tasks {
		if t.Status == TaskRunning {
			running++
		} else {
			ended = append(ended, t)
		}
	}
	if running >= MaxRunning {
		return nil, fmt.Errorf("%w: %d tasks run on this server already, the most panectl keeps; wait for one (task wait --any) or stop one (task kill ID)", ErrTooMany, running)
	}
	sort.Slice(ended, func(i, j int) bool { return ended[i].Ended.Before(ended[j].Ended) })
	var removed []string
	for _, t := range ended[:max(0, len(ended)-MaxEnded+1)] {
		if t.Pane.ID != "" {
			if err := c.KillPane(ctx, t.Pane.ID); err != nil && !errors.Is(err, tmux.ErrPaneNotFound) {
				return removed, err
			}
		}
		if err := RemoveTask(t); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, err
		}
		removed = append(removed, t.ID)
	}
	// The journals of journaled panes that are gone: nothing reads them.
	// A failure here does not stop the task.
	_ = journal.Prune(ctx, c)
	return removed, nil
}

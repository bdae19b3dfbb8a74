package tool

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/panectl/panectl/pane/journal"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/waiter"
)

// runBackground starts a task (run --background).
func runBackground(ctx context.Context, f *Env, in schema.RunInput) (schema.RunOutput, error) {
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.RunOutput{}, err
	}
	sh, isShell := shell.ShellOf(p.Command)
	if !isShell {
		sh = shell.ShellPOSIX
	}
	// A task's command is not typed (its supervisor runs it: control
	// characters are the command's own), but it travels in arguments,
	// which cannot hold a NUL byte.
	if i := strings.IndexByte(in.Command, 0); i >= 0 {
		return schema.RunOutput{}, Usagef("the command holds a NUL byte at byte %d: a program's arguments cannot hold one; have the command make it (printf '\\0')", i)
	}
	// A task's status is its whole script's: several statements are fine,
	// but the command must parse.
	if _, err := shell.CheckSingle(sh, in.Command, true); err != nil {
		return schema.RunOutput{}, Usage(err)
	}
	self, err := os.Executable()
	if err != nil {
		return schema.RunOutput{}, fmt.Errorf("cannot find the panectl binary to supervise the task: %w", err)
	}
	spec := task.TaskSpec{Command: in.Command, Shell: task.TaskShell(p.Command), Started: time.Now().UnixMilli()}
	var limit *float64 // the time limit used, when there is one
	if in.Timeout != nil {
		l := EffectiveTimeout(in.Timeout)
		limit = &l
		spec.LimitMS = max(1, int64(l*1000)) // 0 would mean none: a limit of 0 s ends the task at once
	}
	removed, err := task.Bound(ctx, c)
	if err != nil {
		return schema.RunOutput{}, err
	}
	t, err := task.StartTask(ctx, c, spec, p.CWD, []string{self, "-S", c.Server.Socket})
	if err != nil {
		return schema.RunOutput{}, err
	}
	out := schema.RunOutput{PaneID: t.Pane.ID, Command: in.Command, Output: []string{}, TaskID: t.ID,
		SessionID: t.Pane.SessionID, Status: task.TaskRunning, EffectiveTimeout: limit}
	if len(removed) > 0 {
		out.Note = fmt.Sprintf("removed the oldest ended tasks (%s): panectl keeps %d ended tasks", strings.Join(removed, " "), task.MaxEnded)
	}
	return out, nil
}

// Frame builds a task's completion Frame, its output read from the
// task's journal.
func Frame(t task.Task) (schema.CompletionFrame, error) {
	fr := schema.CompletionFrame{
		FrameType: "task_running", TaskID: t.ID, PaneID: t.Spec.PaneID, SessionID: t.SessionID(),
		Status: t.Status, ExitCode: t.Exit, Signal: t.Signal, Command: t.Spec.Command,
	}
	end := time.Now()
	if t.Status != task.TaskRunning {
		fr.FrameType = "bash_completed"
		if !t.Ended.IsZero() {
			end = t.Ended
		}
	}
	fr.Seconds = Round3(max(0, end.Sub(time.UnixMilli(t.Spec.Started)).Seconds()))
	sum, err := journal.Summarize(t.Journal)
	if err != nil {
		return fr, err
	}
	fr.OutputPreview, fr.OutputTruncated = sum.Preview, sum.Truncated
	fr.OriginalTokens, fr.CompressedTokens, fr.TokensSkipped = sum.Tokens.Original, sum.Tokens.Compressed, sum.Tokens.Skipped
	return fr, nil
}

func runListTasks(ctx context.Context, f *Env, _ schema.ListTasksInput) (schema.ListTasksOutput, error) {
	c, err := f.Client()
	if err != nil {
		return schema.ListTasksOutput{}, err
	}
	tasks, err := task.ListTasks(ctx, c)
	if err != nil {
		return schema.ListTasksOutput{}, err
	}
	out := schema.ListTasksOutput{Tasks: []schema.CompletionFrame{}}
	for _, t := range tasks {
		fr, err := Frame(t)
		if err != nil {
			continue // removed meanwhile
		}
		out.Tasks = append(out.Tasks, fr)
	}
	return out, nil
}

func runWaitTask(ctx context.Context, f *Env, in schema.WaitTaskInput) (schema.WaitTaskOutput, error) {
	switch {
	case in.Any && in.TaskID != "":
		return schema.WaitTaskOutput{}, Usagef("give a task id or any, not both")
	case !in.Any && in.TaskID == "":
		return schema.WaitTaskOutput{}, Usagef("a task id is required (or any: a task that ended and no any-wait returned yet, else the next to end); see: panectl tasks")
	}
	c, err := f.Client()
	if err != nil {
		return schema.WaitTaskOutput{}, err
	}
	timeout := EffectiveTimeout(in.Timeout)
	ctx, cancel := OpContext(ctx, timeout, 0)
	defer cancel()
	var t task.Task
	var outcome schema.Outcome
	if in.Any {
		t, outcome, err = waiter.WaitAnyTask(ctx, c, Seconds(timeout))
		if err == nil && t.ID == "" { // timeout, or the server went away with no task running
			return schema.WaitTaskOutput{Outcome: outcome, EffectiveTimeout: timeout}, nil
		}
	} else {
		t, outcome, err = waiter.WaitTask(ctx, c, in.TaskID, Seconds(timeout))
	}
	if err != nil {
		return schema.WaitTaskOutput{}, err
	}
	fr, err := Frame(t)
	if err != nil {
		return schema.WaitTaskOutput{}, err
	}
	return schema.WaitTaskOutput{CompletionFrame: &fr, Outcome: outcome, EffectiveTimeout: timeout}, nil
}

func runKillTask(ctx context.Context, f *Env, in schema.KillTaskInput) (schema.KillTaskOutput, error) {
	if in.TaskID == "" && !in.Prune {
		return schema.KillTaskOutput{}, Usagef("a task id is required (or prune: remove the tasks that have ended); see: panectl tasks")
	}
	c, err := f.Client()
	if err != nil {
		return schema.KillTaskOutput{}, err
	}
	var out schema.KillTaskOutput
	if in.TaskID != "" {
		t, signals, err := waiter.KillTask(ctx, c, in.TaskID, task.TaskKillGrace)
		if err != nil {
			return schema.KillTaskOutput{}, err
		}
		fr, err := Frame(t)
		if err != nil {
			return schema.KillTaskOutput{}, err
		}
		out.CompletionFrame, out.Signals = &fr, signals
	}
	if in.Prune {
		res, err := task.Prune(ctx, c)
		out.Pruned = schema.Pruned{Pruned: res.Tasks, PrunedServers: res.Servers}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/waiter"
	"github.com/spf13/cobra"
)

// runBackground starts a task (run --background).
func runBackground(ctx context.Context, f *Factory, in schema.RunInput) (schema.RunOutput, error) {
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.RunOutput{}, err
	}
	sh, isShell := pane.ShellOf(p.Command)
	if !isShell {
		sh = pane.ShellPOSIX
	}
	// A task's status is its whole script's: several statements are fine,
	// but the command must parse.
	if _, err := pane.CheckSingle(sh, in.Command, true); err != nil {
		return schema.RunOutput{}, usageErr(err)
	}
	self, err := os.Executable()
	if err != nil {
		return schema.RunOutput{}, fmt.Errorf("cannot find the panectl binary to supervise the task: %w", err)
	}
	spec := pane.TaskSpec{Command: in.Command, Shell: pane.TaskShell(p.Command), Started: time.Now().UnixMilli()}
	if in.Timeout != nil {
		spec.LimitMS = int64(effectiveTimeout(in.Timeout) * 1000)
	}
	t, err := pane.StartTask(ctx, c, spec, p.CWD, []string{self, "-S", c.Server.Socket})
	if err != nil {
		return schema.RunOutput{}, err
	}
	return schema.RunOutput{PaneID: t.Pane.ID, Command: in.Command, Output: []string{}, TaskID: t.ID,
		SessionID: t.Pane.SessionID, Status: pane.TaskRunning}, nil
}

// frame builds a task's completion frame (its output captured now).
func frame(ctx context.Context, f *Factory, t pane.Task) (schema.CompletionFrame, error) {
	c, err := f.Client()
	if err != nil {
		return schema.CompletionFrame{}, err
	}
	fr := schema.CompletionFrame{
		FrameType: "task_running", TaskID: t.ID, PaneID: t.Pane.ID, SessionID: t.Pane.SessionID,
		Status: t.Status, ExitCode: t.Exit, Signal: t.Signal, Command: t.Spec.Command,
	}
	end := time.Now()
	if t.Status != pane.TaskRunning {
		fr.FrameType = "bash_completed"
		if !t.Ended.IsZero() {
			end = t.Ended
		}
	}
	fr.Seconds = round3(max(0, end.Sub(time.UnixMilli(t.Spec.Started)).Seconds()))
	raw, plain, lost, err := pane.TaskOutput(ctx, c, t)
	if err != nil {
		return fr, err
	}
	fr.OutputPreview, fr.OutputTruncated = pane.Preview(plain, pane.PreviewBytes)
	fr.OutputTruncated = fr.OutputTruncated || lost
	st := pane.CountOutput(raw)
	fr.OriginalTokens, fr.CompressedTokens, fr.TokensSkipped = st.Original, st.Compressed, st.Skipped
	return fr, nil
}

func printFrame(w io.Writer, fr schema.CompletionFrame) {
	code := "null"
	if fr.ExitCode != nil {
		code = strconv.Itoa(*fr.ExitCode)
	}
	fmt.Fprintf(w, "%s %s %s exit_code=%s %.1fs %s\n", fr.TaskID, fr.PaneID, fr.Status, code, fr.Seconds, fr.Command)
}

func newTasksCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "tasks",
		Short: "List background tasks (run --background) and their status",
		Long: `List the background tasks of the server: id, pane, status (running, completed,
failed, killed, timed_out), exit code, seconds, command. With --json each task
is its completion frame (output preview and token counts included).

Task panes live in the detached session panectl-tasks and stay after their
command ends (remain-on-exit) so output and status remain readable; remove
them with panectl kill tN (or tmux kill-session -t panectl-tasks).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			out, err := runListTasks(c.Context(), f, schema.ListTasksInput{})
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) {
				for _, t := range out.Tasks {
					printFrame(w, t)
				}
			})
		},
	}
}

func runListTasks(ctx context.Context, f *Factory, in schema.ListTasksInput) (schema.ListTasksOutput, error) {
	c, err := f.Client()
	if err != nil {
		return schema.ListTasksOutput{}, err
	}
	tasks, err := pane.ListTasks(ctx, c)
	if err != nil {
		return schema.ListTasksOutput{}, err
	}
	out := schema.ListTasksOutput{Tasks: []schema.CompletionFrame{}}
	for _, t := range tasks {
		fr, err := frame(ctx, f, t)
		if err != nil {
			continue // gone meanwhile
		}
		out.Tasks = append(out.Tasks, fr)
	}
	return out, nil
}

func newTaskCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "task",
		Short: "Wait for or stop a background task",
	}
	var in schema.WaitTaskInput
	wait := &cobra.Command{
		Use:   "wait ID",
		Short: "Block until a task ends; print its completion frame",
		Long: `Wait until the task ends and print its completion frame: status (completed,
failed, killed, timed_out), exit_code (null when a signal ended it), the tail
of its output (output_preview, at most 300 bytes), output_truncated, and token
counts of the output as written and compressed (o200k_base; skipped above
128 KiB). Exit: 0 when the task ended (whatever its status), 124 timeout (the
task keeps running), 4 no such task.`,
		Example: "  panectl task wait t7 --timeout 10m",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			in.TaskID = args[0]
			out, err := runWaitTask(c.Context(), f, in)
			if err != nil {
				return err
			}
			if err := f.emit(out, func(w io.Writer) {
				printFrame(w, out.CompletionFrame)
				if out.OutputPreview != "" {
					fmt.Fprintln(w, out.OutputPreview)
				}
			}); err != nil {
				return err
			}
			return exitOf(out)
		},
	}
	wait.Flags().VarP(timeoutFlag{&in.Timeout}, "timeout", "t", "seconds (1.5) or a duration (500ms, 2s, 1m); default 30, clamped to [0, 3600]")
	kill := &cobra.Command{
		Use:   "kill ID",
		Short: "Stop a task: SIGINT, then SIGTERM and SIGKILL after 2 s grace periods",
		Long: `Stop the task's processes (its process group): SIGINT; if it is still running
after 2 s, SIGTERM; after 2 s more, SIGKILL. Its status becomes killed; its pane
stays with the output. A task that already ended is left as it is.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			out, err := runKillTask(c.Context(), f, schema.TaskInput{TaskID: args[0]})
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { printFrame(w, out.CompletionFrame) })
		},
	}
	cmd.AddCommand(wait, kill)
	return cmd
}

// newTaskExecCmd is the hidden supervisor command task panes run.
func newTaskExecCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:    "__task-exec PANE -- SHELL -c COMMAND",
		Short:  "Supervise a background task's command (internal)",
		Hidden: true,
		Args:   cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			return taskExec(f, args[0], args[1:])
		},
	}
}

func runWaitTask(ctx context.Context, f *Factory, in schema.WaitTaskInput) (schema.WaitTaskOutput, error) {
	c, err := f.Client()
	if err != nil {
		return schema.WaitTaskOutput{}, err
	}
	timeout := effectiveTimeout(in.Timeout)
	ctx, cancel := opContext(ctx, timeout, 0)
	defer cancel()
	t, outcome, err := waiter.WaitTask(ctx, c, in.TaskID, seconds(timeout))
	if err != nil {
		return schema.WaitTaskOutput{}, err
	}
	fr, err := frame(ctx, f, t)
	if err != nil {
		return schema.WaitTaskOutput{}, err
	}
	return schema.WaitTaskOutput{CompletionFrame: fr, Outcome: outcome, EffectiveTimeout: timeout}, nil
}

func runKillTask(ctx context.Context, f *Factory, in schema.TaskInput) (schema.KillTaskOutput, error) {
	c, err := f.Client()
	if err != nil {
		return schema.KillTaskOutput{}, err
	}
	t, signals, err := waiter.KillTask(ctx, c, in.TaskID, pane.TaskKillGrace)
	if err != nil {
		return schema.KillTaskOutput{}, err
	}
	fr, err := frame(ctx, f, t)
	if err != nil {
		return schema.KillTaskOutput{}, err
	}
	return schema.KillTaskOutput{CompletionFrame: fr, Signals: signals}, nil
}

// taskExec is the hidden `__task-exec %N -- SHELL -c COMMAND` a task pane
// runs: waiter.SuperviseTask does the work.
func taskExec(f *Factory, paneID string, argv []string) error {
	if len(argv) > 0 && argv[0] == "--" {
		argv = argv[1:]
	}
	if len(argv) == 0 {
		return usageErrorf("no command to supervise")
	}
	c, err := f.Client()
	if err != nil {
		return err
	}
	f.outlivesSignals.Store(true)
	return waiter.SuperviseTask(c, paneID, argv)
}

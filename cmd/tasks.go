package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/spf13/cobra"
)

func printFrame(w io.Writer, fr schema.CompletionFrame) {
	code := "null"
	if fr.ExitCode != nil {
		code = strconv.Itoa(*fr.ExitCode)
	}
	fmt.Fprintf(w, "%s %s %s exit_code=%s %.1fs %s\n", fr.TaskID, fr.PaneID, fr.Status, code, fr.Seconds, fr.Command)
}

func newTasksCmd(f *Factory) *cobra.Command {
	var prune, follow bool
	var timeout *float64
	cmd := &cobra.Command{
		Use:   "tasks",
		Short: "List background tasks (run --background) and their status; --follow streams frames as tasks end",
		Long: `List the background tasks of the server: id, pane, status (running,
completed, failed, killed, timed_out), exit code, seconds, command. With
--json each task is its completion frame (output preview and token counts,
read from the task's journal). A task stays listed after its pane is gone.

--prune removes every task that has ended (its pane, record and journal) and
the state of tmux servers that no longer run; it works without a server.
--follow prints each task's completion frame as a JSON line the moment it
ends, until --timeout (exit 124) or Ctrl-C (exit 130). When the tmux server
goes away, --follow prints the frames of its killed tasks and exits 5.

See: panectl help tasks`,
		Example: `  panectl tasks
  panectl tasks --follow --timeout 10m | jq -c '{task_id, status, exit_code}'
  panectl tasks --prune`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if follow {
				if prune {
					return tool.Usagef("--follow and --prune do not go together")
				}
				return runFollowTasks(c.Context(), f, timeout)
			}
			if timeout != nil {
				return tool.Usagef("--timeout goes with --follow")
			}
			out, err := listTasks(c.Context(), f, prune)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) {
				for _, t := range out.Tasks {
					printFrame(w, t)
				}
				if len(out.Pruned.Pruned) > 0 {
					fmt.Fprintf(f.IO.ErrOut, "pruned: %s\n", strings.Join(out.Pruned.Pruned, " "))
				}
				if out.PrunedServers > 0 {
					fmt.Fprintf(f.IO.ErrOut, "pruned the state of %d tmux servers that no longer run\n", out.PrunedServers)
				}
			})
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&prune, "prune", false, "remove the tasks that have ended (pane, record, journal) first")
	fl.BoolVarP(&follow, "follow", "f", false, "print each task's completion frame as a JSON line when it ends")
	fl.VarP(timeoutFlag{&timeout}, "timeout", "t", "with --follow: stop after this many seconds (exit 124)")
	return cmd
}

// listTasks lists the tasks (list_tasks), after a prune (kill_task with
// prune) when asked. Without a server a prune still removes the state of
// dead servers; the list is then empty.
func listTasks(ctx context.Context, f *Factory, prune bool) (schema.ListTasksOutput, error) {
	var pruned schema.Pruned
	if prune {
		k, err := tool.KillTask.Run(ctx, &f.Env, schema.KillTaskInput{Prune: true})
		pruned = k.Pruned
		if err != nil {
			return schema.ListTasksOutput{Tasks: []schema.CompletionFrame{}, Pruned: pruned}, err
		}
	}
	out, err := tool.ListTasks.Run(ctx, &f.Env, schema.ListTasksInput{})
	if prune && errors.Is(err, tmux.ErrNoServer) {
		out, err = schema.ListTasksOutput{Tasks: []schema.CompletionFrame{}}, nil // the task session was the server's last
	}
	out.Pruned = pruned
	return out, err
}

// runFollowTasks prints frames as tasks end (tasks --follow).
func runFollowTasks(ctx context.Context, f *Factory, timeout *float64) error {
	enc := json.NewEncoder(f.IO.Out)
	enc.SetEscapeHTML(false)
	outcome, err := tool.FollowTasks(ctx, &f.Env, timeout, func(fr schema.CompletionFrame) error { return enc.Encode(fr) })
	if err != nil {
		return err
	}
	if outcome == schema.OutcomeExited && !f.JSON {
		fmt.Fprintln(f.IO.ErrOut, "exited: the tmux server went away")
	}
	return tool.OutcomeExit(outcome)
}

func newTaskCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "task",
		Short: "Wait for, stop or read a background task",
	}
	var in schema.WaitTaskInput
	wait := &cobra.Command{
		Use:   "wait [ID | --any]",
		Short: "Block until a task ends (--any: a task not yet returned by an --any wait); print its frame",
		Long: `Wait until the task ends and print its completion frame: status (completed,
failed, killed, timed_out), exit_code (the command's exit status; null when
a signal ended it, and then signal names it), the tail of its output
(output_preview, at most 300 bytes), and token counts of its whole output as
written and compressed (o200k_base, counted on its journal; both omitted,
with tokens_skipped, above 128 KiB).
With --any (a queue of ended tasks): return a task of the server (whoever started
it) that has ended and that no --any wait has returned yet, the one that
ended first, at once; when there is none, wait for the next to end. Each
ended task is returned by one --any wait only (also to concurrent waits), so
a loop of --any waits sees every task once, even tasks that end between two
waits. Tasks that ended before the wait began count too, until tasks --prune
removes them: the first --any wait returns the oldest unwaited one at once.
task wait ID, tasks --follow and task kill do not mark a task as returned.
When none ends in time (or the server goes away with none running) there is
no frame: --json prints only outcome and effective_timeout.
Exit: 0 when the task ended (whatever its status), 124 timeout (the task
keeps running), 4 no such task (or no server), 5 the tmux server went away
during the wait: its tasks' supervisors stop their commands and record them
as killed in the task's record, which outlives the server; the frame printed
is that record (outcome exited).`,
		Example: `  panectl task wait t7 --timeout 10m
  panectl task wait --any --timeout 60
  while panectl task wait --any --timeout 600; do :; done   # every task once`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				in.TaskID = args[0]
			}
			out, err := tool.WaitTask.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			if err := f.emit(out, func(w io.Writer) {
				switch {
				case out.CompletionFrame == nil && out.Outcome == schema.OutcomeExited:
					fmt.Fprintln(f.IO.ErrOut, "exited: the tmux server went away; no task was running")
					return
				case out.CompletionFrame == nil:
					fmt.Fprintf(f.IO.ErrOut, "timeout: no task ended within %gs\n", out.EffectiveTimeout)
					return
				}
				printFrame(w, *out.CompletionFrame)
				if out.OutputPreview != "" {
					fmt.Fprintln(w, out.OutputPreview)
				}
				if out.Outcome == schema.OutcomeExited {
					fmt.Fprintln(f.IO.ErrOut, "exited: the tmux server went away during the wait (the frame is the task's record)")
				}
			}); err != nil {
				return err
			}
			return tool.WaitTask.ExitOf(out)
		},
	}
	wait.Flags().VarP(timeoutFlag{&in.Timeout}, "timeout", "t", timeoutHelp())
	wait.Flags().BoolVar(&in.Any, "any", false, "a task that ended and no --any wait returned yet (oldest end first), else the next to end, instead of ID")
	kill := &cobra.Command{
		Use:   "kill ID",
		Short: "Stop a task: SIGINT, then SIGTERM and SIGKILL after 2 s grace periods",
		Long: `Stop the task's command and everything in its process group: SIGINT; if any of
it still runs after 2 s, SIGTERM; after 2 s more, SIGKILL. Its status becomes
killed; exit_code is null when a signal ended the command, or the status it
exited with when it handled the signal and exited by itself (a trap); its
pane stays with the output. A task that already
ended is left as it is. (panectl kill tN closes the task's pane instead, and
so starts with SIGHUP, as a closing terminal does.)`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			out, err := tool.KillTask.Run(c.Context(), &f.Env, schema.KillTaskInput{TaskID: args[0]})
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { printFrame(w, *out.CompletionFrame) })
		},
	}
	var compressed bool
	output := &cobra.Command{
		Use:   "output ID [--compressed]",
		Short: "Print a task's whole output from its journal (--compressed: the compressed payload)",
		Long: `Print everything the task's command wrote to its terminal, byte for byte as
it was written (escape sequences and CR LF line ends included), from the task's
journal: not limited by the pane's history, readable after the pane is gone.
A journal keeps the newest 64 MiB; older output is gone (a note on stderr says
so). --compressed prints the payload compressed_tokens counts instead: ANSI
removed, carriage-return redraws collapsed to their last state, runs of
identical lines folded. Not a tool of call or mcp (its output is the text
itself; --json is not accepted).`,
		Example: `  panectl task output t7 > build.log
  panectl task output t7 --compressed | tail -n 50`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if f.JSON {
				return tool.Usagef("task output prints the output itself; --json is not accepted (the frame is: panectl task wait ID --json)")
			}
			return runTaskOutput(c.Context(), f, args[0], compressed)
		},
	}
	output.Flags().BoolVar(&compressed, "compressed", false, "print the compressed payload (ANSI removed, redraws collapsed, repeats folded)")
	cmd.AddCommand(wait, kill, output)
	return cmd
}

// newTaskExecCmd is the hidden supervisor command task panes run.
func newTaskExecCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:    proc.TaskExecVerb + " PANE DIR -- SHELL -c COMMAND",
		Short:  "Supervise a background task's command (internal)",
		Hidden: true,
		Args:   cobra.MinimumNArgs(3),
		RunE: func(c *cobra.Command, args []string) error {
			return taskExec(f, args[0], args[1], args[2:])
		},
	}
}

// newJournalWriteCmd is the hidden journal writer tmux's pipe-pane runs
// for a journaled pane.
func newJournalWriteCmd(f *Factory) *cobra.Command {
	var state string
	cmd := &cobra.Command{
		Use:    "__journal-write [--state DIR] PANE",
		Short:  "Append standard input to a journaled pane's journal (internal)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return tool.CopyJournal(&f.Env, state, args[0], f.IO.In)
		},
	}
	cmd.Flags().StringVar(&state, "state", "", "the server's state directory")
	return cmd
}

// runTaskOutput prints a task's journal (task output).
func runTaskOutput(ctx context.Context, f *Factory, id string, compressed bool) error {
	data, first, firstLine, err := tool.TaskOutput(ctx, &f.Env, id, compressed)
	if err != nil {
		return err
	}
	if first > 0 {
		fmt.Fprintf(f.IO.ErrOut, "note: the first %d bytes (%d lines) of the output left the journal, which keeps the newest %d MiB\n", first, firstLine, tool.JournalMiB)
	}
	_, err = f.IO.Out.Write(data)
	return err
}

// taskExec is the hidden `__task-exec %N DIR -- SHELL -c COMMAND` a task
// pane runs. It outlives SIGINT and SIGTERM: the supervisor handles them.
func taskExec(f *Factory, paneID, dir string, argv []string) error {
	f.outlivesSignals.Store(true)
	return tool.SuperviseTask(&f.Env, paneID, dir, argv)
}

package cmd

import (
	"context"
	"fmt"
	"io"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/acp"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/waiter"
	"github.com/spf13/cobra"
)

func newScreenCmd(f *Factory) *cobra.Command {
	var in schema.ScreenInput
	cmd := &cobra.Command{
		Use:   "screen PANE",
		Short: "Print the stable visible screen: rows as displayed, cursor, size, title",
		Long: `Print the visible screen of a pane row by row, as a person sees it: colour and
cursor-movement escapes applied and stripped (kept with --ansi), trailing
blank rows trimmed. The screen is taken once output has paused briefly (two
captures 50 ms apart agree); a program that redraws without pause gets the
frame seen after 1 s, with stable false and a note.

--diff prints only the rows changed since this pane's previous screen (any
panectl process: the row fingerprints are kept in the pane option
@panectl_screen): unchanged when nothing changed, the full frame on the first
look, after a respawn or resize, or when most rows changed. When the screen
scrolled, scrolled says by how many rows the previous frame moved up first.`,
		Example: `  panectl screen %1 --lines 5
  panectl --json screen %1 --diff`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID = args[0]
			out, err := runScreen(c.Context(), f, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) {
				switch {
				case !in.Diff || out.Full:
					printLines(w, out.Rows)
				case out.Unchanged:
					fmt.Fprintln(f.IO.ErrOut, "unchanged")
				default:
					if out.Scrolled > 0 {
						fmt.Fprintf(f.IO.ErrOut, "scrolled %d rows\n", out.Scrolled)
					}
					for _, r := range out.ChangedRows {
						fmt.Fprintf(w, "%d\t%s\n", r.Row, r.Text)
					}
				}
				if out.Note != "" {
					fmt.Fprintf(f.IO.ErrOut, "note: %s\n", out.Note)
				}
			})
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&in.Lines, "lines", 0, "only the last N rows")
	fl.BoolVar(&in.Diff, "diff", false, "only the rows changed since this pane's previous screen")
	fl.BoolVar(&in.ANSI, "ansi", false, "keep colour escapes")
	return cmd
}

func runScreen(ctx context.Context, f *Factory, in schema.ScreenInput) (schema.ScreenOutput, error) {
	if in.Lines < 0 || in.Lines > 10000 {
		return schema.ScreenOutput{}, usageErrorf("lines %d is out of range: want 1..10000 (the last N rows), or 0 for all rows (the default)", in.Lines)
	}
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.ScreenOutput{}, err
	}
	s, stable, err := pane.StableScreen(ctx, c, p.ID, in.ANSI, pane.DefaultSettle)
	if err != nil {
		return schema.ScreenOutput{}, err
	}
	prev, ok, err := pane.LoadScreenState(ctx, c, p.ID)
	if err != nil {
		return schema.ScreenOutput{}, err
	}
	if err := pane.SaveScreenState(ctx, c, p.ID, s); err != nil {
		return schema.ScreenOutput{}, err
	}
	rows := s.Rows
	if in.ANSI {
		rows = s.ANSIRows
	}
	first := 0
	if in.Lines > 0 && in.Lines < len(rows) {
		first = len(rows) - in.Lines
	}
	out := schema.ScreenOutput{
		PaneID: p.ID, Rows: []string{}, FirstRow: first, CursorX: s.Info.CursorX, CursorY: s.Info.CursorY,
		Width: s.Info.Width, Height: s.Info.Height, AlternateOn: s.Info.AlternateOn, Title: s.Info.Title,
		Stable: stable,
	}
	if !stable {
		out.Note = "the screen kept changing for 1 s; this frame may be in the middle of a redraw"
	}
	if !in.Diff {
		out.Rows = nonNil(rows[first:])
		return out, nil
	}
	d := pane.DiffScreen(prev, ok, s)
	switch {
	case d.Full:
		out.Full = true
		out.Rows = nonNil(rows[first:])
		out.Note = joinNote(out.Note, "full frame: "+d.Why)
	case d.Unchanged():
		out.Unchanged = true
	default:
		out.Scrolled = d.Scrolled
		for _, i := range d.Changed {
			if i < first {
				continue
			}
			text := ""
			if i < len(rows) {
				text = rows[i]
			}
			out.ChangedRows = append(out.ChangedRows, schema.ChangedRow{Row: i, Text: text})
		}
		if len(out.ChangedRows) == 0 && out.Scrolled == 0 {
			out.Unchanged = true // only rows above --lines changed
		}
	}
	return out, nil
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

func newStatusCmd(f *Factory) *cobra.Command {
	var in schema.StatusInput
	cmd := &cobra.Command{
		Use:   "status PANE",
		Short: "Print what changed in a pane since its previous status: new lines, command, exit",
		Long: `Print the new logical lines since the previous status of this pane (by any
panectl process: the point is kept in the pane option @panectl_status), with
the foreground command, whether the pane's process exited and its exit
status. Nothing happened: changed false and no output. The first status of a
pane returns the visible screen. --verbose returns the visible screen every
time; --scrollback-lines N prepends N lines of history before the output.

A background task (tN, or its pane) is read from its journal, never from
what tmux kept of its pane (no "Pane is dead" banner): the first status
returns the journal from its start, later ones what it gained since,
--verbose the whole journal (its newest 200 lines). Once the task has ended,
exit_status is its command's own (absent when a signal ended it; the note
names the signal) and running_command is the task's command.`,
		Example: `  panectl status %1
  panectl --json status %1 --verbose --scrollback-lines 20`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID = args[0]
			out, err := runStatus(c.Context(), f, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) {
				printLines(w, out.Output)
				state := "running " + out.RunningCommand
				if out.Dead {
					state = "dead"
					if out.ExitStatus != nil {
						state = fmt.Sprintf("dead (exit status %d)", *out.ExitStatus)
					}
				}
				changed := "unchanged"
				if out.Changed {
					changed = "changed"
				}
				fmt.Fprintf(f.IO.ErrOut, "%s; %s\n", changed, state)
				if out.Note != "" {
					fmt.Fprintf(f.IO.ErrOut, "note: %s\n", out.Note)
				}
			})
		},
	}
	fl := cmd.Flags()
	fl.BoolVarP(&in.Verbose, "verbose", "v", false, "return the visible screen whether or not anything changed")
	fl.IntVar(&in.ScrollbackLines, "scrollback-lines", 0, "prepend N lines of history before the output")
	return cmd
}

func runStatus(ctx context.Context, f *Factory, in schema.StatusInput) (schema.StatusOutput, error) {
	if in.ScrollbackLines < 0 || in.ScrollbackLines > 10000 {
		return schema.StatusOutput{}, usageErrorf("scrollback_lines %d is out of range: want 0..10000", in.ScrollbackLines)
	}
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.StatusOutput{}, err
	}
	n, _ := maxLines(0)
	r, err := tool.Status(ctx, c, p.ID, tool.StatusOptions{Verbose: in.Verbose, Scrollback: in.ScrollbackLines, MaxLines: n})
	if err != nil {
		return schema.StatusOutput{}, err
	}
	out := schema.StatusOutput{
		PaneID: p.ID, Output: nonNil(r.Lines), Changed: r.Changed, RunningCommand: r.Command,
		Dead: r.Pane.Dead, Cursor: r.Cursor.Encode(), LinesDropped: r.LinesDropped, Truncated: r.Truncated,
		Note: r.Note,
	}
	switch {
	case r.First && r.Task != nil:
		out.Note = joinNote(out.Note, "first status of this task: output is its journal from the start")
	case r.First:
		out.Note = joinNote(out.Note, "first status of this pane: output is the visible screen")
	}
	if r.Reset {
		out.Note = joinNote(out.Note, "history was cleared since the previous status")
	}
	switch t := r.Task; {
	case t != nil && t.Status != task.TaskRunning:
		// the task's own ending, as its supervisor recorded it: no exit
		// status when a signal ended it
		out.ExitStatus = t.Exit
		note := fmt.Sprintf("the task ended: %s", t.Status)
		if t.Signal != 0 {
			note += fmt.Sprintf(", its command was killed by signal %d (%s)", t.Signal, acp.SignalName(t.Signal))
		}
		out.Note = joinNote(out.Note, note)
	case t != nil:
		// still running (its supervisor may be ending): no exit status yet
	case r.Pane.Dead && !r.Pane.DeadKnown:
		out.Note = joinNote(out.Note, "the process exited but tmux has not reported its exit status yet")
	case r.Pane.Dead:
		st := r.Pane.DeadStatus
		out.ExitStatus = &st
		if r.Pane.DeadSignal != 0 {
			out.Note = joinNote(out.Note, fmt.Sprintf("the process was killed by signal %d", r.Pane.DeadSignal))
		}
	}
	return out, nil
}

// quietWindow validates quiet_ms (50..60000; 0: the default 600).
func quietWindow(ms int) (int, error) {
	switch {
	case ms == 0:
		return int(waiter.DefaultQuiet.Milliseconds()), nil
	case ms < int(waiter.MinQuiet.Milliseconds()) || ms > int(waiter.MaxQuiet.Milliseconds()):
		return 0, usageErrorf("quiet_ms %d is out of range: want 50..60000", ms)
	}
	return ms, nil
}

// explicitQuiet rejects --quiet-ms 0 given on the command line (0 in the
// input type means "not given").
func explicitQuiet(c *cobra.Command, ms int) error {
	if c.Flags().Changed("quiet-ms") && ms == 0 {
		return usageErrorf("quiet_ms 0 is out of range: want 50..60000")
	}
	return nil
}

func newWaitQuietCmd(f *Factory) *cobra.Command {
	var in schema.WaitForQuietInput
	cmd := &cobra.Command{
		Use:   "wait-quiet PANE",
		Short: "Wait until the screen has not changed for --quiet-ms",
		Long: `Wait until the pane's screen has not changed for --quiet-ms milliseconds
(default 600, 50..60000). Output events restart the quiet window only when a
capture confirms the screen's content changed: a redraw of identical content
or a cursor moving or blinking does not count. Prints the screen.

Exit: 0 quiet, 124 timeout (with the last screen), 5 the pane exited or its
process was replaced (respawn-pane), 1 the server stopped answering.`,
		Example: `  panectl wait-quiet %1 --quiet-ms 1000 --timeout 60`,
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID = args[0]
			if err := explicitQuiet(c, in.QuietMS); err != nil {
				return err
			}
			out, err := runWaitQuiet(c.Context(), f, in)
			if err != nil {
				return err
			}
			if perr := f.emit(out, func(w io.Writer) {
				printLines(w, out.Screen)
				if out.Outcome != waiter.OutcomeQuiet {
					fmt.Fprintf(f.IO.ErrOut, "%s after %.1fs\n", out.Outcome, out.Seconds)
				}
			}); perr != nil {
				return perr
			}
			return outcomeExit(out.Outcome)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&in.QuietMS, "quiet-ms", 0, "quiet window in milliseconds, 50..60000 (default 600)")
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", "seconds (1.5) or a duration (500ms, 2s, 1m); default 30, clamped to [0, 3600]")
	return cmd
}

func runWaitQuiet(ctx context.Context, f *Factory, in schema.WaitForQuietInput) (schema.WaitForQuietOutput, error) {
	ms, err := quietWindow(in.QuietMS)
	if err != nil {
		return schema.WaitForQuietOutput{}, err
	}
	timeout := effectiveTimeout(in.Timeout)
	ctx, cancel := opContext(ctx, timeout, 0)
	defer cancel()
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.WaitForQuietOutput{}, err
	}
	r, err := waiter.WaitQuiet(ctx, c, waiter.QuietOptions{PaneID: p.ID, Quiet: millis(ms), Timeout: seconds(timeout)})
	if err != nil {
		return schema.WaitForQuietOutput{}, err
	}
	return schema.WaitForQuietOutput{
		PaneID: p.ID, Outcome: r.Outcome, Screen: nonNil(r.Screen.Rows), Seconds: round3(r.Elapsed.Seconds()),
		EffectiveTimeout: timeout, QuietMS: ms, Note: r.Note,
	}, nil
}

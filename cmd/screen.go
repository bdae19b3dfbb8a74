package cmd

import (
	"fmt"
	"io"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
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
			out, err := tool.Screen.Run(c.Context(), &f.Env, in)
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
			out, err := tool.StatusCheck.Run(c.Context(), &f.Env, in)
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

// explicitQuiet rejects --quiet-ms 0 given on the command line (0 in the
// input type means "not given").
func explicitQuiet(c *cobra.Command, ms int) error {
	if c.Flags().Changed("quiet-ms") && ms == 0 {
		return tool.Usagef("--quiet-ms 0 is out of range: want %s", schema.Bound("quiet_ms"))
	}
	return nil
}

func newWaitQuietCmd(f *Factory) *cobra.Command {
	var in schema.WaitForQuietInput
	cmd := &cobra.Command{
		Use:   "wait-quiet PANE...",
		Short: "Wait until the screen has not changed for --quiet-ms",
		Long: `Wait until the pane's screen has not changed for --quiet-ms milliseconds.
Output events restart the quiet window only when a
capture confirms the screen's content changed: a redraw of identical content
or a cursor moving or blinking does not count. Prints the screen.

Exit: 0 quiet, 124 timeout (with the last screen), 5 the pane exited or its
process was replaced (respawn-pane), 1 the server stopped answering.

Several panes (ids, --session, --all-panes): the first to decide ends the
wait (--all: each). See: panectl help waits`,
		Example: `  panectl wait-quiet %1 --quiet-ms 1000 --timeout 60
  panectl wait-quiet %1 %2 %3 --all --timeout 60`,
		Args: needPanes,
		RunE: func(c *cobra.Command, args []string) error {
			paneArgs(args, &in.PaneID, &in.Panes)
			if err := explicitQuiet(c, in.QuietMS); err != nil {
				return err
			}
			out, err := tool.WaitForQuiet.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			if perr := f.emit(out, func(w io.Writer) {
				if in.Several() {
					for _, r := range each(out.WaitForQuietResult, out.Results) {
						fmt.Fprintln(w, r.PaneID, r.Outcome)
					}
				} else {
					printLines(w, out.Screen)
				}
				if out.Outcome != schema.OutcomeQuiet {
					if in.Several() {
						fmt.Fprintf(f.IO.ErrOut, "%s: ", out.PaneID)
					}
					fmt.Fprintf(f.IO.ErrOut, "%s after %.1fs\n", out.Outcome, out.Seconds)
				}
			}); perr != nil {
				return perr
			}
			return tool.OutcomeExit(out.Outcome)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&in.QuietMS, "quiet-ms", 0, "quiet window in milliseconds, "+schema.Bound("quiet_ms"))
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", timeoutHelp())
	paneFlags(fl, &in.Panes)
	return cmd
}

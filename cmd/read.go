package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newCaptureCmd(f *Factory) *cobra.Command {
	var in schema.CaptureInput
	cmd := &cobra.Command{
		Use:   "capture PANE",
		Short: "Print the logical lines after a cursor (default: the visible screen) and a new cursor",
		Long: `Print the logical lines (wrapped rows joined, trailing whitespace trimmed, ANSI
stripped) after --cursor, then the new cursor on stderr. Without --cursor the
visible screen is printed. Pass the printed cursor back to read only what came
after it; lines tmux trimmed from history before they were read are reported
as lines_dropped, a cleared history as reset (see: panectl help cursors).

On a pane with a journal (a background task tN, or a pane made with new
--journal), --cursor history and the cursors capture prints read the journal:
every line the program wrote, whatever the pane's history-limit, with
lines_dropped 0 (see: panectl help journals).`,
		Example: `  C=$(panectl cursor %1); panectl send-text %1 make --submit; panectl capture %1 --cursor "$C"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID = args[0]
			if err := explicitMaxLines(c, in.MaxLines); err != nil {
				return err
			}
			out, err := tool.Capture.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) {
				printLines(w, out.Output)
				fmt.Fprintf(f.IO.ErrOut, "cursor: %s\n", out.Cursor)
				if out.Note != "" {
					fmt.Fprintf(f.IO.ErrOut, "note: %s\n", out.Note)
				}
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&in.Cursor, "cursor", "", "read after this cursor ('screen' default, 'history' for all retained lines)")
	fl.IntVar(&in.MaxLines, "max-lines", 0, "keep the newest N lines, "+schema.Bound("max_lines"))
	fl.BoolVar(&in.ANSI, "ansi", false, "keep colour escapes")
	return cmd
}

func newWaitForTextCmd(f *Factory) *cobra.Command {
	var in schema.WaitForTextInput
	cmd := &cobra.Command{
		Use:   "wait-for-text PANE... --pattern P [--pattern P2...]",
		Short: "Wait for a pattern in new output, not fooled by the echo of typed input",
		Long: `Wait until a logical line of new output (after --cursor; default: from now)
matches a pattern. Plain patterns match as substrings; --regex uses regexp2
(lookaround, backreferences, (?i); ^ and $ anchor at line ends). A --stop
pattern ends the wait with exit 3. Text panectl typed into the pane is not
matched: not while pending, not for 10 s after it was submitted, and not
where its echo landed while panectl's ledger keeps the entry.

Exit: 0 matched, 3 stopped, 124 timeout, 5 the pane exited or its process
was replaced (respawn-pane; the note names both processes), 1 the server
stopped answering (about 5 s after it stopped).

Several panes (ids, --session, --all-panes): the first to decide ends the
wait (--all: each). See: panectl help echo, panectl help waits`,
		Example: `  panectl wait-for-text %1 --pattern '$'
  C=$(panectl send-text %1 'make' --submit); panectl wait-for-text %1 --cursor "$C" --pattern 'Build OK' --stop 'Error'
  panectl wait-for-text --session build --pattern 'FAIL' --timeout 600`,
		Args: needPanes,
		RunE: func(c *cobra.Command, args []string) error {
			paneArgs(args, &in.PaneID, &in.Panes)
			if err := explicitMaxLines(c, in.MaxLines); err != nil {
				return err
			}
			f.Env.NoCursor = !f.JSON // the plain output has none
			out, err := tool.WaitForText.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			if perr := f.emit(out, func(w io.Writer) {
				switch {
				case in.Several():
					for _, r := range each(out.WaitForTextResult, out.Results) {
						fmt.Fprintln(w, strings.TrimSpace(fmt.Sprint(r.PaneID, " ", r.Outcome, " ", r.MatchedLine)))
					}
				case out.MatchedLine != "":
					fmt.Fprintln(w, out.MatchedLine)
				}
				if out.Outcome != schema.OutcomeMatched {
					if in.Several() {
						fmt.Fprintf(f.IO.ErrOut, "%s: ", out.PaneID)
					}
					fmt.Fprintf(f.IO.ErrOut, "%s after %.1fs", out.Outcome, out.Seconds)
					if out.Outcome == schema.OutcomeStopped {
						fmt.Fprintf(f.IO.ErrOut, ": stop pattern %q matched", out.Matched)
					}
					if n := len(out.Output); n > 0 && out.Outcome == schema.OutcomeTimeout {
						fmt.Fprintf(f.IO.ErrOut, "; last lines seen:\n  %s", strings.Join(cutLines(out.Output[max(0, n-5):]), "\n  "))
					}
					fmt.Fprintln(f.IO.ErrOut)
					if out.Note != "" {
						fmt.Fprintf(f.IO.ErrOut, "note: %s\n", out.Note)
					}
				}
			}); perr != nil {
				return perr
			}
			return tool.OutcomeExit(out.Outcome)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP((*[]string)(&in.Patterns), "pattern", "p", nil, "pattern to wait for (repeatable)")
	fl.BoolVarP(&in.Regex, "regex", "r", false, "patterns are regexp2 expressions")
	fl.BoolVarP(&in.IgnoreCase, "ignore-case", "i", false, "match case-insensitively")
	fl.StringArrayVar((*[]string)(&in.Stop), "stop", nil, "stop pattern: ends the wait with exit 3 (repeatable)")
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", timeoutHelp())
	fl.StringVar(&in.Cursor, "cursor", "", "match output after this cursor; 'screen' accepts what is visible")
	fl.IntVar(&in.MaxLines, "max-lines", 0, "keep the newest N lines of output, "+schema.Bound("max_lines"))
	paneFlags(fl, &in.Panes)
	return cmd
}

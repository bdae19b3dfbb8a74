package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/waiter"
	"github.com/spf13/cobra"
)

func millis(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }

// recognizers loads the bundled manifests and the user's
// ($XDG_CONFIG_HOME/panectl/recognizers); a broken manifest is an error
// naming its file and line.
func recognizers() (*recognize.Set, error) {
	return recognize.Load(recognize.UserDir())
}

// recognizerErr makes an unknown recognizer a usage error.
func recognizerErr(err error) error {
	if errors.Is(err, recognize.ErrUnknownRecognizer) {
		return usageErr(err)
	}
	return err
}

func evidence(e recognize.Evidence) schema.Evidence {
	return schema.Evidence{Rule: e.Rule, Region: e.Region, Line: e.Line, LookedFor: e.LookedFor}
}

func newRecognizeCmd(f *Factory) *cobra.Command {
	var in schema.RecognizeInput
	cmd := &cobra.Command{
		Use:   "recognize [PANE] [--recognizer R] [--file SCREEN.txt --title T --command C]",
		Short: "Classify a pane (or a saved screen) now: busy, awaiting_input, awaiting_approval or unknown",
		Long: `Look once at a pane (its stable screen, title and foreground command) and
print the turn state with the evidence: the rule, the region it looked at and
the line that matched. --file classifies a saved screen (capture-pane -p
text: a regular file of at most 1 MiB) instead, with the title and
foreground command it had; its cursor is taken to be at the end of its last
non-empty row. Over call and MCP the saved screen is given as text in the
input's screen field (the server reads no files for a client).

Recognizers: auto (default) picks one from the foreground command, the title
and the screen; or name one: generic, shell, python, node, claude, codex,
gemini, qwen, antigravity (agy), cursor, opencode, copilot, grok, amp, droid,
kimi, pi. Manifests in $XDG_CONFIG_HOME/panectl/recognizers add or replace
recognizers. A state with needs_quiet true is to be trusted only once the
screen has been quiet: wait-for-turn does that.`,
		Example: `  panectl recognize %1
  panectl recognize --file screen.txt --recognizer claude --title '✳ Claude Code' --command claude`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				in.PaneID = args[0]
			}
			out, err := runRecognize(c.Context(), f, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) {
				fmt.Fprintln(w, out.State)
				fmt.Fprintf(f.IO.ErrOut, "recognizer %s", out.Recognizer)
				if out.Evidence.Rule != "" {
					fmt.Fprintf(f.IO.ErrOut, ", rule %s, region %s: %s", out.Evidence.Rule, out.Evidence.Region, out.Evidence.Line)
				}
				fmt.Fprintln(f.IO.ErrOut)
				if out.Note != "" {
					fmt.Fprintf(f.IO.ErrOut, "note: %s\n", out.Note)
				}
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&in.Recognizer, "recognizer", "auto", "recognizer id or alias, or auto")
	fl.StringVar(&in.File, "file", "", "classify a saved screen (capture-pane -p text) instead of a pane")
	fl.StringVar(&in.Title, "title", "", "with --file: the pane title it had")
	fl.StringVar(&in.Command, "command", "", "with --file: the foreground command it had")
	return cmd
}

func runRecognize(ctx context.Context, f *Factory, in schema.RecognizeInput) (schema.RecognizeOutput, error) {
	if in.Recognizer == "" {
		in.Recognizer = recognize.AutoID
	}
	if in.File != "" {
		if in.Screen != "" {
			return schema.RecognizeOutput{}, usageErrorf("give --file or a screen text, not both")
		}
		text, err := readScreenFile(in.File)
		if err != nil {
			return schema.RecognizeOutput{}, err
		}
		in.Screen = text
	}
	saved := in.File != "" || in.Screen != ""
	switch {
	case saved && in.PaneID != "":
		return schema.RecognizeOutput{}, usageErrorf("give a pane or a saved screen (--file, screen), not both")
	case !saved && in.PaneID == "":
		return schema.RecognizeOutput{}, usageErrorf("a pane (e.g. %%1) or a saved screen (--file SCREEN.txt; screen over call and MCP) is required")
	case !saved && (in.Title != "" || in.Command != ""):
		return schema.RecognizeOutput{}, usageErrorf("title and command describe a saved screen (--file, screen); a pane's own are used")
	case len(in.Screen) > schema.MaxScreenBytes:
		return schema.RecognizeOutput{}, usageErrorf("the screen text is %d bytes; a saved screen is at most %d (1 MiB)", len(in.Screen), schema.MaxScreenBytes)
	}
	set, err := recognizers()
	if err != nil {
		return schema.RecognizeOutput{}, err
	}
	var scr recognize.Screen
	out := schema.RecognizeOutput{}
	if saved {
		rows := strings.Split(strings.ReplaceAll(ansi.Strip(in.Screen), "\r\n", "\n"), "\n")
		for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
			rows = rows[:len(rows)-1]
		}
		scr = recognize.Screen{Rows: rows, Title: in.Title, Command: in.Command, CursorY: -1}
	} else {
		c, p, err := f.Pane(ctx, in.PaneID)
		if err != nil {
			return schema.RecognizeOutput{}, err
		}
		s, stable, err := pane.StableScreen(ctx, c, p.ID, false, pane.DefaultSettle)
		if err != nil {
			return schema.RecognizeOutput{}, err
		}
		scr = waiter.ScreenFor(s)
		out.PaneID = p.ID
		if !stable {
			out.Note = "the screen kept changing for 1 s; classified the last frame"
		}
	}
	r, err := set.Classify(in.Recognizer, scr)
	if err != nil {
		return schema.RecognizeOutput{}, recognizerErr(err)
	}
	out.State, out.Recognizer, out.Evidence, out.NeedsQuiet = string(r.State), r.Recognizer, evidence(r.Evidence), r.NeedsQuiet
	out.Note = joinNote(out.Note, r.Note)
	return out, nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// readScreenFile reads a saved screen for recognize --file: a regular file
// of at most schema.MaxScreenBytes. It is opened without blocking (a FIFO
// with no writer would block a plain open forever) and checked before
// anything is read; anything else is a usage error (exit 2) saying why.
func readScreenFile(path string) (string, error) {
	fh, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", usageErr(err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return "", usageErr(err)
	}
	if !st.Mode().IsRegular() {
		return "", usageErrorf("--file %s is %s, not a regular file: a saved screen is a capture-pane -p text file", path, fileKind(st.Mode()))
	}
	if st.Size() > schema.MaxScreenBytes {
		return "", usageErrorf("--file %s is %d bytes; a saved screen is at most %d (1 MiB)", path, st.Size(), schema.MaxScreenBytes)
	}
	data, err := io.ReadAll(io.LimitReader(fh, schema.MaxScreenBytes+1))
	if err != nil {
		return "", usageErr(err)
	}
	if len(data) > schema.MaxScreenBytes { // it grew while we read it
		return "", usageErrorf("--file %s is more than %d bytes (1 MiB), the most a saved screen may be", path, schema.MaxScreenBytes)
	}
	return string(data), nil
}

func newWaitForTurnCmd(f *Factory) *cobra.Command {
	var in schema.WaitForTurnInput
	cmd := &cobra.Command{
		Use:   "wait-for-turn PANE",
		Short: "Wait until an interactive program (agent, shell, REPL) ends its turn, or is busy",
		Long: `Wait until the interactive program in the pane finishes its turn: its
screen, title and foreground command say awaiting_input (once quiet for
--quiet-ms) or awaiting_approval (a dialog that stayed 0.4 s). By default
the wait also ends as soon as the program is confirmed busy (outcome busy);
--wait-through-busy waits through it. A screen nothing recognizable is on
ends as unknown once quiet. The recognizer is picked as by recognize
(default auto). A shell is awaiting_input only at its prompt.

Exit: 0 only when the turn ended in awaiting_input (so
"wait-for-turn P && send-text P ..." never types into a dialog or a busy
program); 3 awaiting_approval, busy or unknown; 124 timeout; 5 the pane
exited or its process was replaced (respawn-pane); 1 the server stopped
answering.

See: panectl help turn-state`,
		Example: `  panectl send-text %1 'fix the tests' --submit; panectl wait-for-turn %1 --wait-through-busy --timeout 600
  panectl wait-for-turn %1 && panectl send-text %1 'next task' --submit`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID = args[0]
			if err := explicitQuiet(c, in.QuietMS); err != nil {
				return err
			}
			if c.Flags().Changed("lines") && in.Lines == 0 {
				return usageErrorf("lines 0 is out of range: want 1..10000")
			}
			out, err := runWaitForTurn(c.Context(), f, in)
			if err != nil {
				return err
			}
			if perr := f.emit(out, func(w io.Writer) {
				fmt.Fprintln(w, out.State)
				fmt.Fprintf(f.IO.ErrOut, "%s after %.1fs (recognizer %s", out.Outcome, out.Seconds, out.Recognizer)
				if out.Evidence.Rule != "" {
					fmt.Fprintf(f.IO.ErrOut, ", rule %s: %s", out.Evidence.Rule, out.Evidence.Line)
				}
				fmt.Fprintln(f.IO.ErrOut, ")")
				if out.Outcome == waiter.OutcomeTimeout && len(out.Screen) > 0 {
					fmt.Fprintf(f.IO.ErrOut, "last rows:\n  %s\n", strings.Join(out.Screen[max(0, len(out.Screen)-5):], "\n  "))
				}
			}); perr != nil {
				return perr
			}
			return turnExit(out)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&in.Recognizer, "recognizer", "auto", "recognizer id or alias, or auto")
	fl.IntVar(&in.QuietMS, "quiet-ms", 0, "quiet window in milliseconds, 50..60000 (default 600)")
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", "seconds (1.5) or a duration (500ms, 2s, 1m); default 30, clamped to [0, 3600]")
	fl.IntVar(&in.Lines, "lines", 0, "rows of the screen to return, from the bottom, 1..10000 (default 40)")
	fl.BoolVar(&in.WaitThroughBusy, "wait-through-busy", false, "keep waiting while the program is busy")
	return cmd
}

func runWaitForTurn(ctx context.Context, f *Factory, in schema.WaitForTurnInput) (schema.WaitForTurnOutput, error) {
	ms, err := quietWindow(in.QuietMS)
	if err != nil {
		return schema.WaitForTurnOutput{}, err
	}
	lines := in.Lines
	switch {
	case lines == 0:
		lines = 40
	case lines < 1 || lines > 10000:
		return schema.WaitForTurnOutput{}, usageErrorf("lines %d is out of range: want 1..10000", lines)
	}
	if in.Recognizer == "" {
		in.Recognizer = recognize.AutoID
	}
	set, err := recognizers()
	if err != nil {
		return schema.WaitForTurnOutput{}, err
	}
	if _, err := set.Resolve(in.Recognizer, recognize.Screen{}); err != nil {
		return schema.WaitForTurnOutput{}, recognizerErr(err)
	}
	timeout := effectiveTimeout(in.Timeout)
	ctx, cancel := opContext(ctx, timeout, 0)
	defer cancel()
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.WaitForTurnOutput{}, err
	}
	r, err := waiter.WaitForTurn(ctx, c, waiter.TurnOptions{
		PaneID: p.ID, Set: set, Recognizer: in.Recognizer, Quiet: millis(ms), Timeout: seconds(timeout),
		WaitThroughBusy: in.WaitThroughBusy,
	})
	if err != nil {
		return schema.WaitForTurnOutput{}, recognizerErr(err)
	}
	if r.Result.State == "" { // the pane was gone before the first look
		r.Result.State, r.Result.Recognizer = recognize.Unknown, in.Recognizer
	}
	return schema.WaitForTurnOutput{
		PaneID: p.ID, State: string(r.Result.State), Outcome: r.Outcome, Recognizer: r.Result.Recognizer,
		Evidence: evidence(r.Result.Evidence), Screen: nonNil(r.Screen.Last(lines)),
		Seconds: round3(r.Elapsed.Seconds()), EffectiveTimeout: timeout, Note: r.Note,
	}, nil
}

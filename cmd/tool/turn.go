package tool

import (
	"context"
	"errors"
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
		return Usage(err)
	}
	return err
}

func evidence(e recognize.Evidence) schema.Evidence {
	return schema.Evidence{Rule: e.Rule, Region: e.Region, Line: e.Line, LookedFor: e.LookedFor}
}

func runRecognize(ctx context.Context, f *Env, in schema.RecognizeInput) (schema.RecognizeOutput, error) {
	if in.Recognizer == "" {
		in.Recognizer = recognize.AutoID
	}
	if in.File != "" {
		if in.Screen != "" {
			return schema.RecognizeOutput{}, Usagef("give --file or a screen text, not both")
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
		return schema.RecognizeOutput{}, Usagef("give a pane or a saved screen (--file, screen), not both")
	case !saved && in.PaneID == "":
		return schema.RecognizeOutput{}, Usagef("a pane (e.g. %%1) or a saved screen (--file SCREEN.txt; screen over call and MCP) is required")
	case !saved && (in.Title != "" || in.Command != ""):
		return schema.RecognizeOutput{}, Usagef("title and command describe a saved screen (--file, screen); a pane's own are used")
	case len(in.Screen) > schema.MaxText:
		return schema.RecognizeOutput{}, Usagef("the screen text is %d bytes; a saved screen is at most %d (1 MiB)", len(in.Screen), schema.MaxText)
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
	out.State, out.Recognizer, out.Evidence, out.NeedsQuiet = r.State, r.Recognizer, evidence(r.Evidence), r.NeedsQuiet
	out.Options = r.Options
	out.Note = schema.JoinNotes(out.Note, r.Note)
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
// of at most schema.MaxText. It is opened without blocking (a FIFO
// with no writer would block a plain open forever) and checked before
// anything is read; anything else is a usage error (exit 2) saying why.
func readScreenFile(path string) (string, error) {
	fh, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", Usage(err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return "", Usage(err)
	}
	if !st.Mode().IsRegular() {
		return "", Usagef("--file %s is %s, not a regular file: a saved screen is a capture-pane -p text file", path, fileKind(st.Mode()))
	}
	if st.Size() > schema.MaxText {
		return "", Usagef("--file %s is %d bytes; a saved screen is at most %d (1 MiB)", path, st.Size(), schema.MaxText)
	}
	data, err := io.ReadAll(io.LimitReader(fh, schema.MaxText+1))
	if err != nil {
		return "", Usage(err)
	}
	if len(data) > schema.MaxText { // it grew while we read it
		return "", Usagef("--file %s is more than %d bytes (1 MiB), the most a saved screen may be", path, schema.MaxText)
	}
	return string(data), nil
}

func runWaitForTurn(ctx context.Context, f *Env, in schema.WaitForTurnInput) (schema.WaitForTurnOutput, error) {
	if !in.Several() {
		if in.PaneID == "" {
			return schema.WaitForTurnOutput{}, noPane()
		}
		r, err := waitTurn(ctx, f, in)
		return schema.WaitForTurnOutput{WaitForTurnResult: r}, err
	}
	if len(in.States) == 0 {
		in.WaitThroughBusy = true // over several panes, busy is not news
	}
	plan, err := planTurn(in) // checked once, before any pane is looked up
	if err != nil {
		return schema.WaitForTurnOutput{}, err
	}
	ids, err := f.severalPanes(ctx, in.PaneID, in.Panes)
	if err != nil {
		return schema.WaitForTurnOutput{}, err
	}
	top, results, err := several(ctx, f, ids, in.All, EffectiveTimeout(in.Timeout), "the turn",
		func(ctx context.Context, id string) (schema.WaitForTurnResult, error) {
			return plan.wait(ctx, f, id)
		}, turnExit)
	return schema.WaitForTurnOutput{WaitForTurnResult: top, Results: results}, err
}

// states checks the states a wait for turn ends in.
func states(list schema.StringList) ([]recognize.State, error) {
	var out []recognize.State
	for _, s := range list {
		st := recognize.State(s)
		switch st {
		case recognize.Busy, recognize.AwaitingInput, recognize.AwaitingApproval, recognize.Unknown:
			out = append(out, st)
		default:
			return nil, Usagef("unknown state %q (--state): want busy, awaiting_input, awaiting_approval or unknown", s)
		}
	}
	return out, nil
}

// turnPlan is a checked wait_for_turn input: the options of one pane's
// wait but the pane, the rows to return and the timeout. Its waits share
// the recognizers: classifying only reads them.
type turnPlan struct {
	opt     waiter.TurnOptions
	lines   int
	timeout float64
}

// planTurn checks in and loads the recognizers.
func planTurn(in schema.WaitForTurnInput) (turnPlan, error) {
	ms, err := quietWindow(in.QuietMS)
	if err != nil {
		return turnPlan{}, err
	}
	want, err := states(in.States)
	if err != nil {
		return turnPlan{}, err
	}
	lines := in.Lines
	switch {
	case lines == 0:
		lines = schema.DefaultTurnLines
	case lines < 1 || lines > schema.MaxLines:
		return turnPlan{}, Usagef("lines (--lines) %d is out of range: want 1..%d", lines, schema.MaxLines)
	}
	if in.Recognizer == "" {
		in.Recognizer = recognize.AutoID
	}
	set, err := recognizers()
	if err != nil {
		return turnPlan{}, err
	}
	if _, err := set.Resolve(in.Recognizer, recognize.Screen{}); err != nil {
		return turnPlan{}, recognizerErr(err)
	}
	timeout := EffectiveTimeout(in.Timeout)
	return turnPlan{lines: lines, timeout: timeout, opt: waiter.TurnOptions{
		Set: set, Recognizer: in.Recognizer, Quiet: millis(ms), Timeout: Seconds(timeout),
		WaitThroughBusy: in.WaitThroughBusy, States: want,
	}}, nil
}

// waitTurn waits for the turn of one pane.
func waitTurn(ctx context.Context, f *Env, in schema.WaitForTurnInput) (schema.WaitForTurnResult, error) {
	plan, err := planTurn(in)
	if err != nil {
		return schema.WaitForTurnResult{}, err
	}
	return plan.wait(ctx, f, in.PaneID)
}

// wait waits for the turn of the pane target names.
func (plan turnPlan) wait(ctx context.Context, f *Env, target string) (schema.WaitForTurnResult, error) {
	ctx, cancel := OpContext(ctx, plan.timeout, 0)
	defer cancel()
	c, p, err := f.Pane(ctx, target)
	if err != nil {
		return schema.WaitForTurnResult{}, err
	}
	plan.opt.PaneID = p.ID
	r, err := waiter.WaitForTurn(ctx, c, plan.opt)
	if err != nil {
		return schema.WaitForTurnResult{}, recognizerErr(err)
	}
	if r.Result.State == "" { // the pane was gone before the first look
		r.Result.State, r.Result.Recognizer = recognize.Unknown, plan.opt.Recognizer
	}
	return schema.WaitForTurnResult{
		PaneID: p.ID, State: r.Result.State, Outcome: r.Outcome, Recognizer: r.Result.Recognizer,
		Evidence: evidence(r.Result.Evidence), Screen: nonNil(r.Screen.Last(plan.lines)),
		Seconds: Round3(r.Elapsed.Seconds()), EffectiveTimeout: plan.timeout, Note: r.Note,
	}, nil
}

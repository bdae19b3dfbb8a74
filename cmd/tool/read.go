package tool

import (
	"context"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/journal"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter"
)

func runCapture(ctx context.Context, f *Env, in schema.CaptureInput) (schema.CaptureOutput, error) {
	n, err := maxLines(in.MaxLines)
	if err != nil {
		return schema.CaptureOutput{}, err
	}
	cur := pane.Cursor{Special: pane.CursorScreen}
	if in.Cursor != "" {
		if cur, err = pane.ParseCursor(in.Cursor); err != nil {
			return schema.CaptureOutput{}, err
		}
	}
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.CaptureOutput{}, err
	}
	if cur, err = pane.Load(ctx, c, p.ID, cur); err != nil {
		return schema.CaptureOutput{}, err
	}
	r, err := journal.ReadPane(ctx, c, p, cur, pane.ReadOptions{MaxLines: n, ANSI: in.ANSI})
	if err != nil {
		return schema.CaptureOutput{}, err
	}
	return schema.CaptureOutput{
		PaneID: p.ID, Output: nonNil(r.Lines), Cursor: cursorToken(ctx, f, c, p.ID, r.Cursor), LinesDropped: r.LinesDropped,
		Truncated: r.Truncated, Reset: r.Reset, Note: r.Note,
	}, nil
}

// nonNil is s, or an empty slice for nil: JSON [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func runWaitForText(ctx context.Context, f *Env, in schema.WaitForTextInput) (schema.WaitForTextOutput, error) {
	if !in.Several() {
		if in.PaneID == "" {
			return schema.WaitForTextOutput{}, noPane()
		}
		r, err := waitText(ctx, f, in)
		return schema.WaitForTextOutput{WaitForTextResult: r}, err
	}
	opt, err := textOptions(in) // checked once, before any pane is looked up
	if err != nil {
		return schema.WaitForTextOutput{}, err
	}
	if opt.HasStart && opt.Cursor.Special == "" {
		return schema.WaitForTextOutput{}, Usagef("over several panes, cursor (--cursor) is %q or %q: a pane's cursor belongs to that pane alone (wait on it by itself)", pane.CursorScreen, pane.CursorHistory)
	}
	ids, err := f.severalPanes(ctx, in.PaneID, in.Panes)
	if err != nil {
		return schema.WaitForTextOutput{}, err
	}
	top, results, err := several(ctx, f, ids, in.All, EffectiveTimeout(in.Timeout), "text",
		func(ctx context.Context, id string) (schema.WaitForTextResult, error) {
			one := in
			one.PaneID, one.Panes = id, schema.Panes{}
			return waitText(ctx, f, one)
		}, func(r schema.WaitForTextResult) error { return OutcomeExit(r.Outcome) })
	return schema.WaitForTextOutput{WaitForTextResult: top, Results: results}, err
}

// textOptions checks in and compiles its patterns: the options of one
// pane's wait but the pane. Matchers count their timeouts, so each wait
// needs its own.
func textOptions(in schema.WaitForTextInput) (waiter.TextOptions, error) {
	if len(in.Patterns) == 0 {
		return waiter.TextOptions{}, Usagef("at least one --pattern is required")
	}
	n, err := maxLines(in.MaxLines)
	if err != nil {
		return waiter.TextOptions{}, err
	}
	match, err := waiter.NewMatcher("pattern", in.Patterns, in.Regex, in.IgnoreCase)
	if err != nil {
		return waiter.TextOptions{}, err
	}
	stop, err := waiter.NewMatcher("stop pattern", in.Stop, in.Regex, in.IgnoreCase)
	if err != nil {
		return waiter.TextOptions{}, err
	}
	opt := waiter.TextOptions{Match: match, Stop: stop, Timeout: Seconds(EffectiveTimeout(in.Timeout)), MaxLines: n}
	if in.Cursor != "" {
		if opt.Cursor, err = pane.ParseCursor(in.Cursor); err != nil {
			return waiter.TextOptions{}, err
		}
		opt.HasStart = true
	}
	return opt, nil
}

// waitText waits for text in one pane.
func waitText(ctx context.Context, f *Env, in schema.WaitForTextInput) (schema.WaitForTextResult, error) {
	opt, err := textOptions(in)
	if err != nil {
		return schema.WaitForTextResult{}, err
	}
	timeout := EffectiveTimeout(in.Timeout)
	ctx, cancel := OpContext(ctx, timeout, 0)
	defer cancel()
	c, p, err := f.PaneOrID(ctx, in.PaneID)
	if err != nil {
		return schema.WaitForTextResult{}, err
	}
	opt.PaneID, opt.Pane = p.ID, p
	if opt.Cursor, err = pane.Load(ctx, c, p.ID, opt.Cursor); err != nil {
		return schema.WaitForTextResult{}, err
	}
	r, err := waiter.WaitForText(ctx, c, opt)
	if err != nil {
		return schema.WaitForTextResult{}, err
	}
	return schema.WaitForTextResult{
		PaneID: p.ID, Outcome: r.Outcome, Output: nonNil(r.Output), Truncated: r.Truncated,
		LinesDropped: r.LinesDropped, Cursor: cursorToken(ctx, f, c, p.ID, r.Cursor), Seconds: Round3(r.Elapsed.Seconds()),
		EffectiveTimeout: timeout, Matched: r.Matched, MatchedLine: r.MatchedLine, Note: r.Note,
	}, nil
}

// saveTimeout bounds saving a cursor's record after the call's own
// deadline (a wait that timed out still prints its cursor).
const saveTimeout = 2 * time.Second

// cursorToken is the cursor to print: at most schema.MaxCursor characters,
// its record saved on the pane (pane.Save); "" when f prints none.
func cursorToken(ctx context.Context, f *Env, c *tmux.Client, id string, cur pane.Cursor) string {
	if f.NoCursor {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), saveTimeout)
	defer cancel()
	return pane.Save(ctx, c, id, cur)
}

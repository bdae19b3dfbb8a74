package tool

import (
	"context"
	"fmt"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/acp"
	"github.com/panectl/panectl/pane/screendiff"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/waiter"
)

func runScreen(ctx context.Context, f *Env, in schema.ScreenInput) (schema.ScreenOutput, error) {
	if in.Lines < 0 || in.Lines > schema.MaxLines {
		return schema.ScreenOutput{}, Usagef("lines (--lines) %d is out of range: want 1..%d (the last N rows), or 0 for all rows (the default)", in.Lines, schema.MaxLines)
	}
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.ScreenOutput{}, err
	}
	s, stable, err := pane.StableScreen(ctx, c, p.ID, in.ANSI, pane.DefaultSettle)
	if err != nil {
		return schema.ScreenOutput{}, err
	}
	prev, ok, err := screendiff.Load(ctx, c, p.ID)
	if err != nil {
		return schema.ScreenOutput{}, err
	}
	if err := screendiff.Save(ctx, c, p.ID, s); err != nil {
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
		out.Note = "the screen kept changing for 1 s; this Frame may be in the middle of a redraw"
	}
	if !in.Diff {
		out.Rows = nonNil(rows[first:])
		return out, nil
	}
	d := screendiff.Compare(prev, ok, s)
	switch {
	case d.Full:
		out.Full = true
		out.Rows = nonNil(rows[first:])
		out.Note = schema.JoinNotes(out.Note, "full frame: "+d.Why)
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

func runStatus(ctx context.Context, f *Env, in schema.StatusInput) (schema.StatusOutput, error) {
	if in.ScrollbackLines < 0 || in.ScrollbackLines > schema.MaxLines {
		return schema.StatusOutput{}, Usagef("scrollback_lines (--scrollback-lines) %d is out of range: want 0..%d", in.ScrollbackLines, schema.MaxLines)
	}
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.StatusOutput{}, err
	}
	n, _ := maxLines(0)
	r, err := Status(ctx, c, p.ID, StatusOptions{Verbose: in.Verbose, Scrollback: in.ScrollbackLines, MaxLines: n})
	if err != nil {
		return schema.StatusOutput{}, err
	}
	out := schema.StatusOutput{
		PaneID: p.ID, Output: nonNil(r.Lines), Changed: r.Changed, RunningCommand: r.Command,
		Dead: r.Pane.Dead, Cursor: cursorToken(ctx, f, c, p.ID, r.Cursor), LinesDropped: r.LinesDropped, Truncated: r.Truncated,
		Note: r.Note,
	}
	switch {
	case r.First && r.Task != nil:
		out.Note = schema.JoinNotes(out.Note, "first status of this task: output is its journal from the start")
	case r.First:
		out.Note = schema.JoinNotes(out.Note, "first status of this pane: output is the visible screen")
	}
	if r.Reset {
		out.Note = schema.JoinNotes(out.Note, "history was cleared since the previous status")
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
		out.Note = schema.JoinNotes(out.Note, note)
	case t != nil:
		// still running (its supervisor may be ending): no exit status yet
	case r.Pane.Dead && !r.Pane.DeadKnown:
		out.Note = schema.JoinNotes(out.Note, "the process exited but tmux has not reported its exit status yet")
	case r.Pane.Dead:
		st := r.Pane.DeadStatus
		out.ExitStatus = &st
		if r.Pane.DeadSignal != 0 {
			out.Note = schema.JoinNotes(out.Note, fmt.Sprintf("the process was killed by signal %d", r.Pane.DeadSignal))
		}
	}
	return out, nil
}

// quietWindow validates quiet_ms (schema.Bound("quiet_ms"); 0: the default).
func quietWindow(ms int) (int, error) {
	switch {
	case ms == 0:
		return int(waiter.DefaultQuiet.Milliseconds()), nil
	case ms < int(waiter.MinQuiet.Milliseconds()) || ms > int(waiter.MaxQuiet.Milliseconds()):
		return 0, Usagef("quiet_ms (--quiet-ms) %d is out of range: want %s", ms, schema.Bound("quiet_ms"))
	}
	return ms, nil
}

func runWaitQuiet(ctx context.Context, f *Env, in schema.WaitForQuietInput) (schema.WaitForQuietOutput, error) {
	if !in.Several() {
		if in.PaneID == "" {
			return schema.WaitForQuietOutput{}, noPane()
		}
		r, err := waitQuiet(ctx, f, in)
		return schema.WaitForQuietOutput{WaitForQuietResult: r}, err
	}
	if _, err := quietWindow(in.QuietMS); err != nil { // checked once, before any pane is looked up
		return schema.WaitForQuietOutput{}, err
	}
	ids, err := f.severalPanes(ctx, in.PaneID, in.Panes)
	if err != nil {
		return schema.WaitForQuietOutput{}, err
	}
	top, results, err := several(ctx, f, ids, in.All, EffectiveTimeout(in.Timeout), "quiet",
		func(ctx context.Context, id string) (schema.WaitForQuietResult, error) {
			one := in
			one.PaneID, one.Panes = id, schema.Panes{}
			return waitQuiet(ctx, f, one)
		}, func(r schema.WaitForQuietResult) error { return OutcomeExit(r.Outcome) })
	return schema.WaitForQuietOutput{WaitForQuietResult: top, Results: results}, err
}

// waitQuiet waits for one pane's screen to rest.
func waitQuiet(ctx context.Context, f *Env, in schema.WaitForQuietInput) (schema.WaitForQuietResult, error) {
	ms, err := quietWindow(in.QuietMS)
	if err != nil {
		return schema.WaitForQuietResult{}, err
	}
	timeout := EffectiveTimeout(in.Timeout)
	ctx, cancel := OpContext(ctx, timeout, 0)
	defer cancel()
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.WaitForQuietResult{}, err
	}
	r, err := waiter.WaitQuiet(ctx, c, waiter.QuietOptions{PaneID: p.ID, Quiet: millis(ms), Timeout: Seconds(timeout)})
	if err != nil {
		return schema.WaitForQuietResult{}, err
	}
	return schema.WaitForQuietResult{
		PaneID: p.ID, Outcome: r.Outcome, Screen: nonNil(r.Screen.Rows), Seconds: Round3(r.Elapsed.Seconds()),
		EffectiveTimeout: timeout, QuietMS: ms, Note: r.Note,
	}, nil
}

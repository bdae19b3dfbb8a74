package waiter

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/lock"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// AnswerOptions asks to pick an option of the dialog a pane shows.
type AnswerOptions struct {
	PaneID     string
	Set        *recognize.Set
	Recognizer string // "auto", an id or an alias
	Choice     string // yes, no, always or an option's key (recognize.Choose)
	Quiet      time.Duration
	Deadline   time.Time
}

// AnswerResult is how an answer went.
type AnswerResult struct {
	Outcome schema.Outcome // answered, dialog_stayed, timeout or exited
	Option  recognize.Option
	Options []recognize.Option // the dialog's, before the answer
	Turn    TurnResult         // the state after the answer
	Note    string
}

// NoDialogError: the pane shows no dialog whose options can be read, so
// nothing was pressed. It unwraps to ErrRefused (exit 3).
type NoDialogError struct {
	PaneID string
	Result recognize.Result
	Reason string
}

// Error says what the pane shows instead.
func (e *NoDialogError) Error() string {
	return fmt.Sprintf("pane %s: %s (%s); nothing was pressed", e.PaneID, e.Reason, describe(e.Result))
}

// Unwrap is ErrRefused.
func (e *NoDialogError) Unwrap() error { return ErrRefused }

const (
	// moveMax bounds the wait for the highlight to reach the chosen option.
	moveMax = 2 * time.Second
	// stayMax is how long after Enter the same dialog may still show. Gemini CLI's trust
	// dialog stayed about 2 s after Enter in live tests.
	stayMax = 5 * time.Second
)

// Answer picks an option of the dialog in a pane by its text. It holds the pane's action lock
// (pane/lock) throughout. The dialog must stay for ApprovalSettle first. Up or Down move the
// highlight until the screen shows it on the option; then Enter confirms it. Every agent's list
// takes these keys. A digit confirms at once in some and only moves in others. An option that
// names Esc as its key ("(esc)") is picked with Esc alone (recognize.NamesEsc). The wait for the
// turn (WaitForTurn) then gives the new state. The outcome is dialog_stayed when the same dialog
// is still shown stayMax after the key.
func Answer(ctx context.Context, c *tmux.Client, opt AnswerOptions) (_ AnswerResult, err error) {
	defer func() { err = goneDuring(opt.PaneID, "answer", err) }()
	var res AnswerResult
	l, err := lock.Acquire(ctx, c, opt.PaneID, "answer", opt.Deadline)
	if err != nil {
		return res, err
	}
	defer l.Release(ctx)
	r, scr, shown, err := dialogShown(ctx, c, opt.PaneID, opt.Set, opt.Recognizer, true)
	if err != nil {
		return res, err
	}
	if !shown {
		return res, &NoDialogError{PaneID: opt.PaneID, Result: r, Reason: "it shows no dialog"}
	}
	d := recognize.ReadDialog(ScreenFor(scr))
	res.Options = d.Options
	if len(d.Options) == 0 {
		return res, &NoDialogError{PaneID: opt.PaneID, Result: r, Reason: "its dialog shows no options panectl can read"}
	}
	if res.Option, err = recognize.Choose(d.Options, opt.Choice); err != nil {
		return res, fmt.Errorf("%w: pane %s: %v; nothing was pressed", ErrRefused, opt.PaneID, err)
	}
	key := "Enter"
	if recognize.NamesEsc(res.Option) {
		key = "Escape" // the option's own key: Copilot ignores Enter on it
	} else if d, scr, err = highlight(ctx, c, opt.PaneID, d, scr, res.Option); err != nil {
		return res, err
	}
	if err := pane.MarkKey(ctx, c, opt.PaneID, scr); err != nil {
		return res, err
	}
	if err := sendKeys(ctx, c, opt.PaneID, pane.Ledger{}, []string{key}); err != nil {
		return res, err
	}
	return settleAnswer(ctx, c, opt, d, res, time.Now())
}

// highlight moves the dialog's highlight to option o and waits until the screen shows it there.
// It returns the dialog and screen as they are then.
func highlight(ctx context.Context, c *tmux.Client, id string, d recognize.Dialog, scr pane.Screen, o recognize.Option) (recognize.Dialog, pane.Screen, error) {
	from, to := d.Selected(), slices.Index(d.Options, o)
	if from < 0 {
		return d, scr, fmt.Errorf("%w: pane %s: the dialog marks no option as highlighted on screen (opencode shows it by colour alone), so panectl cannot move to %s. %s without pressing a blind key; nothing was pressed", ErrRefused, id, o.Key, o.Text)
	}
	if from == to {
		return d, scr, nil
	}
	key := "Down"
	if to < from {
		key = "Up"
	}
	if err := pane.MarkKey(ctx, c, id, scr); err != nil {
		return d, scr, err
	}
	if err := c.SendKeys(ctx, id, slices.Repeat([]string{key}, max(to-from, from-to))...); err != nil {
		return d, scr, err
	}
	by := time.Now().Add(moveMax)
	for {
		scr, err := pane.CaptureScreen(ctx, c, id, false)
		if err != nil {
			return d, scr, err
		}
		now := recognize.ReadDialog(ScreenFor(scr))
		if sel := now.Selected(); sel >= 0 && now.Options[sel].Key == o.Key && now.Options[sel].Text == o.Text {
			return now, scr, nil
		}
		if time.Now().After(by) {
			return now, scr, fmt.Errorf("%w: pane %s: %s moved the highlight, but it did not reach %s. %s within %s (the options now: %s); Enter was not pressed", ErrRefused, id, key, o.Key, o.Text, moveMax, schema.ListOptions(now.Options))
		}
		if !sleepCtx(ctx, lookEvery) {
			return d, scr, ctx.Err()
		}
	}
}

// settleAnswer waits for the state after Enter (or Esc) was pressed on dialog d at enter. The same dialog
// still shown counts as dialog_stayed only from stayMax after Enter: an agent may keep it a while.
func settleAnswer(ctx context.Context, c *tmux.Client, opt AnswerOptions, d recognize.Dialog, res AnswerResult, enter time.Time) (AnswerResult, error) {
	for {
		turn, err := WaitForTurn(ctx, c, TurnOptions{
			PaneID: opt.PaneID, Set: opt.Set, Recognizer: opt.Recognizer, Quiet: opt.Quiet,
			Timeout: max(time.Until(opt.Deadline), 0),
		})
		if err != nil {
			return res, err
		}
		res.Turn = turn
		switch {
		case turn.Outcome == schema.OutcomeTimeout || turn.Outcome == schema.OutcomeExited:
			res.Outcome = turn.Outcome
			return res, nil
		case turn.Result.State != recognize.AwaitingApproval || !sameDialog(d, turn.Screen):
			res.Outcome = schema.OutcomeAnswered
			return res, nil
		case time.Since(enter) >= stayMax:
			res.Outcome = schema.OutcomeDialogStayed
			res.Note = fmt.Sprintf("the dialog was still shown %.1fs after Enter", time.Since(enter).Seconds())
			return res, nil
		}
	}
}

// sameDialog reports whether scr shows dialog d: the same options and the rows above them.
func sameDialog(d recognize.Dialog, scr pane.Screen) bool {
	now := recognize.ReadDialog(ScreenFor(scr))
	return strings.Join(now.Rows, "\n") == strings.Join(d.Rows, "\n")
}

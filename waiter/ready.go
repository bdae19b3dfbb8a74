package waiter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// ErrInvalid: the input cannot be carried out as given (exit 2), as a line too long for a canonical
// terminal, or a syntax error.
var ErrInvalid = errors.New("invalid input")

// Readiness is how --when-ready tells that a pane awaits input. Its recognizer (SPEC.md section 7)
// says awaiting_input on a screen quiet for Quiet.
type Readiness struct {
	Set        *recognize.Set
	Recognizer string // "auto", an id or an alias
	Quiet      time.Duration
}

// ReadyQuiet is the quiet window --when-ready asks of awaiting_input. A program between bursts is
// not taken for one at rest, and an idle prompt is typed into at once.
const ReadyQuiet = 300 * time.Millisecond

// NotReadyError: --when-ready found the pane not awaiting input. For awaiting_approval or unknown
// it unwraps to ErrRefused (exit 3). For a pane still busy or not quiet at the deadline, it unwraps
// to context.DeadlineExceeded (exit 124).
type NotReadyError struct {
	PaneID   string
	Result   recognize.Result
	TimedOut bool
	Waited   time.Duration
}

// Error names the state and its evidence.
func (e *NotReadyError) Error() string {
	var b strings.Builder
	if e.TimedOut {
		fmt.Fprintf(&b, "pane %s was not ready for input within %.1fs (state %s", e.PaneID, e.Waited.Seconds(), e.Result.State)
	} else {
		fmt.Fprintf(&b, "pane %s is not ready for input: state %s", e.PaneID, e.Result.State)
	}
	if e.Result.Recognizer != "" {
		fmt.Fprintf(&b, ", recognizer %s", e.Result.Recognizer)
	}
	if ev := e.Result.Evidence; ev.Rule != "" {
		fmt.Fprintf(&b, ", rule %s in %s: %q", ev.Rule, ev.Region, ev.Line)
	}
	if e.TimedOut {
		b.WriteString(")")
	}
	b.WriteString("; nothing was typed")
	return b.String()
}

// Unwrap is ErrRefused, or context.DeadlineExceeded on a timeout.
func (e *NotReadyError) Unwrap() error {
	if e.TimedOut {
		return context.DeadlineExceeded
	}
	return ErrRefused
}

// WhenReady waits until deadline for the pane to await input: wait-for-turn through busy, ending in
// awaiting_input. Any other end is a *NotReadyError, at once for awaiting_approval or unknown.
// Still busy or not quiet at the deadline is TimedOut. A pane that exited gives wrapped
// tmux.ErrPaneExited. It returns the classification that allowed typing.
func WhenReady(ctx context.Context, c *tmux.Client, id string, r Readiness, deadline time.Time) (recognize.Result, error) {
	quiet := r.Quiet
	if quiet == 0 {
		quiet = ReadyQuiet
	}
	t, err := WaitForTurn(ctx, c, TurnOptions{
		PaneID: id, Set: r.Set, Recognizer: r.Recognizer, Quiet: quiet,
		Timeout: max(time.Until(deadline), 0), WaitThroughBusy: true,
	})
	if err != nil {
		return recognize.Result{}, err
	}
	switch {
	case t.Outcome == schema.OutcomeExited:
		err := fmt.Errorf("%w: pane %s exited while waiting for it to be ready for input", tmux.ErrPaneExited, id)
		if t.Note != "" {
			err = fmt.Errorf("%w (%s)", err, t.Note)
		}
		return t.Result, err
	case t.Outcome == schema.OutcomeTimeout:
		if t.Result.State == "" {
			t.Result.State = recognize.Unknown
		}
		return t.Result, &NotReadyError{PaneID: id, Result: t.Result, TimedOut: true, Waited: t.Elapsed}
	case t.Result.State == recognize.AwaitingInput:
		return t.Result, nil
	}
	return t.Result, &NotReadyError{PaneID: id, Result: t.Result, Waited: t.Elapsed}
}

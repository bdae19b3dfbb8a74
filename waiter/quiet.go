package waiter

import (
	"context"
	"fmt"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// Quiet window limits (SPEC.md section 3: quiet_ms 50..60000).
const (
	MinQuiet     = 50 * time.Millisecond
	MaxQuiet     = 60 * time.Second
	DefaultQuiet = 600 * time.Millisecond
)

// QuietOptions is a wait-quiet request.
type QuietOptions struct {
	PaneID  string
	Quiet   time.Duration // the screen must stay unchanged this long
	Timeout time.Duration
}

// QuietResult is how a wait-quiet ended.
type QuietResult struct {
	Outcome schema.Outcome // schema.OutcomeQuiet, schema.OutcomeTimeout or schema.OutcomeExited
	Screen  pane.Screen    // the last screen seen
	Elapsed time.Duration
	Note    string
}

// quietClock tracks when the screen last really changed, for WaitQuiet and WaitForTurn. Each change
// event leads to a capture. Only new content restarts the window (pane.Screen.Same: rows, size,
// alternate screen, not the cursor). A redraw of the same content or a cursor blink does not.
type quietClock struct {
	quiet      time.Duration
	last       pane.Screen
	lastChange time.Time
	looked     bool
	followUp   time.Duration // next extra look after a change (see next)
}

// Follow-up looks. A change's time is only known to lie between two captures, and the window counts
// from the capture that saw it. So after a change the clock looks again in 25 ms, doubling up to
// 200 ms. The window then starts within tens of milliseconds of the last output, at any event pace.
const (
	firstFollowUp = 25 * time.Millisecond
	maxFollowUp   = 200 * time.Millisecond
)

// observe records one capture taken at now and reports whether it changed.
func (q *quietClock) observe(s pane.Screen, now time.Time) bool {
	if !q.looked {
		q.last, q.lastChange, q.looked = s, now, true
		q.followUp = firstFollowUp
		return true
	}
	if s.Same(q.last) {
		q.last.Info = s.Info // keep the newest cursor and title
		return false
	}
	q.last, q.lastChange = s, now
	q.followUp = firstFollowUp
	return true
}

// next is how long to wait for a look without a change event: the rest of the window, or less for a
// follow-up. Each call consumes one.
func (q *quietClock) next(now time.Time) time.Duration {
	wait := q.remaining(now)
	if q.followUp > 0 && q.followUp < wait {
		wait = q.followUp
		q.followUp *= 2
		if q.followUp > maxFollowUp {
			q.followUp = 0 // back to the change events alone
		}
	}
	return wait
}

// remaining is how long the screen must still stay unchanged (<= 0: quiet).
func (q *quietClock) remaining(now time.Time) time.Duration {
	return q.quiet - now.Sub(q.lastChange)
}

// WaitQuiet waits until the pane's screen has not changed for opt.Quiet, or the timeout passes. The
// process exiting or replaced by respawn-pane ends it as schema.OutcomeExited. A change event
// (Watch) restarts the timer once a capture confirms it, and a last capture confirms the end.
func WaitQuiet(ctx context.Context, c *tmux.Client, opt QuietOptions) (QuietResult, error) {
	start := time.Now()
	defer Waiting(ctx, opt.PaneID, opt.Timeout, fmt.Sprintf("%s of quiet", opt.Quiet))()
	src, err := Watch(ctx, c, opt.PaneID)
	if gone(err) {
		return QuietResult{Outcome: schema.OutcomeExited, Note: goneNote(err), Elapsed: time.Since(start)}, nil
	}
	if err != nil {
		return QuietResult{}, err
	}
	defer src.Close()
	clock := &quietClock{quiet: opt.Quiet}
	deadline := start.Add(opt.Timeout)
	res := QuietResult{}
	look := func() (done bool, err error) {
		s, err := captureScreen(ctx, c, src, opt.PaneID)
		if err != nil {
			if gone(err) {
				res.Outcome = schema.OutcomeExited
				res.Note = goneNote(err)
				return true, nil
			}
			return false, err
		}
		if note, ok := replaced(src.Process(), s.Info); ok {
			// the new process's screen is not the one waited on
			res.Outcome, res.Note = schema.OutcomeExited, note
			return true, nil
		}
		clock.observe(s, time.Now())
		res.Screen = clock.last
		if s.Info.Dead {
			res.Outcome = schema.OutcomeExited
			res.Note = fmt.Sprintf("the pane's process exited with status %d", s.Info.DeadStatus)
			return true, nil
		}
		return false, nil
	}
	finish := func() QuietResult {
		res.Elapsed = time.Since(start)
		res.Note = schema.JoinNotes(res.Note, src.Note())
		return res
	}
	if done, err := look(); done || err != nil {
		return finish(), err
	}
	p := newPacer(src, deadline)
	for {
		now := time.Now()
		wait := clock.next(now)
		if wait <= 0 {
			// the window ran out: confirm with a fresh capture
			if done, err := look(); done || err != nil {
				return finish(), err
			}
			if clock.remaining(time.Now()) <= 0 {
				res.Outcome = schema.OutcomeQuiet
				return finish(), nil
			}
			wait = clock.next(time.Now())
		}
		if p.due(now) {
			res.Outcome = schema.OutcomeTimeout
			return finish(), nil
		}
		changed, err := p.pause(ctx, wait)
		if err != nil {
			return finish(), err
		}
		// A change or a follow-up look. Once the window ran out, the loop's top confirms it.
		if changed || clock.remaining(time.Now()) > 0 {
			if done, err := look(); done || err != nil {
				return finish(), err
			}
		}
	}
}

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

// quietClock tracks when the screen last really changed. Every change event from a Source leads to
// a capture; only a capture whose content differs (pane.Screen.Same: rows, size, alternate screen;
// not the cursor) restarts the quiet window, so a redraw of identical content or a cursor blink
// does not count. It is the pure part of WaitQuiet and of WaitForTurn.
type quietClock struct {
	quiet      time.Duration
	last       pane.Screen
	lastChange time.Time
	looked     bool
	followUp   time.Duration // next extra look after a change (see next)
}

// Follow-up looks after a change: the time of a change is known only to lie between two captures,
// and the quiet window counts from the capture that saw it, so right after a change the clock looks
// again soon (25 ms, doubling to 200 ms while nothing changes). That keeps the window's start
// within a few tens of milliseconds of the last real output, whatever the pace of the change
// events.
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

// next is how long to wait before looking again without a change event: the rest of the quiet
// window, or sooner for a follow-up look after a change. Each call consumes one follow-up.
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

// WaitQuiet waits until the pane's screen has not changed for opt.Quiet, the pane's process exits
// (or is replaced by respawn-pane: schema.OutcomeExited with a note, replaced.go), or the timeout
// passes. Change events (Watch) restart the quiet timer once a capture confirms the screen really
// changed; when the timer runs out a last capture confirms the screen is still the same.
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
			// (the new process's screen is not the one waited on)
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
		res.Note = joinNotes(res.Note, src.Note())
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
		// a change, or a follow-up look; once the window has run out, the loop's top confirms it
		if changed || clock.remaining(time.Now()) > 0 {
			if done, err := look(); done || err != nil {
				return finish(), err
			}
		}
	}
}

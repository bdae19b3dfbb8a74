package waiter

import (
	"context"
	"time"
)

// pacer paces a wait's looks; the text, quiet, turn and run waits sleep through it. It sleeps until
// a change event, the pause asked for, the deadline, or ctx's end. One timer serves every pause.
type pacer struct {
	src      Source
	deadline time.Time
	timer    *time.Timer
	// changed is when the last change event came, or the wait set it: the start of the quiet.
	changed time.Time
}

// newPacer returns a pacer for a wait on src that ends at deadline.
func newPacer(src Source, deadline time.Time) *pacer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &pacer{src: src, deadline: deadline, timer: t}
}

// due reports whether the deadline has come at now.
func (p *pacer) due(now time.Time) bool { return !now.Before(p.deadline) }

// quietFor is how long no change event has come, at now.
func (p *pacer) quietFor(now time.Time) time.Duration { return now.Sub(p.changed) }

// pause sleeps for d at most, never past the deadline. It returns true when a change event ended
// it, and ctx's error when ctx ended.
func (p *pacer) pause(ctx context.Context, d time.Duration) (bool, error) {
	p.timer.Reset(min(d, time.Until(p.deadline)))
	defer p.timer.Stop()
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-p.timer.C:
		return false, nil
	case <-p.src.Changed():
		p.changed = time.Now()
		return true, nil
	}
}

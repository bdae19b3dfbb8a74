package waiter

import (
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/recognize"
)

// Settle decides look by look when a pane's state is settled, for a supervisor that follows panes
// without end. A state settles where wait-for-turn would end on it (turnJudge), with busy counted
// as an end. The quiet window counts as in wait-for-turn (quietClock). Keys sent to the pane are
// not consulted: a supervisor only reports.
type Settle struct {
	clock quietClock
	judge turnJudge
}

// NewSettle returns a Settle with quiet as its quiet window.
func NewSettle(quiet time.Duration) *Settle {
	return &Settle{clock: quietClock{quiet: quiet}, judge: turnJudge{quiet: quiet}}
}

// Look takes one capture s, its classification r and the time it was taken. It reports whether
// r.State is settled, since when that state has been seen without a break, and how long until
// time alone could change the verdict.
func (st *Settle) Look(s pane.Screen, r recognize.Result, now time.Time) (settled bool, since time.Time, wait time.Duration) {
	st.clock.observe(s, now)
	outcome, wait := st.judge.judge(r, now.Sub(st.clock.lastChange), 0, now)
	if f := st.clock.next(now); f < wait {
		wait = f
	}
	return outcome != "", st.judge.since, max(wait, time.Millisecond)
}

package tool

import (
	"context"
	"time"
)

// Timeouts (SPEC.md section 2): Seconds as a number, or a Go duration such
// as 500ms, 2s, 1m; default 30; clamped to [0, 3600].
const (
	defaultTimeout = 30.0
	MaxTimeout     = 3600.0
)

// EffectiveTimeout applies the default and the clamp.
func EffectiveTimeout(v *float64) float64 {
	if v == nil {
		return defaultTimeout
	}
	return min(max(*v, 0), MaxTimeout)
}

func Seconds(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }

// opMargin is how far past its --timeout a wait may run: the last look at
// the deadline (one tmux command) and detaching. Every tmux call of the
// operation is bounded by the operation's deadline (timeout + opMargin) as
// well as by its own (tmux.DefaultCallTimeout), so a server that stops
// answering ends the command within the timeout plus this margin.
const opMargin = 1500 * time.Millisecond

// OpContext bounds an operation that waits up to timeout Seconds, plus
// opMargin and extra (time the operation spends after its timeout on
// purpose, e.g. run's recovery of the prompt).
func OpContext(ctx context.Context, timeout float64, extra time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, Seconds(timeout)+opMargin+extra)
}

// Round3 keeps durations readable in JSON (milliseconds).
func Round3(v float64) float64 {
	return float64(int64(v*1000+0.5)) / 1000
}

// maxLines validates max_lines (1..10000, default 200).
func maxLines(n int) (int, error) {
	switch {
	case n == 0:
		return 200, nil
	case n < 1 || n > 10000:
		return 0, Usagef("max_lines %d is out of range: want 1..10000", n)
	}
	return n, nil
}

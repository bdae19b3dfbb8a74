package tool

import (
	"context"
	"time"

	"github.com/panectl/panectl/schema"
)

// EffectiveTimeout applies the default and the clamp of a timeout in
// seconds (SPEC.md section 2; schema.DefaultTimeout, schema.MaxTimeout).
func EffectiveTimeout(v *float64) float64 {
	if v == nil {
		return schema.DefaultTimeout
	}
	return min(max(*v, 0), schema.MaxTimeout)
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

// maxLines validates max_lines (schema.Bound("max_lines")).
func maxLines(n int) (int, error) {
	switch {
	case n == 0:
		return schema.DefaultMaxLines, nil
	case n < 1 || n > schema.MaxLines:
		return 0, Usagef("max_lines (--max-lines) %d is out of range: want 1..%d", n, schema.MaxLines)
	}
	return n, nil
}

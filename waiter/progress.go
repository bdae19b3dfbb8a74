package waiter

import (
	"context"
	"time"
)

// Progress receives a long wait's progress about once a second: how long
// it has waited, its timeout, and what it waits for. The CLI draws it on a
// terminal's stderr; the MCP server sends it as progress notifications.
type Progress func(paneID string, elapsed, timeout time.Duration, what string)

type progressKey struct{}

// WithProgress returns a context whose waits report to p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// progressTicker returns a channel that ticks once a second when ctx
// carries a Progress (nil otherwise: a nil channel never fires, so waits
// without a listener take no extra wake-ups), and the report function.
func progressTicker(ctx context.Context, paneID string, timeout time.Duration, what string) (<-chan time.Time, func(elapsed time.Duration), func()) {
	p, _ := ctx.Value(progressKey{}).(Progress)
	if p == nil {
		return nil, func(time.Duration) {}, func() {}
	}
	t := time.NewTicker(time.Second)
	return t.C, func(el time.Duration) { p(paneID, el, timeout, what) }, t.Stop
}

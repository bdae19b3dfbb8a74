package waiter

import (
	"context"
	"sync"
	"time"
)

// Progress receives a long call's progress about once a second. It gets the pane ("" for none), how
// long the call has run, and the timeout (0 for none) and name of what it waits for. The CLI draws
// it on a terminal's stderr; the MCP server sends progress notifications.
type Progress func(paneID string, elapsed, timeout time.Duration, what string)

type progressKey struct{}

// progress is one call's reporter. WithProgress's goroutine reports once a second what the call
// waits for now (set by Waiting).
type progress struct {
	p     Progress
	start time.Time
	mu    sync.Mutex // held while reporting, so a finished wait reports no more
	now   waitingFor
}

type waitingFor struct {
	paneID  string
	timeout time.Duration
	what    string // "": nothing to report
}

// WithProgress returns a context whose call reports to p once a second while Waiting names
// something. Reports come from a goroutine of its own, so a wait busy with tmux, a lock or a sleep
// still reports. Elapsed time counts from this call. stop ends them, none in flight once it
// returns.
func WithProgress(ctx context.Context, p Progress) (context.Context, func()) {
	pr := &progress{p: p, start: time.Now()}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-t.C:
				pr.mu.Lock()
				if w := pr.now; w.what != "" {
					pr.p(w.paneID, now.Sub(pr.start), w.timeout, w.what)
				}
				pr.mu.Unlock()
			}
		}
	}()
	var once sync.Once
	return context.WithValue(ctx, progressKey{}, pr), func() {
		once.Do(func() { close(done); wg.Wait() })
	}
}

// Waiting names what ctx's call waits for from now on, for WithProgress: the pane, the timeout and
// a description. done restores what was named before, by an outer wait or the call itself. It
// returns once no report about this wait is in flight. Without WithProgress it does nothing.
func Waiting(ctx context.Context, paneID string, timeout time.Duration, what string) (done func()) {
	pr, _ := ctx.Value(progressKey{}).(*progress)
	if pr == nil {
		return func() {}
	}
	pr.mu.Lock()
	before := pr.now
	pr.now = waitingFor{paneID: paneID, timeout: timeout, what: what}
	pr.mu.Unlock()
	return func() {
		pr.mu.Lock()
		pr.now = before
		pr.mu.Unlock()
	}
}

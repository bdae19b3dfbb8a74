package waiter

import (
	"context"
	"testing"
	"time"

	"github.com/panectl/panectl/tmux"
)

// fakeSource is a Source whose change events the test sends.
type fakeSource struct{ ch chan struct{} }

func (f fakeSource) Changed() <-chan struct{} { return f.ch }
func (fakeSource) Note() string               { return "" }
func (fakeSource) Close()                     {}
func (fakeSource) Via() tmux.Snapshotter      { return nil }
func (fakeSource) Process() int               { return 0 }

func TestPacer(t *testing.T) {
	src := fakeSource{make(chan struct{}, 1)}
	p := newPacer(src, time.Now().Add(time.Hour))
	ctx := context.Background()

	// the pause runs out
	t0 := time.Now()
	if changed, err := p.pause(ctx, 10*time.Millisecond); changed || err != nil {
		t.Fatalf("pause = %v, %v; want the timer", changed, err)
	}
	if took := time.Since(t0); took < 10*time.Millisecond {
		t.Fatalf("pause took %v, want 10ms", took)
	}

	// a change ends it, and starts the quiet that follows
	src.ch <- struct{}{}
	if changed, err := p.pause(ctx, time.Hour); !changed || err != nil {
		t.Fatalf("pause = %v, %v; want a change", changed, err)
	}
	if q := p.quietFor(time.Now()); q < 0 || q > time.Second {
		t.Fatalf("quietFor = %v right after a change", q)
	}

	// never past the deadline
	p.deadline = time.Now().Add(20 * time.Millisecond)
	t0 = time.Now()
	if changed, err := p.pause(ctx, time.Hour); changed || err != nil {
		t.Fatalf("pause = %v, %v; want the deadline", changed, err)
	}
	if took := time.Since(t0); took > 5*time.Second {
		t.Fatalf("pause took %v past a 20ms deadline", took)
	}
	if !p.due(time.Now()) {
		t.Fatal("not due after the deadline")
	}

	// ctx ends it
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	p.deadline = time.Now().Add(time.Hour)
	if _, err := p.pause(cctx, time.Hour); err != context.Canceled {
		t.Fatalf("pause err = %v; want context.Canceled", err)
	}
}

package lock_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/pane/lock"
)

// The action lock excludes: many contenders, one holder at a time, each
// served within its deadline; the option is gone afterwards.
func TestActionLockExcludes(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{40, 5}, "cat")
	ctx := context.Background()
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := lock.Acquire(ctx, s.Client, p.ID, "test", time.Now().Add(20*time.Second))
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(30 * time.Millisecond)
			inside.Add(-1)
			l.Release(ctx)
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d holders at once", most.Load())
	}
	if v := s.Tmux("show-options", "-p", "-q", "-v", "-t", p.ID, "@panectl_lock"); v != "" {
		t.Errorf("lock left: %q", v)
	}
	// a held lock makes a contender time out, naming the holder
	l, err := lock.Acquire(ctx, s.Client, p.ID, "run", time.Now().Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx)
	_, err = lock.Acquire(ctx, s.Client, p.ID, "send-text", time.Now().Add(200*time.Millisecond))
	var te *lock.TimeoutError
	if !errors.As(err, &te) || te.Holder == "" {
		t.Errorf("contender got %v, want a LockTimeoutError naming the holder", err)
	}
}

// CompareAndSetPaneOption swaps only from the expected value.
func TestCompareAndSetPaneOption(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{40, 5}, "cat")
	ctx := context.Background()
	c := s.Client
	for _, step := range []struct{ old, new, want string }{
		{"", "a1", "a1"},   // unset -> a1
		{"", "b1", "a1"},   // not unset: unchanged
		{"x", "b1", "a1"},  // wrong old value: unchanged
		{"a1", "b2", "b2"}, // swapped
		{"b2", "", ""},     // unset
	} {
		got, err := c.CompareAndSetPaneOption(ctx, p.ID, "@panectl_test", step.old, step.new)
		if err != nil || got != step.want {
			t.Errorf("CAS %q -> %q = %q, %v; want %q", step.old, step.new, got, err, step.want)
		}
	}
	if _, err := c.CompareAndSetPaneOption(ctx, p.ID, "@panectl_test", "", "a;b"); err == nil {
		t.Error("a value that is not a plain token was accepted")
	}
}

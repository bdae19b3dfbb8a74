// Package lock is a pane's action lock: the actions that type and then
// depend on what they typed (run, send-text --submit, answer) take it, one
// at a time on a pane, across every panectl process.
package lock

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/tmux"
)

// The action lock serializes the actions that type and then depend on what
// they typed (run, send-text --submit). It does so on one pane, across
// every panectl process. It is the pane's user option @panectl_lock. It
// holds "ACTION.PID.NS.NONCE.EXPIRY". These are the owner's action and
// process id, its pid namespace, a nonce, and the lease's end in unix ms.
// It is taken with an atomic compare-and-set
// (tmux.CompareAndSetPaneOption). tmux has no lock primitive that survives
// a crashed owner. Its wait-for -L channels stay locked forever when their
// owner dies. The owner renews the lease while it holds the lock. The next
// contender takes over a lock whose lease ended, or whose owner process is
// gone.
const (
	lockOption = "@panectl_lock"
	// lockLease is how long a lock stays valid without renewal. That is how
	// long a crashed owner can hold up others when its death cannot be
	// seen.
	lockLease = 5 * time.Second
	// lockRenew is how often the owner renews the lease.
	lockRenew = lockLease / 3
)

// TimeoutError says another action held the pane's lock until the
// deadline. It unwraps to context.DeadlineExceeded (exit 124).
type TimeoutError struct {
	PaneID string
	Holder string // the holder's action and process, e.g. "run (pid 1234)"
}

// Error names the pane and the holder.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("pane %s is busy with another panectl action, %s, which did not finish before the timeout; nothing was typed", e.PaneID, e.Holder)
}

// Unwrap makes the error a timeout.
func (e *TimeoutError) Unwrap() error { return context.DeadlineExceeded }

// Lock is a held action lock.
type Lock struct {
	c      *tmux.Client
	id     string
	action string

	mu     sync.Mutex
	value  string
	lost   bool
	stop   chan struct{}
	done   chan struct{}
	Waited time.Duration // how long the lock was waited for
	// Behind names the action that held the lock when it was first asked
	// for, as TimeoutError.Holder does: "run (pid 1234)". It is "" when
	// the lock was free at once.
	Behind string
}

// Acquire takes the pane's action lock for action ("run", "send-text").
// It waits while another action holds it, until deadline. Then it returns a
// *TimeoutError. The lease is renewed in the background until Release.
func Acquire(ctx context.Context, c *tmux.Client, id, action string, deadline time.Time) (*Lock, error) {
	return AcquireBehind(ctx, c, id, action, deadline, nil)
}

// AcquireBehind is Acquire, calling busy once before waiting when
// another action holds the lock. holder names that action, as Lock.Behind
// does. The caller may note the pane's state then. Once the lock is its
// own, it can check whether what it was going to do still fits the pane. An
// error from busy ends the wait with that error.
func AcquireBehind(ctx context.Context, c *tmux.Client, id, action string, deadline time.Time, busy func(holder string) error) (*Lock, error) {
	start := time.Now()
	l := &Lock{c: c, id: id, action: action, stop: make(chan struct{}), done: make(chan struct{})}
	seen := ""
	pause := 5 * time.Millisecond
	for {
		value := l.newValue()
		cur, err := c.CompareAndSetPaneOption(ctx, id, lockOption, "", value)
		if err != nil {
			return nil, err
		}
		if cur != value && lockStale(cur, time.Now()) {
			// The holder crashed or its lease ended. Take it over, unless
			// another contender did first.
			if cur, err = c.CompareAndSetPaneOption(ctx, id, lockOption, cur, value); err != nil {
				return nil, err
			}
		}
		if cur == value {
			l.value = value
			l.Waited = time.Since(start)
			go l.renew()
			return l, nil
		}
		if l.Behind == "" {
			l.Behind = lockHolder(cur)
			if busy != nil {
				if err := busy(l.Behind); err != nil {
					return nil, err
				}
			}
		}
		seen = cur
		if !time.Now().Before(deadline) {
			return nil, &TimeoutError{PaneID: id, Holder: lockHolder(seen)}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(min(pause, time.Until(deadline))):
		}
		pause = min(pause*2, 50*time.Millisecond)
	}
}

// Lost reports whether the lock was taken over while held. That happens
// when its renewal failed for longer than the lease.
func (l *Lock) Lost() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lost
}

// Release gives the lock back, only when it is still ours, and stops the
// renewal. ctx is the action's. Giving the lock back is a cleanup, bounded
// as tmux.Client.CleanupContext says. A lock not given back is free when
// its lease ends or its owner has exited. Release is safe to call more than
// once and on nil.
func (l *Lock) Release(ctx context.Context) {
	if l == nil {
		return
	}
	select {
	case <-l.stop:
		return
	default:
	}
	close(l.stop)
	ctx, cancel := l.c.CleanupContext(ctx, 2*time.Second)
	defer cancel()
	select {
	case <-l.done:
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		return // the server does not answer: the lease will tell
	}
	l.mu.Lock()
	v := l.value
	l.mu.Unlock()
	_, _ = l.c.CompareAndSetPaneOption(ctx, l.id, lockOption, v, "")
}

func (l *Lock) renew() {
	defer close(l.done)
	t := time.NewTicker(lockRenew)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		l.mu.Lock()
		old := l.value
		l.mu.Unlock()
		next := l.newValue()
		ctx, cancel := context.WithTimeout(context.Background(), lockRenew)
		cur, err := l.c.CompareAndSetPaneOption(ctx, l.id, lockOption, old, next)
		cancel()
		l.mu.Lock()
		switch {
		case err == nil && cur == next:
			l.value = next
		case err == nil:
			l.lost = true // taken over: nothing left to renew
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
	}
}

// newValue is a fresh lock value with a lease from now.
func (l *Lock) newValue() string {
	return fmt.Sprintf("%s.%d.%s.%s.%d", l.action, os.Getpid(), pidNamespace(), tmux.Nonce(), time.Now().Add(lockLease).UnixMilli())
}

// lockFields splits a lock value; ok=false when it is not one.
func lockFields(v string) (action string, pid int, ns string, expiry time.Time, ok bool) {
	f := strings.Split(v, ".")
	if len(f) != 5 {
		return "", 0, "", time.Time{}, false
	}
	pid, err1 := strconv.Atoi(f[1])
	ms, err2 := strconv.ParseInt(f[4], 10, 64)
	if err1 != nil || err2 != nil {
		return "", 0, "", time.Time{}, false
	}
	return f[0], pid, f[2], time.UnixMilli(ms), true
}

// lockStale reports whether lock value v may be taken over at now. That is
// when its lease ended, or its owner process is gone (same pid namespace).
// It is also when v is not a lock value at all.
func lockStale(v string, now time.Time) bool {
	if v == "" {
		return false
	}
	_, pid, ns, expiry, ok := lockFields(v)
	if !ok || now.After(expiry) {
		return true
	}
	return ns != "" && ns == pidNamespace() && pid != os.Getpid() && !proc.Alive(pid)
}

// lockHolder names the holder of lock value v for messages.
func lockHolder(v string) string {
	action, pid, _, _, ok := lockFields(v)
	if !ok {
		return "unknown"
	}
	return fmt.Sprintf("%s (pid %d)", action, pid)
}

// pidNamespace identifies this process's pid namespace ("" when unknown). A
// pid names the same process only within one.
func pidNamespace() string {
	t, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	// "pid:[4026531836]" -> "4026531836"
	t = strings.TrimSuffix(strings.TrimPrefix(t, "pid:["), "]")
	if !plainDigits(t) {
		return ""
	}
	return t
}

func plainDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

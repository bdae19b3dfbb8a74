package tmux

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// One control client serves every wait on its session. Each wait holds a
// Subscription to its pane, and the client routes notifications to the ones
// they concern. A pane with subscriptions (reference counted) gets its output.
// One with none is paused when it first speaks (refresh-client -A %N:pause) and
// continued (%N:continue) when one arrives. Layout changes, closed windows and
// the client's end go to all. Pausing, not switching off (%N:off, %N:on),
// avoids a segfault in control_append_data on tmux 3.2 to 3.6 (GitHub issue
// 5054, fixed in 3.7 by cae229cad; docs/architecture.md). A pause drops the
// queued output (control_pause_pane), and continuing starts from the current
// offset, as switching on does. TestKeptClientTogglesBusyPaneSafely pins it.

// Subscription is one caller's interest in one pane through a control client:
// its output, pauses, changes and EventCommandDone, in tmux's order.
type Subscription struct {
	PaneID string // the subscribed pane

	k      *Control
	fn     func(ControlEvent)
	closed atomic.Bool
	// release ends the hold on the client: a kept client counts its users, a
	// client of its own is detached.
	release func()
	once    sync.Once
	// deathWatch: the client looks whether the pane died (WatchDeath). pid is
	// the process a respawn replaces (0: unknown). Guarded by k.mu.
	deathWatch bool
	pid        int
	// prefetch is Prefetch's option prefix. prefetching says one is in flight,
	// prefetchAt when the last was sent. Guarded by k.mu.
	prefetchOn  bool
	prefetch    string
	prefetching bool
	prefetchAt  time.Time
}

// paneInterest is who subscribed to a pane and whether it is paused, guarded by
// Control.mu. subs is replaced, never changed, so the reader may read it bare.
type paneInterest struct {
	subs []*Subscription
	off  bool // paused by the client (no subscription wanted its output)
}

func (k *Control) interest(pane string) *paneInterest {
	pi := k.panes[pane]
	if pi == nil {
		pi = &paneInterest{}
		k.panes[pane] = pi
	}
	return pi
}

func (pi *paneInterest) add(s *Subscription) {
	pi.subs = append(pi.subs[:len(pi.subs):len(pi.subs)], s)
}

func (pi *paneInterest) remove(s *Subscription) {
	out := make([]*Subscription, 0, len(pi.subs))
	for _, x := range pi.subs {
		if x != s {
			out = append(out, x)
		}
	}
	pi.subs = out
}

// Subscribe adds a subscription for pane id in the client's session. fn gets
// its events on the reading goroutine and must return quickly. A paused pane
// gets its output back, and later commands follow the continue, so a snapshot
// is aligned with the output after it. Close ends the subscription only.
func (k *Control) Subscribe(id string, fn func(ControlEvent)) (*Subscription, error) {
	if !strings.HasPrefix(id, "%") {
		return nil, fmt.Errorf("tmux: %q is not a pane id", id)
	}
	s := &Subscription{PaneID: id, k: k, fn: fn}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return nil, ErrControlClosed
	}
	pi := k.interest(id)
	if pi.off {
		pi.off = false
		k.sendLocked(fmt.Sprintf("refresh-client -A '%s:continue'", id))
	}
	pi.add(s)
	return s, nil
}

// Control is the client the subscription uses.
func (s *Subscription) Control() *Control { return s.k }

// Done is closed when the client has ended (see Control.Done).
func (s *Subscription) Done() <-chan struct{} { return s.k.done }

// Reason says why the client ended (see Control.Reason).
func (s *Subscription) Reason() string { return s.k.Reason() }

// Close ends the subscription: no event comes after it returns. A client
// attached for it alone is detached (Client.Control, or Subscribe without
// KeepControl), a kept one stays. Safe to call more than once.
func (s *Subscription) Close() {
	s.once.Do(func() {
		s.closed.Store(true)
		k := s.k
		k.mu.Lock()
		if pi := k.panes[s.PaneID]; pi != nil {
			pi.remove(s)
		}
		s.deathWatch = false
		k.mu.Unlock()
		if s.release != nil {
			s.release()
		}
	})
}

func (s *Subscription) deliver(e ControlEvent) {
	if s.fn != nil && !s.closed.Load() {
		s.fn(e)
	}
}

// Command is Control.Command for this subscription. EventCommandDone reaches it
// in stream order, before each command's result returns.
func (s *Subscription) Command(ctx context.Context, cmds ...[]string) ([]string, error) {
	return s.k.command(ctx, s, cmds)
}

// SnapshotOptions is Client.SnapshotOptions for the subscribed pane id. It
// holds every EventOutput before its EventCommandDone and none after.
func (s *Subscription) SnapshotOptions(ctx context.Context, id, prefix string, specs ...CaptureSpec) (PaneInfo, []string, map[string]string, error) {
	if id != s.PaneID {
		return PaneInfo{}, nil, nil, fmt.Errorf("tmux: the subscription is for %s, not %s", s.PaneID, id)
	}
	return s.k.snapshotOptions(ctx, s, id, prefix, specs...)
}

// output routes one %output notification.
func (k *Control) output(pane string, data, line []byte) {
	k.mu.Lock()
	pi := k.panes[pane]
	if pi == nil || len(pi.subs) == 0 {
		if strings.HasPrefix(pane, "%") && (pi == nil || !pi.off) {
			k.interest(pane).off = true
			k.sendLocked(fmt.Sprintf("refresh-client -A '%s:pause'", pane))
		}
		k.mu.Unlock()
		return
	}
	subs := pi.subs
	// prefetch before delivering, so tmux reads it while the wait wakes up
	now := time.Now()
	follows := make([]bool, len(subs))
	for i, s := range subs {
		if s.prefetchOn && !s.prefetching && now.Sub(s.prefetchAt) >= prefetchGap {
			s.sendDescribeLocked(now)
		}
		follows[i] = s.prefetching
	}
	k.mu.Unlock()
	e := ControlEvent{Kind: EventOutput, Data: DecodeOutput(data), Line: string(line)}
	for i, s := range subs {
		e.DescribeFollows = follows[i]
		s.deliver(e)
	}
}

// prefetchGap is the least time between two prefetches for a subscription.
// Under steady output a wait asks itself in between (see Describe).
const prefetchGap = 2 * time.Millisecond

// Prefetch has the client read the pane's geometry and user options starting
// with prefix (as Describe) on output, one at a time, at most per prefetchGap.
// An EventDescribed in stream order gives a wait the state after that output.
func (s *Subscription) Prefetch(prefix string) {
	s.k.mu.Lock()
	s.prefetchOn, s.prefetch = true, prefix
	s.k.mu.Unlock()
}

// Prefetching reports whether a prefetched description is on its way.
func (s *Subscription) Prefetching() bool {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	return s.prefetching
}

// sendDescribeLocked sends a prefetch. k.mu must be held.
func (s *Subscription) sendDescribeLocked(now time.Time) {
	line, _ := commandLine(describeCommands(s.PaneID))
	var p PaneInfo
	var perr error
	got := 0
	ok := s.k.writeLocked(line, pendingBlock{fn: func(r blockResult) {
		got++
		if got == 1 {
			if r.err == nil {
				p, perr = parseGeometry(strings.TrimSuffix(r.out, "\n"))
			} else {
				perr = r.err
			}
			return
		}
		e := ControlEvent{Kind: EventDescribed, Pane: p, Err: perr}
		if perr == nil && r.err == nil {
			e.Options, e.Err = parseOptions(s.PaneID, r.out, s.prefetch)
		} else if perr == nil {
			e.Err = r.err
		}
		s.k.mu.Lock()
		s.prefetching = false
		s.k.mu.Unlock()
		s.deliver(e)
	}}, 2)
	if ok {
		s.prefetching, s.prefetchAt = true, now
	}
}

// describeCommands read a pane's geometry and user options.
func describeCommands(id string) [][]string {
	return [][]string{{"display-message", "-p", "-t", id, geometryFormat}, {"show-options", "-p", "-t", id}}
}

// Describe reads the pane's geometry and user options starting with prefix in
// one line, aligned like SnapshotOptions. The geometry has no process state:
// id, pid, size, dead, history size and limit, cursor, alternate screen, wrap,
// insert and origin modes, scrolling region. A missing pane is *NotFoundError.
func (s *Subscription) Describe(ctx context.Context, prefix string) (PaneInfo, map[string]string, error) {
	outs, err := s.k.command(ctx, s, describeCommands(s.PaneID))
	if err != nil {
		if errors.Is(err, ErrPaneNotFound) {
			return PaneInfo{}, nil, &NotFoundError{Target: s.PaneID, Socket: s.k.socket}
		}
		return PaneInfo{}, nil, err
	}
	p, err := parseGeometry(strings.TrimSuffix(outs[0], "\n"))
	if err == errNoPane || (err == nil && p.ID != s.PaneID) {
		return PaneInfo{}, nil, &NotFoundError{Target: s.PaneID, Socket: s.k.socket}
	}
	if err != nil {
		return PaneInfo{}, nil, err
	}
	opts, err := parseOptions(s.PaneID, outs[1], prefix)
	return p, opts, err
}

// paused handles %pause: a subscribed pane is continued and its subscribers
// told that output was lost. Any other pane stays paused.
func (k *Control) paused(pane string, line []byte) {
	k.mu.Lock()
	pi := k.panes[pane]
	if pi == nil || len(pi.subs) == 0 {
		if strings.HasPrefix(pane, "%") {
			k.interest(pane).off = true
		}
		k.mu.Unlock()
		return
	}
	subs := pi.subs
	k.sendLocked(fmt.Sprintf("refresh-client -A '%s:continue'", pane))
	k.mu.Unlock()
	for _, s := range subs {
		s.deliver(ControlEvent{Kind: EventPause, Line: string(line)})
	}
}

// broadcast delivers e to every subscription of the client.
func (k *Control) broadcast(e ControlEvent) {
	k.mu.Lock()
	var all []*Subscription
	for _, pi := range k.panes {
		all = append(all, pi.subs...)
	}
	k.mu.Unlock()
	for _, s := range all {
		s.deliver(e)
	}
}

package tmux

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// One control client serves every wait on its session: each wait holds a
// Subscription to its pane, and the client routes each notification to the
// subscriptions it concerns. Output is delivered per pane while a pane has
// subscriptions (reference counted); a pane with none has its output
// switched off the first time it speaks (refresh-client -A %N:off), and on
// again (%N:on) when a subscription for it arrives. Notifications that may
// concern any pane (layout changes, windows closed, the client ending) go
// to every subscription.

// Subscription is one caller's interest in one pane's events through a
// control client: its output, pauses, changes, and the completion of the
// commands it sends (EventCommandDone), in the order tmux wrote them.
type Subscription struct {
	// PaneID is the subscribed pane.
	PaneID string

	k      *Control
	fn     func(ControlEvent)
	closed atomic.Bool
	// release ends the subscription's hold on its client (a kept client
	// counts its users; a client of its own is detached).
	release func()
	once    sync.Once
	// deathWatch: the client looks whether the pane died (WatchDeath);
	// guarded by k.mu.
	deathWatch bool
}

// paneInterest is what a client knows of one pane: who subscribed, and
// whether its output is switched off. Guarded by Control.mu; subs is
// replaced, never changed in place, so the reader may use it unlocked.
type paneInterest struct {
	subs []*Subscription
	off  bool
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

// Subscribe adds a subscription for pane id (in the client's session) whose
// events go to fn (on the reading goroutine; it must return quickly and
// never block). A pane whose output was switched off gets it back: the
// next command sent through the subscription is after the switch, so a
// snapshot taken through it is aligned with the output that follows.
// Close ends the subscription (not the client).
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
		k.sendLocked(fmt.Sprintf("refresh-client -A '%s:on'", id))
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

// Close ends the subscription: no event is delivered after it returns. The
// client is detached if it was attached for this subscription alone
// (Client.Control, or Client.Subscribe without KeepControl); a kept client
// stays for the next caller. Safe to call more than once.
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

// Command is Control.Command for this subscription: EventCommandDone is
// delivered to it, in stream order, before each command's result returns.
func (s *Subscription) Command(ctx context.Context, cmds ...[]string) ([]string, error) {
	return s.k.command(ctx, s, cmds)
}

// SnapshotOptions is Client.SnapshotOptions run through the client (no
// tmux process is started), aligned with the subscription's events: every
// EventOutput delivered before its EventCommandDone is in the snapshot,
// every later one is not. id must be the subscribed pane.
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
			k.sendLocked(fmt.Sprintf("refresh-client -A '%s:off'", pane))
		}
		k.mu.Unlock()
		return
	}
	subs := pi.subs
	k.mu.Unlock()
	e := ControlEvent{Kind: EventOutput, Data: DecodeOutput(data), Line: string(line)}
	for _, s := range subs {
		s.deliver(e)
	}
}

// paused handles %pause for pane: a subscribed pane is continued and its
// subscribers told (output was lost); any other pane is switched off.
func (k *Control) paused(pane string, line []byte) {
	k.mu.Lock()
	pi := k.panes[pane]
	if pi == nil || len(pi.subs) == 0 {
		if strings.HasPrefix(pane, "%") {
			k.interest(pane).off = true
			k.sendLocked(fmt.Sprintf("refresh-client -A '%s:off'", pane))
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

package tmux

import (
	"strings"
	"time"
)

// A pane that dies under remain-on-exit without printing gives a control
// client no notification in tmux 3.3a: its pty closes, tmux marks it dead
// (and draws remain-on-exit-format into its screen, which is not %output),
// and nothing is sent. So the client asks: every deathEvery, while some
// subscription wants it, it lists its session's panes with pane_dead
// through itself (one command, whatever the number of subscriptions; no
// tmux process; tmux answers in microseconds) and sends an EventChange to
// each subscription whose pane is dead or gone.
//
// A format subscription (refresh-client -B) would let the server do the
// looking, but tmux 3.2 to 3.6 crash in the subscription timer when a
// subscribed control client's session is destroyed while the client is
// still on its way out (control_check_subs_session dereferences the NULL
// c->session: tmux GitHub issue 4916, fixed in 3.7 by 881bec958). A wait's
// session is destroyed whenever its last pane exits, so panectl subscribes
// to nothing.

// deathEvery is how often the death watch asks.
const deathEvery = 400 * time.Millisecond

// WatchDeath makes the client look, every deathEvery until the
// subscription or the client ends, whether the subscribed pane died or
// left its session; an EventChange follows the first look that says so,
// and the looking stops for this subscription. While no subscription
// watches, the client asks nothing.
func (s *Subscription) WatchDeath() {
	k := s.k
	k.mu.Lock()
	defer k.mu.Unlock()
	if s.closed.Load() || k.closed {
		return
	}
	s.deathWatch = true
	if !k.deathWatching {
		k.deathWatching = true
		go k.deathLoop()
	}
}

// deathLoop is the client's death watch: it runs while a subscription
// watches.
func (k *Control) deathLoop() {
	t := time.NewTicker(deathEvery)
	defer t.Stop()
	for {
		select {
		case <-k.done:
			return
		case <-t.C:
		}
		k.mu.Lock()
		var watched []*Subscription
		for _, pi := range k.panes {
			for _, s := range pi.subs {
				if s.deathWatch {
					watched = append(watched, s)
				}
			}
		}
		if len(watched) == 0 {
			k.deathWatching = false
			k.mu.Unlock()
			return
		}
		ok := k.writeLocked("list-panes -s -F '#{pane_id} #{pane_dead}'", pendingBlock{fn: func(r blockResult) {
			alive := map[string]bool{}
			if r.err == nil {
				for _, row := range strings.Split(r.out, "\n") {
					if id, dead, ok := strings.Cut(row, " "); ok && dead == "0" {
						alive[id] = true
					}
				}
			}
			for _, s := range watched {
				if alive[s.PaneID] {
					continue
				}
				k.mu.Lock()
				was := s.deathWatch
				s.deathWatch = false
				k.mu.Unlock()
				if was {
					s.deliver(ControlEvent{Kind: EventChange, Line: "pane_dead or gone: " + s.PaneID})
				}
			}
		}}, 1)
		k.mu.Unlock()
		if !ok {
			return
		}
	}
}

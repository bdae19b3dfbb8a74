package tmux

import (
	"fmt"
	"strconv"
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

// The same question also reads each pane's process (pane_pid), which
// respawn-pane -k replaces without the pane dying or any notification to
// a control client: a subscription whose pane's process is no longer the
// one it was made for (PaneInfo.PID at Subscribe) gets an EventChange
// too, once per new process, so a wait looks, sees the new pid and ends
// (the output it waited on went with the old process). And while the
// answer is awaited, the watch listens for a server that stopped
// answering (control_stall.go).

// WatchDeath makes the client look, every deathEvery until the
// subscription or the client ends, whether the subscribed pane died or
// left its session (an EventChange follows the first look that says so,
// and the looking stops for this subscription), and whether its process
// was replaced (respawn-pane -k: an EventChange for each new process; the
// looking goes on). While no subscription watches, the client asks
// nothing.
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
// watches. It asks one question at a time: while one is unanswered it
// asks no other, and checks whether the server stopped answering
// (checkStallLocked).
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
		if k.deathAsking {
			// the last question is unanswered: no other (a stopped server
			// would only have them piled up); has the silence lasted?
			stalled := k.checkStallLocked(time.Now())
			k.mu.Unlock()
			if stalled {
				k.broadcast(ControlEvent{Kind: EventChange, Line: "not responding: " + k.stallError().Error()})
			}
			continue
		}
		k.deathAsking = true
		ok := k.writeLocked("list-panes -s -F '#{pane_id} #{pane_dead} #{pane_pid}'", pendingBlock{fn: func(r blockResult) {
			k.mu.Lock()
			k.deathAsking = false
			k.mu.Unlock()
			k.deathAnswer(r, watched)
		}}, 1)
		stalled := ok && k.checkStallLocked(time.Now())
		k.mu.Unlock()
		if stalled {
			k.broadcast(ControlEvent{Kind: EventChange, Line: "not responding: " + k.stallError().Error()})
		}
		if !ok {
			return
		}
	}
}

// deathAnswer handles the answer to the death watch's question: rows of
// "%ID DEAD PID" for the panes of the client's session.
func (k *Control) deathAnswer(r blockResult, watched []*Subscription) {
	type state struct{ pid int }
	alive := map[string]state{}
	if r.err == nil {
		for _, row := range strings.Split(r.out, "\n") {
			f := strings.Fields(row)
			if len(f) == 3 && f[1] == "0" {
				pid, _ := strconv.Atoi(f[2])
				alive[f[0]] = state{pid}
			}
		}
	}
	for _, s := range watched {
		st, ok := alive[s.PaneID]
		k.mu.Lock()
		was, pid := s.deathWatch, s.pid
		switch {
		case !was:
		case !ok:
			s.deathWatch = false
		case pid != 0 && st.pid != 0 && st.pid != pid:
			s.pid = st.pid // told once per new process
		}
		k.mu.Unlock()
		switch {
		case !was:
		case !ok:
			s.deliver(ControlEvent{Kind: EventChange, Line: "pane_dead or gone: " + s.PaneID})
		case pid != 0 && st.pid != 0 && st.pid != pid:
			s.deliver(ControlEvent{Kind: EventChange, Line: fmt.Sprintf("pane_pid changed: %s (process %d, now %d: respawned)", s.PaneID, pid, st.pid)})
		}
	}
}

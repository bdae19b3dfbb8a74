package tmux

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// In tmux 3.3a a pane that dies under remain-on-exit without printing sends a
// control client nothing. Its pty closes, tmux marks it dead and draws
// remain-on-exit-format, which is not %output. So every deathEvery, while a
// subscription wants it, the client lists its session's panes with pane_dead
// through itself: one command for all, no tmux process, answered in
// microseconds. Each subscription whose pane is dead or gone gets an
// EventChange. A format subscription (refresh-client -B) would let the server
// look, but tmux 3.2 to 3.6 crash in its timer when a subscribed client's
// session is destroyed as the client leaves: control_check_subs_session
// dereferences the NULL c->session (GitHub issue 4916, fixed in 3.7 by
// 881bec958). A session dies with its last pane, so panectl never subscribes.

// deathEvery is how often the death watch asks.
const deathEvery = 400 * time.Millisecond

// The same question reads each pane's process (pane_pid), which respawn-pane -k
// replaces with no death or notification. A subscription whose pane's process
// is not its PaneInfo.PID gets an EventChange, once per new process. The wait
// looks, sees the new pid and ends, as its output went with the old process.
// While the answer is awaited, the watch listens for a server that stopped
// answering (control_stall.go).

// WatchDeath makes the client look every deathEvery, until the subscription or
// client ends, whether the pane died or left its session: an EventChange, and
// the looking ends. A process replaced by respawn-pane -k gives one per new
// process, and the looking goes on. With no watcher the client asks nothing.
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

// deathLoop, the death watch, runs while a subscription watches. It asks one
// question at a time, and meanwhile checks for a stall (checkStallLocked).
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
			// unanswered, and more would only pile up: has the silence lasted?
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

// deathAnswer handles the rows of "%ID DEAD PID" for the session's panes.
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

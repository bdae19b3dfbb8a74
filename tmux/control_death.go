package tmux

import (
	"fmt"
	"strings"
	"time"
)

// A pane that dies under remain-on-exit without printing gives a control
// client no notification in tmux 3.3a: its pty closes, tmux marks it dead
// (and draws remain-on-exit-format into its screen, which is not %output),
// and nothing is sent. So the client asks: every deathEvery it runs
// display-message for the pane's pane_dead through itself (no tmux
// process; tmux answers in microseconds) and reports an EventChange once
// the answer is not "0" (dead, or the pane is gone).
//
// A format subscription (refresh-client -B) would let the server do the
// looking, but tmux 3.2 to 3.6 crash in the subscription timer when a
// subscribed control client's session is destroyed while the client is
// still on its way out (control_check_subs_session dereferences the NULL
// c->session: tmux GitHub issue 4916, fixed in 3.7 by 881bec958). A wait's
// session is destroyed whenever its last pane exits, so panectl subscribes
// to nothing.

// deathEvery is how often WatchDeath asks.
const deathEvery = 400 * time.Millisecond

// WatchDeath makes the client look, every deathEvery until it ends,
// whether the watched pane died or left; an EventChange follows the first
// look that says so, and the looking stops.
func (k *Control) WatchDeath() {
	go func() {
		t := time.NewTicker(deathEvery)
		defer t.Stop()
		line := fmt.Sprintf("display-message -p -t '%s' '#{pane_dead}'", k.PaneID)
		found := make(chan struct{})
		for {
			select {
			case <-k.done:
				return
			case <-found:
				return
			case <-t.C:
			}
			sent := k.sendFunc(line, func(r blockResult) {
				if r.err != nil || strings.TrimSpace(r.out) != "0" {
					k.event(ControlEvent{Kind: EventChange, Line: "pane_dead: " + strings.TrimSpace(r.out)})
					select {
					case <-found:
					default:
						close(found)
					}
				}
			})
			if !sent {
				return
			}
		}
	}()
}

package tmux

import (
	"bytes"
	"fmt"
	"time"
)

// A pane that dies under remain-on-exit without printing gives a control
// client no notification in tmux 3.3a: its pty closes, tmux marks it dead
// (and draws remain-on-exit-format into its screen, which is not %output),
// and nothing is sent. What does reach a control client is a format
// subscription (refresh-client -B, tmux 3.2+): tmux re-expands the format
// once a second and sends %subscription-changed when the value changed. A
// pane subscription (%N) is skipped for a dead pane (tmux checks the pane's
// fd), so panectl subscribes at session level to a format that loops over
// the session's panes and yields the target's pane_dead: "0" while it
// lives, "1" once dead, "" once it left the session. Two such
// subscriptions, added half a second apart, halve the delay.

// deathSub names the subscriptions WatchDeath adds (a digit follows).
const deathSub = "panectl-dead"

// deathPhase is the offset of WatchDeath's second subscription: tmux checks
// each subscription once a second from when it was added, so two, half a
// second apart, see a death within half a second.
const deathPhase = 500 * time.Millisecond

// WatchDeath asks tmux to tell this client, within about half a second,
// when the watched pane dies or leaves the session: an EventChange follows.
// The server does the looking (a format expansion twice a second); the
// client does nothing until the value changes.
func (k *Control) WatchDeath() {
	format := fmt.Sprintf("#{W:#{P:#{?#{==:#{pane_id},%s},#{pane_dead},}}}", k.PaneID)
	k.send(fmt.Sprintf("refresh-client -B '%s0::%s'", deathSub, format))
	time.AfterFunc(deathPhase, func() {
		k.send(fmt.Sprintf("refresh-client -B '%s1::%s'", deathSub, format)) // (ignored once closed)
	})
}

// deathChanged reports whether a %subscription-changed notification (rest
// is what follows the name: "NAME $S - - - : VALUE") says the watched pane
// may have died: the value of panectl's subscription is not "0".
func (k *Control) deathChanged(rest []byte) bool {
	name, tail, _ := bytes.Cut(rest, []byte(" "))
	if !bytes.HasPrefix(name, []byte(deathSub)) {
		return false
	}
	_, value, ok := bytes.Cut(tail, []byte(" : "))
	if !ok {
		value = nil
	}
	return string(value) != "0"
}

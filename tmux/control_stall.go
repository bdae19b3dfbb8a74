package tmux

import (
	"sync/atomic"
	"time"
)

// A stopped tmux server (kill -STOP, or hung) writes nothing more, and a
// wait that follows a quiet pane through a control client sends it
// nothing that is timed: the death watch's question (control_death.go)
// is the only command while nothing happens. So the death watch also
// listens for the silence: a command through the client that has had no
// answer for stallAfter, while not a single line came from the server in
// that time, means the server does not answer. The client then stalls:
// every command waiting for an answer through it, and every later one,
// fails at once with a *NotRespondingError, and its subscriptions get an
// EventChange, so a wait looks (through the client), gets the error and
// ends (exit 1, not_responding) about stallAfter after the server
// stopped, whatever its timeout.
//
// A server that is only slow or busy is not stalled: it answers the death
// watch's question (asked every deathEvery while a wait runs) or writes
// output within stallAfter, and either resets the silence. The first line
// the server writes after a stall (it was continued: it answers what was
// asked before it stopped) ends the stall, so a client kept between calls
// (panectl mcp) serves the next call again.

// stallAfter is how long a command through a control client may go
// unanswered while the server writes nothing at all before the client
// counts the server as not responding: DefaultCallTimeout, the bound of
// one tmux command.
const stallAfter = DefaultCallTimeout

// checkStallLocked stalls the client when its oldest unanswered command
// was sent stallAfter ago or more and no line came from the server since
// (or for stallAfter, when one came after it was sent). It reports whether
// the client stalled just now (then the caller, once k.mu is released,
// tells the subscriptions: broadcast). k.mu must be held.
func (k *Control) checkStallLocked(now time.Time) bool {
	if k.stall != nil || len(k.pending) == 0 || k.closed {
		return false
	}
	// stalled is set before lastLine is read: a line the reader takes
	// meanwhile either is seen here or sees the flag and ends the stall
	// (answering, which waits for k.mu)
	k.stalled.Store(true)
	oldest := k.pending[0]
	silent := oldest.sent
	if heard := k.born.Add(time.Duration(k.lastLine.Load())); heard.After(silent) {
		silent = heard
	}
	if now.Sub(silent) < stallAfter {
		k.stalled.Store(false)
		return false
	}
	k.stall = &NotRespondingError{Socket: k.socket,
		Command: oldest.name + " (through the control client; nothing else came from the server meanwhile)",
		After:   now.Sub(oldest.sent).Round(time.Millisecond)}
	k.mute = true // Close does not wait for a detach
	close(k.stallCh)
	atomic.StoreInt32(&k.owner.silent, 1)
	return true
}

// answering ends a stall: the server wrote a line.
func (k *Control) answering() {
	k.mu.Lock()
	if k.stall != nil {
		k.stall = nil
		k.stallCh = make(chan struct{})
		atomic.StoreInt32(&k.owner.silent, 0)
	}
	k.stalled.Store(false)
	k.mu.Unlock()
}

// stallError is the error of a command that was waiting for an answer
// when the client stalled.
func (k *Control) stallError() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stall == nil {
		// it answered again meanwhile; the command's own answer is late
		return &NotRespondingError{Socket: k.socket, Command: "a command (through the control client)", After: stallAfter}
	}
	err := *k.stall
	return &err
}

package tmux

import (
	"sync/atomic"
	"time"
)

// A stopped tmux server (kill -STOP, or hung) writes nothing more. A wait on a
// quiet pane sends nothing timed but the death watch's question
// (control_death.go), so the death watch also listens for the silence. A
// command unanswered for stallAfter, with no line from the server meanwhile,
// means the server does not answer. The client then stalls: every waiting and
// later command fails at once with a *NotRespondingError, and its subscriptions
// get an EventChange. So a wait ends (exit 1, not_responding) about stallAfter
// after the server stopped, whatever its timeout. A slow or busy server answers
// the death watch (every deathEvery) or writes output within stallAfter, either
// resetting the silence. The first line after a stall ends it, as a continued
// server answers what was asked, so a kept client (panectl mcp) serves again.

// stallAfter is how long a command may go unanswered, the server writing
// nothing, before the client counts it not responding: DefaultCallTimeout.
const stallAfter = DefaultCallTimeout

// checkStallLocked stalls the client when its oldest unanswered command was
// sent stallAfter ago with no line since (or for stallAfter after a later one).
// If it stalled just now, the caller broadcasts once k.mu, held, is released.
func (k *Control) checkStallLocked(now time.Time) bool {
	if k.stall != nil || len(k.pending) == 0 || k.closed {
		return false
	}
	// stalled is set before lastLine is read. A line the reader takes meanwhile
	// is seen here, or sees the flag and ends the stall (answering waits for
	// k.mu).
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

// stallError is the error of a command that waited when the client stalled.
func (k *Control) stallError() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stall == nil {
		// it answered again meanwhile, and the command's own answer is late
		return &NotRespondingError{Socket: k.socket, Command: "a command (through the control client)", After: stallAfter}
	}
	err := *k.stall
	return &err
}

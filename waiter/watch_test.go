package waiter

import (
	"testing"

	"github.com/panectl/panectl/tmux"
)

// A snapshot's output comes through the control client after every change
// it holds: the change signals pending then are dropped; later ones stay.
func TestSourceDropsSignalsASnapshotCovers(t *testing.T) {
	s := &source{ch: make(chan struct{}, 1), stop: make(chan struct{})}
	pending := func() bool {
		select {
		case <-s.ch:
			return true
		default:
			return false
		}
	}
	s.event(tmux.ControlEvent{Kind: tmux.EventOutput})
	s.event(tmux.ControlEvent{Kind: tmux.EventCommandDone})
	if pending() {
		t.Error("a change before a snapshot's output still signals")
	}
	s.event(tmux.ControlEvent{Kind: tmux.EventCommandDone})
	s.event(tmux.ControlEvent{Kind: tmux.EventOutput})
	if !pending() {
		t.Error("a change after a snapshot's output does not signal")
	}
	for _, k := range []tmux.ControlEventKind{tmux.EventPause, tmux.EventChange} {
		s.event(tmux.ControlEvent{Kind: k})
		if !pending() {
			t.Errorf("event kind %d does not signal", k)
		}
	}
	// while polling, the poll loop's signals are never dropped
	s.polling = true
	s.signal()
	s.event(tmux.ControlEvent{Kind: tmux.EventCommandDone})
	if !pending() {
		t.Error("a polling signal was dropped")
	}
}

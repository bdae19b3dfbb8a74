package supervise

import (
	"context"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter"
)

// follower keeps one pane's state. Its goroutine looks when the pane speaks.
type follower struct {
	s    *Supervisor
	stop context.CancelFunc
	wake chan struct{} // the pane may have changed (coalesced)

	mu     sync.Mutex
	pane   Pane
	exited bool // the exit was reported
	gone   bool // the close was reported; guarded by Supervisor.emitMu
}

func (f *follower) snapshot() Pane {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pane
}

// event gets the control client's events on its reading goroutine.
func (f *follower) event(e tmux.ControlEvent) {
	switch e.Kind {
	case tmux.EventCommandDone, tmux.EventDescribed:
		return // the follower's own capture
	case tmux.EventChange:
		f.s.relistSoon() // a layout, a window or a session changed
	}
	f.signal()
}

// sawRow takes the pane's row from a list: a pane dead without a word is looked at.
func (f *follower) sawRow(p tmux.PaneInfo) {
	f.mu.Lock()
	look := p.Dead && !f.exited
	f.mu.Unlock()
	if look {
		f.signal()
	}
}

func (f *follower) signal() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// run follows the pane until ctx ends or the pane is gone.
func (f *follower) run(ctx context.Context) {
	var sub *tmux.Subscription
	defer func() {
		if sub != nil {
			sub.Close()
		}
	}()
	via, ended, note := f.subscribe(ctx, &sub)
	settle := waiter.NewSettle(f.s.opt.Quiet)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ended:
			// The session ended (the list tells which panes went), or the client was detached
			// or moved: attach again.
			f.s.relistSoon()
			sub.Close()
			via, ended, note = f.subscribe(ctx, &sub)
		case <-f.wake:
		case <-timer.C:
		}
		wait, done := f.look(ctx, via, settle)
		if done {
			return
		}
		if note != "" && wait > pollEvery {
			wait = pollEvery
		}
		timer.Reset(wait)
		// at most one look per lookGap, however fast the pane writes
		select {
		case <-ctx.Done():
			return
		case <-time.After(lookGap):
		}
	}
}

// subscribe follows the pane through its session's kept control client: its snapshots, and
// the channel closed when that client ends. Where none can attach, the pane is polled once a
// second, and note says why. A silent death under remain-on-exit shows in the list (sawRow).
func (f *follower) subscribe(ctx context.Context, sub **tmux.Subscription) (tmux.Snapshotter, <-chan struct{}, string) {
	c, p := f.s.c, f.snapshot().Info
	*sub = nil
	var via tmux.Snapshotter = c
	var ended <-chan struct{}
	note := ""
	if tmux.WouldSendFocus(p) {
		note = "polling once a second: attaching would send the pane a focus-in event (focus-events is on and no client is attached)"
	} else if s, err := c.Subscribe(ctx, p, f.event); err != nil {
		note = "polling once a second: " + err.Error()
	} else {
		*sub, via, ended = s, s, s.Done()
	}
	f.mu.Lock()
	f.pane.Note = note
	f.mu.Unlock()
	return via, ended, note
}

// forever is a wait that only an event ends.
const forever = 24 * time.Hour

// look captures and classifies once. It returns how long until time alone could change the
// verdict, and whether the pane is done with (gone, or dead and reported).
func (f *follower) look(ctx context.Context, via tmux.Snapshotter, settle *waiter.Settle) (time.Duration, bool) {
	s, err := pane.CaptureScreenVia(ctx, via, f.snapshot().Info.ID, false)
	if err != nil {
		if gone(err) {
			f.s.relistSoon()
			return 0, true
		}
		return pollEvery, false // a stalled server: look again later
	}
	if s.Info.Dead && !s.Info.DeadKnown {
		// tmux sets the exit status a moment after pane_dead
		if p, err := f.s.c.AwaitDeadStatus(ctx, s.Info); err == nil {
			s.Info = p
		}
	}
	r, err := f.s.opt.Set.Classify(recognize.AutoID, waiter.ScreenFor(s))
	if err != nil {
		return pollEvery, false
	}
	now := time.Now()
	settled, since, wait := settle.Look(s, r, now)
	f.mu.Lock()
	old := f.pane
	f.pane.Info, f.pane.Recognizer, f.pane.Line = s.Info, r.Recognizer, lastLine(s.Rows)
	var events []Event
	switch {
	case s.Info.Dead && !f.exited:
		f.exited, f.pane.Settled = true, true // a dead pane changes no more
		events = append(events, Event{Kind: Exited, Pane: f.pane})
	case settled && (!old.Settled || old.State != r.State):
		f.pane.State, f.pane.Evidence, f.pane.Settled, f.pane.Since = r.State, r.Evidence, true, since
		e := Event{Kind: Changed, Pane: f.pane}
		if old.Settled {
			e.From = old.State // the first settled state is from none
		}
		events = append(events, e)
	case settled:
		f.pane.Evidence = r.Evidence
	case !old.Settled:
		f.pane.State, f.pane.Evidence, f.pane.Since = r.State, r.Evidence, since
	}
	dead := f.exited
	f.mu.Unlock()
	for _, e := range events {
		f.s.emit(f, e)
	}
	f.s.updated()
	if dead {
		return forever, false // nothing more comes from a dead pane but its close
	}
	if settled {
		return forever, false
	}
	return wait, false
}

// lastLine is the screen's last row with more than spaces, rules and box borders: those are no news.
func lastLine(rows []string) string {
	for i := len(rows) - 1; i >= 0; i-- {
		if strings.IndexFunc(rows[i], meaningful) >= 0 {
			return strings.TrimSpace(rows[i])
		}
	}
	return ""
}

// meaningful: r is not a space, and not of the Unicode blocks Box Drawing and Block Elements.
func meaningful(r rune) bool {
	return !unicode.IsSpace(r) && (r < 0x2500 || r > 0x259f)
}

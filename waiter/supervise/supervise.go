// Package supervise follows every pane of a tmux server at once (SPEC.md section 13). It keeps
// each pane's turn state, settled as wait-for-turn settles it (waiter.Settle), and reports
// changes: a pane created or closed, a state changed, a pane's program exited.
//
// Its tmux work is bounded. tmux sends %output only for panes of a control client's own session
// (tmux(1) CONTROL MODE). So the supervisor shares one kept control client per session among its
// panes (tmux.Client.KeepControl). A pane's output wakes its follower, which captures through
// that client and starts no process. One list-panes -a reads the pane set, at the start, after a
// layout or session change, and every second. That list also shows a pane that died silently
// under remain-on-exit: one command for the server, not one per session (tmux.Subscription.WatchDeath). Where a client cannot attach, a pane is
// captured once a second, and its Note says so. A state that changes with nothing written to
// the pane is seen at its next output.
package supervise

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/tmux"
)

// The kinds of Event.
const (
	Created = "pane_created"  // a pane appeared after the start
	Closed  = "pane_closed"   // a pane is gone
	Changed = "state_changed" // a settled state, the first one included (From "")
	Exited  = "pane_exited"   // the pane's program exited, the pane kept (remain-on-exit)
)

// Pane is what the supervisor knows of one pane.
type Pane struct {
	Info       tmux.PaneInfo // the pane's row, as of its last look
	Recognizer string        // the recognizer auto picked ("" before the first look)
	State      recognize.State
	Evidence   recognize.Evidence
	Settled    bool      // State is settled; before that it is the last look's
	Since      time.Time // when State was first seen without a break
	Line       string    // the last meaningful row of the screen
	Note       string    // how the pane is followed, when worth saying
}

// Event is one change. From is the state before a Changed.
type Event struct {
	Kind string
	Pane Pane
	From recognize.State
}

// Options configure a Supervisor.
type Options struct {
	Set   *recognize.Set
	Quiet time.Duration // the quiet window, as wait-for-turn's
	// Follow picks the panes to follow (nil: every pane). Others cost nothing.
	Follow func(tmux.PaneInfo) bool
	// Emit gets each event, one at a time, in order for any one pane.
	Emit func(Event)
}

// Periods of the supervisor's own looks.
const (
	relistEvery = time.Second            // the pane set, and deaths no notification tells
	relistGap   = 100 * time.Millisecond // the least time between two lists
	lookGap     = 40 * time.Millisecond  // the least time between two looks at one pane
	pollEvery   = time.Second            // a pane without a control client
)

// Supervisor follows the panes of one server. Run it once.
type Supervisor struct {
	c   *tmux.Client
	opt Options

	relist chan struct{} // a list is wanted soon (coalesced)
	change chan struct{} // something in Panes changed (coalesced)

	mu     sync.Mutex
	emitMu sync.Mutex // orders events; guards follower.gone
	panes  map[string]*follower
	listed bool // the first list is done
}

// New returns a supervisor of c's server. c should keep control clients (KeepControl).
func New(c *tmux.Client, opt Options) *Supervisor {
	return &Supervisor{
		c: c, opt: opt, panes: map[string]*follower{},
		relist: make(chan struct{}, 1), change: make(chan struct{}, 1),
	}
}

// Panes returns the followed panes, by session, window and pane index.
func (s *Supervisor) Panes() []Pane {
	s.mu.Lock()
	out := make([]Pane, 0, len(s.panes))
	for _, f := range s.panes {
		out = append(out, f.snapshot())
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Info, out[j].Info
		if a.SessionName != b.SessionName {
			return a.SessionName < b.SessionName
		}
		if a.WindowIndex != b.WindowIndex {
			return a.WindowIndex < b.WindowIndex
		}
		return a.PaneIndex < b.PaneIndex
	})
	return out
}

// Updated receives after Panes changed (coalesced).
func (s *Supervisor) Updated() <-chan struct{} { return s.change }

// Settled reports whether every pane of the first list has a settled state (or is gone).
func (s *Supervisor) Settled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.listed {
		return false
	}
	for _, f := range s.panes {
		if !f.snapshot().Settled {
			return false
		}
	}
	return true
}

// Run follows the panes until ctx ends (nil) or the server is gone (tmux.ErrNoServer). Other
// errors of a list are returned.
func (s *Supervisor) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	t := time.NewTicker(relistEvery)
	defer t.Stop()
	for {
		if err := s.list(ctx, &wg); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.relist:
		case <-t.C:
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(relistGap):
		}
	}
}

// list reads the pane set once, starts a follower for each new pane and stops those of gone ones.
func (s *Supervisor) list(ctx context.Context, wg *sync.WaitGroup) error {
	panes, _, err := s.c.ListPanes(ctx)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, p := range panes {
		if s.opt.Follow != nil && !s.opt.Follow(p) {
			continue
		}
		seen[p.ID] = true
		s.mu.Lock()
		f, known := s.panes[p.ID]
		first := !s.listed
		if known {
			f.sawRow(p)
		} else {
			f = &follower{s: s, wake: make(chan struct{}, 1), pane: Pane{Info: p}}
			s.panes[p.ID] = f
		}
		s.mu.Unlock()
		if known {
			continue
		}
		if !first {
			s.emit(nil, Event{Kind: Created, Pane: Pane{Info: p}}) // before any event of its follower
		}
		fctx, stop := context.WithCancel(ctx)
		f.stop = stop
		wg.Add(1)
		go func() { defer wg.Done(); f.run(fctx) }()
	}
	s.mu.Lock()
	s.listed = true
	var gone []*follower
	for id, f := range s.panes {
		if !seen[id] {
			gone = append(gone, f)
			delete(s.panes, id)
		}
	}
	s.mu.Unlock()
	for _, f := range gone {
		f.stop()
		s.emitMu.Lock()
		f.gone = true // nothing of its follower comes after the close
		s.emitMu.Unlock()
		s.emit(nil, Event{Kind: Closed, Pane: f.snapshot()})
	}
	s.updated()
	return nil
}

// emit hands e to Options.Emit, one event at a time. An event of a follower (from) whose pane
// was reported closed is dropped.
func (s *Supervisor) emit(from *follower, e Event) {
	s.emitMu.Lock()
	defer s.emitMu.Unlock()
	if s.opt.Emit != nil && (from == nil || !from.gone) {
		s.opt.Emit(e)
	}
	s.updated()
}

func (s *Supervisor) updated() {
	select {
	case s.change <- struct{}{}:
	default:
	}
}

func (s *Supervisor) relistSoon() {
	select {
	case s.relist <- struct{}{}:
	default:
	}
}

// gone reports whether err says the pane or the server is gone.
func gone(err error) bool {
	return errors.Is(err, tmux.ErrPaneNotFound) || errors.Is(err, tmux.ErrNoServer)
}

package waiter

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/panectl/panectl/tmux"
)

// Source tells a wait when a pane may have changed. A wait captures at the start and on Changed.
type Source interface {
	Changed() <-chan struct{} // receives when the pane may have changed (coalesced)
	Note() string             // how changes are detected, when worth saying ("polling: ...")
	Close()                   // stops watching; a control client of the wait's own is detached before Close returns (a kept one stays)
	// Via is the attached control client, nil while polling. Snapshots through it start no process
	// and are aligned with the change stream: a change before such a snapshot is in it and does not
	// signal.
	Via() tmux.Snapshotter
	// Process is the pane's process (pane_pid) when the watch began. Another means respawn-pane -k
	// replaced it, and the process waited on is gone with its output. The death watch signals
	// Changed within about half a second.
	Process() int
}

// Polling intervals: fast after the start or a change, slower while nothing happens.
const (
	pollMin = 20 * time.Millisecond
	pollMax = 250 * time.Millisecond
)

// Watch returns the change source for pane id. It subscribes through a control-mode client
// (tmux.Client.Subscribe): the session's kept client in a long-lived process, else one of its own.
// It reports the pane's output and death as they happen. A silent death under remain-on-exit, or
// respawn-pane -k, shows within about half a second (Subscription.WatchDeath). It reports a server
// gone or silent. About 5 s after the server stopped, looks fail with a *tmux.NotRespondingError.
// When the client cannot attach, the source polls at an adaptive interval and Note says so. Errors:
// tmux errors for a pane or server gone.
func Watch(ctx context.Context, c *tmux.Client, id string) (Source, error) {
	p, err := c.Pane(ctx, id)
	if err != nil {
		return nil, err
	}
	return WatchPane(ctx, c, p)
}

// WatchPane is Watch for a pane already described.
func WatchPane(ctx context.Context, c *tmux.Client, p tmux.PaneInfo) (Source, error) {
	return watchPane(ctx, c, p, false)
}

// watchPane is WatchPane. With record, the source keeps the events in order for the wait (take).
func watchPane(ctx context.Context, c *tmux.Client, p tmux.PaneInfo, record bool) (*source, error) {
	s := &source{ch: make(chan struct{}, 1), stop: make(chan struct{}), record: record, pid: p.PID}
	if tmux.WouldSendFocus(p) {
		s.poll("polling: control mode unavailable: attaching would send the pane a focus-in event (focus-events is on and no client is attached)")
		return s, nil
	}
	sub, err := c.Subscribe(ctx, p, s.event)
	if err != nil {
		if errors.Is(err, tmux.ErrNoServer) || ctx.Err() != nil {
			return nil, err
		}
		s.poll("polling: " + err.Error())
		return s, nil
	}
	sub.WatchDeath() // a silent death under remain-on-exit sends nothing else
	s.mu.Lock()
	s.sub = sub
	s.mu.Unlock()
	go func() {
		select {
		case <-s.stop:
		case <-sub.Done():
			// The session or server went away, or the client was killed. Look now; the capture
			// tells which. Then poll, in case the pane lives on in a window linked elsewhere.
			s.signal()
			s.poll("polling: control mode unavailable: the control client ended (" + sub.Reason() + ")")
		}
	}()
	return s, nil
}

// source is a control-mode subscription with a polling fallback.
type source struct {
	ch   chan struct{}
	stop chan struct{}
	once sync.Once
	sub  *tmux.Subscription
	pid  int // the pane's process when the watch began

	mu      sync.Mutex
	note    string
	polling bool

	// record keeps the events in order until the wait takes them.
	record bool
	qmu    sync.Mutex
	q      []tmux.ControlEvent
	qbytes int
	lost   bool // more output than maxQueue came before the wait took it
}

// maxQueue bounds a source's kept output. Beyond it output is dropped; the wait reads the pane.
const maxQueue = 4 << 20

// event handles a control-mode event on the client's reading goroutine. A snapshot's output comes
// after every change it holds. So a pending signal for them is dropped, and no redundant snapshot
// follows.
func (s *source) event(e tmux.ControlEvent) {
	if s.record {
		s.qmu.Lock()
		switch {
		case e.Kind == tmux.EventOutput && s.qbytes+len(e.Data) > maxQueue:
			s.lost = true
		case e.Kind == tmux.EventOutput:
			e.Data = append([]byte(nil), e.Data...)
			s.qbytes += len(e.Data)
			s.q = append(s.q, e)
		default:
			e.Line = ""
			s.q = append(s.q, e)
		}
		s.qmu.Unlock()
	}
	if e.Kind == tmux.EventCommandDone {
		s.mu.Lock()
		polling := s.polling
		s.mu.Unlock()
		if !polling {
			select {
			case <-s.ch:
			default:
			}
		}
		return
	}
	if s.record && e.DescribeFollows {
		return // the description that follows wakes the wait, with this output before it
	}
	s.signal()
}

// take returns the recorded events in order, and whether output was dropped for a late wait.
// throughDone stops at the last EventCommandDone and keeps the later ones.
func (s *source) take(throughDone bool) ([]tmux.ControlEvent, bool) {
	s.qmu.Lock()
	defer s.qmu.Unlock()
	n := len(s.q)
	if throughDone {
		n = 0
		for i, e := range s.q {
			if e.Kind == tmux.EventCommandDone {
				n = i + 1
			}
		}
	}
	out := append([]tmux.ControlEvent(nil), s.q[:n]...)
	for _, e := range out {
		s.qbytes -= len(e.Data)
	}
	lost := s.lost
	s.lost = false
	s.q = append(s.q[:0], s.q[n:]...)
	return out, lost
}

func (s *source) signal() {
	select {
	case s.ch <- struct{}{}:
	default:
	}
}

// poll starts the polling fallback (once) and records why.
func (s *source) poll(note string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.polling {
		return
	}
	s.polling, s.note = true, note
	go s.pollLoop()
}

func (s *source) pollLoop() {
	interval := pollMin
	t := time.NewTimer(interval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		s.signal()
		if interval < pollMax {
			interval = min(pollMax, interval+interval/2)
		}
		t.Reset(interval)
	}
}

func (s *source) Changed() <-chan struct{} { return s.ch }

func (s *source) Process() int { return s.pid }

func (s *source) Via() tmux.Snapshotter {
	if sub := s.subscription(); sub != nil {
		return sub
	}
	return nil
}

// subscription is the source's subscription while events come through it (nil while polling).
func (s *source) subscription() *tmux.Subscription {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sub == nil || s.polling {
		return nil
	}
	return s.sub
}

func (s *source) Note() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.note
}

func (s *source) Close() {
	s.once.Do(func() {
		close(s.stop)
		if s.sub != nil {
			s.sub.Close()
		}
	})
}

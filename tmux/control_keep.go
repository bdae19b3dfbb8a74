package tmux

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"
)

// A long-lived panectl process (the MCP server, watch, tasks --follow) keeps
// one control client per session attached between calls (KeepControl). The
// first wait on the session attaches it, and later ones share it with no
// attach, process or detach. It detaches after KeepIdle with no subscription or
// command, when its session or server goes, and at Close before the process
// exits. Read-only commands (pane lookups, captures, options) use it (RunList).

// DefaultKeepIdle is how long a kept control client stays attached with no use.
// It is short, since an attached client has a side effect no tmux flag turns
// off. A command from outside tmux that acts on "the current client" without
// naming one (switch-client, detach-client, display-message without -c) takes
// the last active client of the most recently active session, control clients
// included (cmd_find_best_client, tmux 3.3a cmd-find.c). A client's activity is
// its creation until it gets keys, and attaching makes its session the most
// recently active (server_client_set_session). So a kept client attached after
// the user last typed is that client (control.go). Attaching again costs the
// next call about 5 ms: in medians of 8, `run true` through panectl mcp took
// 11.6 ms against 7.2 ms warm, wait_for_text 5.3 ms against 1.2 ms.
const DefaultKeepIdle = 15 * time.Second

// keeper holds the kept clients of one Client.
type keeper struct {
	idle time.Duration

	mu       sync.Mutex
	sessions map[string]*kept // by session id
	closed   bool
}

// kept is one session's kept client.
type kept struct {
	k        *Control
	ready    chan struct{} // closed once attached (or failed: k nil, err set)
	err      error
	users    int       // open subscriptions
	lastUse  time.Time // the last subscription closed or command ran
	idleTime *time.Timer
}

// KeepControl makes c keep control clients attached between calls, detaching
// each after idle unused (0: DefaultKeepIdle). Call Close before exiting.
func (c *Client) KeepControl(idle time.Duration) {
	if idle <= 0 {
		idle = DefaultKeepIdle
	}
	c.keep = &keeper{idle: idle, sessions: map[string]*kept{}}
}

// Keeping reports whether c keeps control clients (KeepControl).
func (c *Client) Keeping() bool { return c.keep != nil }

// Close detaches every kept client at once, in parallel, and stops keeping. It
// is safe to call more than once, and on a client that keeps nothing.
func (c *Client) Close() {
	kp := c.keep
	if kp == nil {
		return
	}
	kp.mu.Lock()
	kp.closed = true
	var all []*Control
	for _, e := range kp.sessions {
		if e.idleTime != nil {
			e.idleTime.Stop()
		}
		if e.k != nil {
			all = append(all, e.k)
		}
	}
	kp.sessions = map[string]*kept{}
	kp.mu.Unlock()
	var wg sync.WaitGroup
	for _, k := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.Close()
		}()
	}
	wg.Wait()
}

// Subscribe subscribes to pane p's events (see Control.Subscribe) through a
// client on p's session: its kept client if c keeps them (attached if needed),
// else one of its own, detached by Close. ctx bounds the attach. A set p.PID is
// what the death watch compares with: a respawn is an EventChange. Errors are
// as for Control.
func (c *Client) Subscribe(ctx context.Context, p PaneInfo, fn func(ControlEvent)) (*Subscription, error) {
	if c.keep == nil {
		k, err := c.attachSession(ctx, p.SessionID, ControlOptions{}, &Subscription{PaneID: p.ID, pid: p.PID, fn: fn})
		if err != nil {
			return nil, err
		}
		k.PaneID = p.ID
		s := k.primary
		s.release = k.Close
		return s, nil
	}
	for try := 0; ; try++ {
		e, err := c.keep.get(ctx, c, p.SessionID)
		if err != nil {
			return nil, err
		}
		s, err := e.k.Subscribe(p.ID, fn)
		if errors.Is(err, ErrControlClosed) && try < 2 {
			c.keep.drop(p.SessionID, e)
			continue // it ended just now: attach another
		}
		if err != nil {
			c.keep.release(p.SessionID, e)
			return nil, err
		}
		s.release = func() { c.keep.release(p.SessionID, e) }
		e.k.mu.Lock()
		s.pid = p.PID
		e.k.mu.Unlock()
		return s, nil
	}
}

// KeepAttached makes sure a kept client is attached to session ("$N") for
// read-only commands, if c keeps them. Errors are the attach's.
func (c *Client) KeepAttached(ctx context.Context, session string) error {
	if c.keep == nil {
		return nil
	}
	e, err := c.keep.get(ctx, c, session)
	if err != nil {
		return err
	}
	c.keep.release(session, e)
	return nil
}

// get returns session's kept client with one more user, attaching it if needed.
func (kp *keeper) get(ctx context.Context, c *Client, session string) (*kept, error) {
	kp.mu.Lock()
	if kp.closed {
		kp.mu.Unlock()
		return nil, ErrControlClosed
	}
	e := kp.sessions[session]
	if e != nil && e.k != nil {
		select {
		case <-e.k.done:
			delete(kp.sessions, session) // ended (session gone, server gone)
			e = nil
		default:
		}
	}
	if e == nil {
		e = &kept{ready: make(chan struct{})}
		kp.sessions[session] = e
		e.users++
		kp.mu.Unlock()
		// the client outlives the attaching call: ctx bounds the attach only
		k, err := c.attachSession(ctx, session, ControlOptions{})
		if k != nil {
			// no call waits on its detach, so it can wait for tmux's goodbye
			k.mu.Lock()
			k.quick = false
			k.mu.Unlock()
		}
		kp.mu.Lock()
		e.k, e.err = k, err
		close(e.ready)
		if err != nil {
			if kp.sessions[session] == e {
				delete(kp.sessions, session)
			}
			kp.mu.Unlock()
			return nil, err
		}
		if kp.closed {
			kp.mu.Unlock()
			k.Close()
			return nil, ErrControlClosed
		}
		go kp.watchEnd(session, e)
		kp.mu.Unlock()
		return e, nil
	}
	e.users++
	if e.idleTime != nil {
		e.idleTime.Stop()
		e.idleTime = nil
	}
	kp.mu.Unlock()
	select {
	case <-e.ready:
	case <-ctx.Done():
		kp.release(session, e)
		return nil, ctx.Err()
	}
	if e.err != nil {
		kp.release(session, e)
		return nil, e.err
	}
	return e, nil
}

// watchEnd forgets a kept client once it has ended.
func (kp *keeper) watchEnd(session string, e *kept) {
	<-e.k.done
	kp.drop(session, e)
}

// drop forgets e if it is still session's kept client.
func (kp *keeper) drop(session string, e *kept) {
	kp.mu.Lock()
	defer kp.mu.Unlock()
	if kp.sessions[session] == e {
		delete(kp.sessions, session)
		if e.idleTime != nil {
			e.idleTime.Stop()
		}
	}
}

// release ends one user's hold on e; the last one starts the idle timer.
func (kp *keeper) release(session string, e *kept) {
	kp.mu.Lock()
	defer kp.mu.Unlock()
	e.users--
	e.lastUse = time.Now()
	if e.users > 0 || kp.sessions[session] != e || e.k == nil {
		return
	}
	kp.armIdle(session, e)
}

// armIdle detaches e after kp.idle with no use. kp.mu must be held.
func (kp *keeper) armIdle(session string, e *kept) {
	if e.idleTime != nil {
		e.idleTime.Stop()
	}
	e.idleTime = time.AfterFunc(kp.idle, func() {
		kp.mu.Lock()
		if kp.sessions[session] != e || e.users > 0 {
			kp.mu.Unlock()
			return
		}
		if left := kp.idle - time.Since(e.lastUse); left > 0 {
			e.idleTime.Reset(left) // used through RunList meanwhile
			kp.mu.Unlock()
			return
		}
		delete(kp.sessions, session)
		kp.mu.Unlock()
		e.k.Close()
	})
}

// any returns an attached kept client, marked used, or nil if there is none.
func (kp *keeper) any() *Control {
	kp.mu.Lock()
	defer kp.mu.Unlock()
	for _, e := range kp.sessions {
		if e.k == nil {
			continue
		}
		select {
		case <-e.k.done:
			continue
		default:
		}
		e.lastUse = time.Now()
		return e.k
	}
	return nil
}

// viaKept runs a list through a kept client when c keeps one and every command
// only reads (see commandLine). Else ok is false, and the caller starts a tmux
// process. The output is the commands' outputs concatenated, as tmux prints.
func (c *Client) viaKept(ctx context.Context, cmds []Command) (out string, ok bool, err error) {
	if c.keep == nil {
		return "", false, nil
	}
	k := c.keep.any()
	if k == nil {
		return "", false, nil
	}
	list := make([][]string, len(cmds))
	for i, cmd := range cmds {
		list[i] = cmd
	}
	if _, err := commandLine(list); err != nil {
		return "", false, nil
	}
	outs, err := k.Command(ctx, list...)
	if errors.Is(err, ErrControlClosed) {
		return "", false, nil // it ended just now: a process will do
	}
	if err != nil {
		var te *Error
		if errors.As(err, &te) {
			// as a tmux process reports it: the whole list's arguments
			te.Args = append([]string{"-S", c.Server.Socket}, CommandList(cmds).argv()...)
		}
		return "", true, err
	}
	return strings.Join(outs, ""), true, nil
}

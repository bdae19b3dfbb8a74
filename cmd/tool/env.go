package tool

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/tmux"
)

// Env is what a tool body needs: the server flags and a lazily built tmux
// client (so `panectl version` never looks for tmux).
type Env struct {
	SocketName string // -L
	SocketPath string // -S

	// KeepControl: the command is a long-lived process (mcp, watch, tasks
	// --follow). Its tmux client keeps control clients attached between
	// calls (tmux.Client.KeepControl). Close detaches them, as does KeepIdle
	// with no use (0: tmux.DefaultKeepIdle).
	KeepControl bool
	KeepIdle    time.Duration

	// NoCursor: the caller prints no cursor (the CLI's plain output of a
	// wait or run), so a long cursor's record is not saved on the pane
	// and the result's cursor is empty.
	NoCursor bool

	mu     sync.Mutex
	client *tmux.Client
	parent *Env // a tool call's Env uses its server's client
}

// Share makes e an Env for one tool call of a long-lived process (mcp):
// parent's server flags and tmux client (one `tmux -V`, shared kept
// control clients).
func (e *Env) Share(parent *Env) {
	e.SocketName, e.SocketPath, e.parent = parent.SocketName, parent.SocketPath, parent
}

// Client returns the tmux client for the resolved server. There is one
// per process: the tool calls of an MCP server share their server's.
func (e *Env) Client() (*tmux.Client, error) {
	if e.parent != nil {
		return e.parent.Client()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.client != nil {
		return e.client, nil
	}
	srv, err := tmux.ResolveServer(e.SocketName, e.SocketPath, nil)
	if errors.Is(err, tmux.ErrUnsafeSocket) {
		return nil, err
	}
	if err != nil {
		return nil, Usage(err)
	}
	c, err := tmux.NewClient(srv)
	if err != nil {
		return nil, err
	}
	// panectl exits right after its command: a control client detaches
	// without waiting for tmux's goodbye (the process's exit closes it)
	c.QuickDetach = true
	if e.KeepControl {
		c.KeepControl(e.KeepIdle)
	}
	e.client = c
	return c, nil
}

// Close detaches the control clients the command kept (see KeepControl).
func (e *Env) Close() {
	e.mu.Lock()
	c := e.client
	e.mu.Unlock()
	if c != nil {
		c.Close()
	}
}

// Pane resolves a pane argument (id, target, or task id tN) on the server.
func (e *Env) Pane(ctx context.Context, target string) (*tmux.Client, tmux.PaneInfo, error) {
	c, err := e.Client()
	if err != nil {
		return nil, tmux.PaneInfo{}, err
	}
	if target == "" {
		return nil, tmux.PaneInfo{}, Usagef("a pane is required: give its id, e.g. %%1 (see: panectl list)")
	}
	if task.IsTaskID(target) { // a background task names its pane (SPEC.md section 8)
		if t, err := task.LoadTask(ctx, c, target); err == nil && t.Pane.ID != "" {
			return c, t.Pane, nil
		}
	}
	p, err := c.ResolvePane(ctx, target)
	return c, p, err
}

// PaneOrID is Pane for a target that needs looking up. A pane id (%N) is
// returned as it is (p.ID only, normalized), with no tmux call: the
// command's first snapshot describes the pane (and reports an unknown one).
func (e *Env) PaneOrID(ctx context.Context, target string) (*tmux.Client, tmux.PaneInfo, error) {
	if n, ok := strings.CutPrefix(target, "%"); ok {
		if v, err := strconv.Atoi(n); err == nil && v >= 0 && n != "" && n[0] != '+' {
			c, err := e.Client()
			if err != nil {
				return nil, tmux.PaneInfo{}, err
			}
			return c, tmux.PaneInfo{ID: "%" + strconv.Itoa(v)}, nil
		}
	}
	return e.Pane(ctx, target)
}

// keepAttached keeps a control client attached to p's session for the rest
// of the command (Close detaches it), for commands that look at a pane
// many times (run, send-text --submit). The action lock, the preflight and
// every look then go through it, not through a tmux process each. No
// client is attached where it would send the pane a focus-in event
// (tmux.WouldSendFocus); a failed attach leaves the looks to processes.
func keepAttached(ctx context.Context, c *tmux.Client, p tmux.PaneInfo) {
	if tmux.WouldSendFocus(p) || p.SessionID == "" {
		return
	}
	if !c.Keeping() {
		c.KeepControl(tmux.DefaultKeepIdle)
	}
	_ = c.KeepAttached(ctx, p.SessionID)
}

// SetClient makes c the Env's tmux client (the demo's private server).
func (e *Env) SetClient(c *tmux.Client) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.client = c
}

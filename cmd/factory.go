package cmd

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/tmux"
)

// IOStreams are the command's standard streams and whether they are terminals.
type IOStreams struct {
	In          io.Reader
	Out, ErrOut io.Writer
	OutTTY      bool
	ErrTTY      bool
	// ErrColor: stderr is a terminal that may get colour ($NO_COLOR empty,
	// $TERM not "dumb").
	ErrColor bool
}

// Factory carries what commands need: streams, the global flags, and a
// lazily built tmux client (so `panectl version` never looks for tmux).
type Factory struct {
	IO         IOStreams
	SocketName string // -L
	SocketPath string // -S
	JSON       bool   // --json

	// KeepControl: the command is a long-lived process (mcp, watch, tasks
	// --follow): its tmux client keeps control clients attached between
	// calls (tmux.Client.KeepControl), detached by Close, and after
	// KeepIdle with no use (0: tmux.DefaultKeepIdle).
	KeepControl bool
	KeepIdle    time.Duration

	clientMu      sync.Mutex
	client        *tmux.Client
	parent        *Factory // a tool call's factory uses its server's client
	progressShown bool
	// outlivesSignals: the running command handles SIGINT and SIGTERM
	// itself and must not be ended by them (the task supervisor).
	outlivesSignals atomic.Bool
}

// NewFactory returns a Factory on the process's standard streams.
func NewFactory() *Factory {
	errTTY := isTerminal(os.Stderr)
	return &Factory{IO: IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutTTY: isTerminal(os.Stdout), ErrTTY: errTTY,
		ErrColor: errTTY && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb",
	}}
}

// Client returns the tmux client for the resolved server (one per
// process: the tool calls of an MCP server share their server's, with its
// kept control clients).
func (f *Factory) Client() (*tmux.Client, error) {
	if f.parent != nil {
		return f.parent.Client()
	}
	f.clientMu.Lock()
	defer f.clientMu.Unlock()
	if f.client != nil {
		return f.client, nil
	}
	srv, err := tmux.ResolveServer(f.SocketName, f.SocketPath, nil)
	if err != nil {
		return nil, usageErr(err)
	}
	c, err := tmux.NewClient(srv)
	if err != nil {
		return nil, err
	}
	// panectl exits right after its command: a control client detaches
	// without waiting for tmux's goodbye (the process's exit closes it)
	c.QuickDetach = true
	if f.KeepControl {
		c.KeepControl(f.KeepIdle)
	}
	f.client = c
	return c, nil
}

// Close detaches the control clients the command kept (see KeepControl).
// Main calls it before panectl exits.
func (f *Factory) Close() {
	f.clientMu.Lock()
	c := f.client
	f.clientMu.Unlock()
	if c != nil {
		c.Close()
	}
}

// Pane resolves a pane argument (id, target, or task id tN) on the server.
func (f *Factory) Pane(ctx context.Context, target string) (*tmux.Client, tmux.PaneInfo, error) {
	c, err := f.Client()
	if err != nil {
		return nil, tmux.PaneInfo{}, err
	}
	if target == "" {
		return nil, tmux.PaneInfo{}, usageErrorf("a pane is required: give its id, e.g. %%1 (see: panectl list)")
	}
	if task.IsTaskID(target) { // a background task names its pane (SPEC.md section 8)
		if t, err := task.LoadTask(ctx, c, target); err == nil && t.Pane.ID != "" {
			return c, t.Pane, nil
		}
	}
	p, err := c.ResolvePane(ctx, target)
	return c, p, err
}

// keepAttached keeps a control client attached to p's session for the rest
// of the command (Main's Close detaches it), for commands that look at a
// pane many times (run, send-text --submit): the action lock, the preflight
// and every look then go through it, not through a tmux process each. No
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

// paneOrID is Pane for a target that needs looking up; a pane id (%N) is
// returned as it is (p.ID only, normalized), with no tmux call: the
// command's first snapshot describes the pane (and reports an unknown one).
func (f *Factory) paneOrID(ctx context.Context, target string) (*tmux.Client, tmux.PaneInfo, error) {
	if n, ok := strings.CutPrefix(target, "%"); ok {
		if v, err := strconv.Atoi(n); err == nil && v >= 0 && n != "" && n[0] != '+' {
			c, err := f.Client()
			if err != nil {
				return nil, tmux.PaneInfo{}, err
			}
			return c, tmux.PaneInfo{ID: "%" + strconv.Itoa(v)}, nil
		}
	}
	return f.Pane(ctx, target)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

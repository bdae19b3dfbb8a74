package cmd

import (
	"context"
	"io"
	"os"
	"sync/atomic"

	"github.com/panectl/panectl/pane"
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

	client        *tmux.Client
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

// Client returns the tmux client for the resolved server.
func (f *Factory) Client() (*tmux.Client, error) {
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
	f.client = c
	return c, nil
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
	if pane.IsTaskID(target) { // a background task names its pane (SPEC.md section 8)
		if t, err := pane.LoadTask(ctx, c, target); err == nil && t.Pane.ID != "" {
			return c, t.Pane, nil
		}
	}
	p, err := c.ResolvePane(ctx, target)
	return c, p, err
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

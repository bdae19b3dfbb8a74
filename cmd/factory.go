package cmd

import (
	"io"
	"os"
	"sync/atomic"

	"github.com/panectl/panectl/cmd/tool"
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

// Factory carries what commands need: streams, the global flags, and the
// tool environment (the server flags and a lazily built tmux client).
type Factory struct {
	IO   IOStreams
	JSON bool // --json
	// Host is -H: run the command there over ssh (remote.go).
	Host string
	// hostEnv is $PANECTL_HOST, read by Main only: a call served by
	// remote-exec never goes on to another host.
	hostEnv string
	tool.Env

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

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

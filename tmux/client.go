package tmux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"
)

// Client runs tmux commands against one server. It is the only place in
// panectl that starts tmux processes. Every command gets "-S socket" so the
// server never depends on the caller's environment.
type Client struct {
	Server Server
	Bin    string // path of the tmux binary
	// QuickDetach: the process ends right after its command, so a control
	// client's Close does not wait for tmux's exit handshake (see
	// Control.Close). The CLI sets it; a process that goes on leaves it off.
	QuickDetach bool

	keep *keeper // kept control clients (KeepControl), nil when none are kept
	// silent: the last tmux command that ended (a process or one through
	// a control client) got no answer within its deadline (Answering);
	// 1 or 0, atomic (not an atomic.Bool: tests copy a Client to get a
	// second one).
	silent int32
}

// NewClient finds tmux ($PANECTL_TMUX or tmux on $PATH) and checks that it is
// at least MinVersion (`tmux -V`, remembered per binary in a cache file:
// version_cache.go). Errors: ErrNotInstalled, ErrTooOld (with how to
// install).
func NewClient(s Server) (*Client, error) {
	bin := os.Getenv("PANECTL_TMUX")
	if bin == "" {
		bin = "tmux"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("%w: %q not found on $PATH; install it (Debian/Ubuntu: apt-get install tmux; macOS: brew install tmux)", ErrNotInstalled, bin)
	}
	v, err := cachedVersion(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s -V failed: %v", ErrNotInstalled, path, err)
	}
	if !VersionAtLeast(v, MinVersion) {
		return nil, fmt.Errorf("%w: %s is %q, panectl needs tmux %s or newer (Debian/Ubuntu: apt-get install tmux; macOS: brew install tmux)", ErrTooOld, path, v, MinVersion)
	}
	versions.Store(path, v)
	return &Client{Server: s, Bin: path}, nil
}

// Deadlines of tmux processes. Every tmux process panectl starts runs
// under the operation's context and is also bounded on its own: it gets at
// most DefaultCallTimeout (or the operation's deadline when that comes
// sooner). A server that has not answered by then (stopped with SIGSTOP,
// hung, or a socket that accepts connections and never answers) is a
// *NotRespondingError. Only WaitFor, which blocks by design, runs without
// DefaultCallTimeout (its context bounds it), and a Guard outlives panectl
// on purpose.
const (
	// DefaultCallTimeout bounds one tmux command (and one command through
	// a control client). A healthy server answers in milliseconds.
	DefaultCallTimeout = 5 * time.Second
	// waitDelay bounds how long Wait waits for a tmux client's pipes
	// after the process has exited or been killed. The client hands its
	// stdin and stdout to the server (tmux passes them as file
	// descriptors), so a stopped server keeps them open: without this
	// bound, Wait would block until the server resumes. (Commands get
	// files, not pipes, output.go: this bounds the guard and control
	// clients' pipes.)
	waitDelay = 200 * time.Millisecond
)

// command builds an exec.Cmd for tmux with the server's socket. args are
// tmux arguments as they go on the command line (already through Arg).
func (c *Client) command(ctx context.Context, args ...string) *exec.Cmd {
	full := append([]string{"-u", "-S", c.Server.Socket}, args...)
	cmd := exec.CommandContext(ctx, c.Bin, full...)
	cmd.Env = tmuxEnv()
	cmd.WaitDelay = waitDelay
	return cmd
}

// tmuxEnv is the environment for tmux children: $TMUX removed so a nested
// invocation never talks to the caller's server by accident (we pass -S).
func tmuxEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, e := range env {
		if strings.HasPrefix(e, "TMUX=") || strings.HasPrefix(e, "TMUX_PANE=") {
			continue
		}
		out = append(out, e)
	}
	return out
}

// Run runs one tmux command (tmux(1), COMMANDS): its name and arguments,
// each argument passed on unchanged (Arg). It returns the command's stdout.
// A failure is a *Error carrying tmux's stderr; it unwraps to ErrNoServer
// or ErrPaneNotFound when tmux's message says so. A server that does not
// answer within the call's deadline is a *NotRespondingError; ctx
// cancelled is ctx.Err().
func (c *Client) Run(ctx context.Context, name string, args ...string) (string, error) {
	return c.RunList(ctx, nil, append(Command{name}, args...))
}

// RunList runs a command list in one tmux process (see CommandList), with
// stdin (nil: none) on tmux's standard input (load-buffer -, source-file -).
// Errors as Run.
//
// A list of commands that only read (display-message -p, capture-pane -p,
// show-options, list-panes ...) runs through a kept control client when c
// keeps one (KeepControl): no tmux process is started, and the output and
// errors are those of the process.
func (c *Client) RunList(ctx context.Context, stdin []byte, cmds ...Command) (string, error) {
	if stdin == nil {
		if out, ok, err := c.viaKept(ctx, cmds); ok {
			return out, err
		}
	}
	return c.exec(ctx, stdin, DefaultCallTimeout, CommandList(cmds).argv())
}

// exec runs tmux with args (already through Arg) under ctx and, when limit
// > 0, a deadline of limit.
func (c *Client) exec(ctx context.Context, stdin []byte, limit time.Duration, args []string) (string, error) {
	callCtx, cancel := ctx, context.CancelFunc(func() {})
	if limit > 0 {
		callCtx, cancel = context.WithTimeout(ctx, limit)
	}
	defer cancel()
	started := time.Now()
	cmd := c.command(callCtx, args...)
	files, err := attachStreams(cmd, stdin) // (output.go: files, not pipes)
	if err != nil {
		return "", err
	}
	defer files.close()
	err = cmd.Run()
	if err == nil {
		atomic.StoreInt32(&c.silent, 0)
		return read(files.out), nil
	}
	if ctx.Err() == context.Canceled || (limit <= 0 && ctx.Err() != nil) {
		return "", ctx.Err()
	}
	if callCtx.Err() != nil {
		atomic.StoreInt32(&c.silent, 1)
		return "", &NotRespondingError{Socket: c.Server.Socket, Command: commandName(args), After: time.Since(started).Round(time.Millisecond)}
	}
	atomic.StoreInt32(&c.silent, 0) // it answered, with an error
	te := &Error{Args: append([]string{"-S", c.Server.Socket}, args...), ExitCode: -1, Stderr: strings.TrimSpace(read(files.err))}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		te.ExitCode = ee.ExitCode()
	} else if te.Stderr == "" {
		te.Stderr = err.Error()
	}
	te.kind = classify(te.Stderr)
	if te.kind == ErrNoServer {
		return "", &NoServerError{Socket: c.Server.Socket, Stderr: te.Stderr, From: c.Server.From}
	}
	return "", te
}

// Answering reports whether the server answered the last tmux command of
// c that ended: false after a *NotRespondingError, until a command gets an
// answer again. Cleanups consult it (CleanupContext): waiting on a server
// that just did not answer would only delay panectl's exit.
func (c *Client) Answering() bool { return atomic.LoadInt32(&c.silent) == 0 }

// cleanupFloor is the least time CleanupContext gives a cleanup (when the
// server answers): an operation that used up its time still puts back what
// it changed.
const cleanupFloor = 250 * time.Millisecond

// CleanupContext is the context for the tmux calls that clean up after an
// operation that ran under ctx (putting back a pane's options, releasing
// its action lock, pressing C-c in a pane whose command is abandoned): it
// is not cancelled with ctx, so an interrupted or timed-out operation still
// cleans up; it ends after limit, or at ctx's deadline when that comes
// sooner, though not sooner than cleanupFloor from now. When the server
// did not answer c's last command (Answering), it has ended already: the
// cleanup is left undone (what a guard or a lease puts right on its own)
// rather than waiting again for a server that does not answer.
func (c *Client) CleanupContext(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if !c.Answering() {
		limit = 0
	} else if d, ok := ctx.Deadline(); ok {
		limit = min(limit, max(time.Until(d), cleanupFloor))
	}
	return context.WithTimeout(context.WithoutCancel(ctx), limit)
}

// commandName names a command list by its commands ("display-message",
// "set-option;send-keys").
func commandName(args []string) string {
	var names []string
	next := true
	for _, a := range args {
		if next {
			names = append(names, a)
		}
		next = a == ";"
	}
	return strings.Join(names, ";")
}

// KillServer kills the server (kill-server) and removes its socket file,
// which tmux leaves behind.
func (c *Client) KillServer(ctx context.Context) error {
	if _, err := c.runSerialized(ctx, Command{"kill-server"}); err != nil && !errors.Is(err, ErrNoServer) {
		return err
	}
	removeSocketLock(c.Server.Socket) // (socketlock.go)
	if st, err := os.Lstat(c.Server.Socket); err != nil || st.Mode().Type() != os.ModeSocket {
		return nil // gone, or not a socket: nothing of tmux's to remove
	}
	if err := os.Remove(c.Server.Socket); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// WaitFor blocks until another client signals the channel (tmux(1),
// wait-for), ctx ends (ctx.Err()), or the server goes away. A signal sent
// while nobody waited wakes the next WaitFor at once (tmux marks the
// channel woken). It blocks by design, so only ctx bounds it.
func (c *Client) WaitFor(ctx context.Context, channel string) error {
	_, err := c.exec(ctx, nil, 0, CommandList{{"wait-for", channel}}.argv())
	return err
}

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

	"github.com/panectl/panectl/tmux/socketlock"
	"github.com/panectl/panectl/tmux/versioncache"
)

// Client runs tmux commands against one server. Only it starts tmux processes,
// and each names its server with -S, never through the caller's environment.
type Client struct {
	Server Server
	Bin    string // path of the tmux binary
	// QuickDetach: the process ends right after its command, so Control.Close
	// skips tmux's exit handshake. The CLI sets it.
	QuickDetach bool

	keep *keeper // kept control clients (KeepControl), nil when none are kept
	// silent: c's last tmux command got no answer in time (Answering). 1 or 0,
	// atomic, not an atomic.Bool: tests copy a Client to get a second one.
	silent int32
}

// NewClient finds tmux ($PANECTL_TMUX, or tmux on $PATH) and checks that its
// cached `tmux -V` is at least MinVersion (version_cache.go). Errors are
// ErrNotInstalled and ErrTooOld, with how to install.
func NewClient(s Server) (*Client, error) {
	bin := os.Getenv("PANECTL_TMUX")
	if bin == "" {
		bin = "tmux"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("%w: %q not found on $PATH; install it (Debian/Ubuntu: apt-get install tmux; macOS: brew install tmux)", ErrNotInstalled, bin)
	}
	v, err := versioncache.Lookup(path, binaryVersion)
	if err != nil {
		return nil, fmt.Errorf("%w: %s -V failed: %v", ErrNotInstalled, path, err)
	}
	if !VersionAtLeast(v, MinVersion) {
		return nil, fmt.Errorf("%w: %s is %q, panectl needs tmux %s or newer (Debian/Ubuntu: apt-get install tmux; macOS: brew install tmux)", ErrTooOld, path, v, MinVersion)
	}
	versions.Store(path, v)
	return &Client{Server: s, Bin: path}, nil
}

// Deadlines of tmux processes. Each runs under the operation's context for at
// most DefaultCallTimeout or its sooner deadline. A server silent by then
// (SIGSTOP, hung, a socket that never answers) is a *NotRespondingError. Only
// WaitFor blocks by design, and a Guard outlives panectl on purpose.
const (
	// DefaultCallTimeout bounds one tmux command, also one through a control
	// client. A healthy server answers in milliseconds.
	DefaultCallTimeout = 5 * time.Second
	// waitDelay bounds Wait's wait for a tmux client's pipes after it ended.
	// tmux passes the client's stdin and stdout to the server, so a stopped
	// server keeps them open. Commands get files (output.go), so this is for
	// the guard and control clients.
	waitDelay = 200 * time.Millisecond
)

// command builds an exec.Cmd for tmux with the socket. args are through Arg.
func (c *Client) command(ctx context.Context, args ...string) *exec.Cmd {
	full := append([]string{"-u", "-S", c.Server.Socket}, args...)
	cmd := exec.CommandContext(ctx, c.Bin, full...)
	cmd.Env = tmuxEnv()
	cmd.WaitDelay = waitDelay
	return cmd
}

// tmuxEnv is the environment for tmux children without $TMUX, so a nested call
// never reaches the caller's server by accident.
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

// Run runs one tmux command (tmux(1), COMMANDS), each argument unchanged (Arg),
// and returns its stdout. A failure is a *Error with tmux's stderr, unwrapping
// to ErrNoServer or ErrPaneNotFound when tmux's message says so. A server that
// does not answer in time is a *NotRespondingError, a cancelled ctx ctx.Err().
func (c *Client) Run(ctx context.Context, name string, args ...string) (string, error) {
	return c.RunList(ctx, nil, append(Command{name}, args...))
}

// RunList runs a command list (CommandList) in one tmux process, stdin on its
// standard input (load-buffer -, source-file -), errors as Run's. A read-only
// list goes through a kept client if any (KeepControl), else through a client
// of panectl's own for the one list (runOwn): same result, no process.
func (c *Client) RunList(ctx context.Context, stdin []byte, cmds ...Command) (string, error) {
	if stdin == nil {
		if out, ok, err := c.viaKept(ctx, cmds); ok {
			return out, err
		}
		if out, ok, err := c.runOwn(ctx, cmds); ok {
			return out, err
		}
	}
	return c.exec(ctx, stdin, DefaultCallTimeout, CommandList(cmds).argv())
}

// exec runs tmux with args under ctx and, when limit > 0, a deadline of limit.
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

// Answering reports whether the server answered c's last ended tmux command:
// false after a *NotRespondingError until an answer comes. Cleanups consult it
// (CleanupContext), since waiting again would only delay panectl's exit.
func (c *Client) Answering() bool { return atomic.LoadInt32(&c.silent) == 0 }

// cleanupFloor is the least time CleanupContext gives a cleanup while the
// server answers, so an operation out of time still puts back what it changed.
const cleanupFloor = 250 * time.Millisecond

// CleanupContext is the context for tmux calls that clean up after an operation
// under ctx: putting back pane options, releasing the action lock, pressing C-c
// for an abandoned command. It is not cancelled with ctx, so an interrupted or
// timed-out operation still cleans up. It ends after limit or at ctx's
// deadline, not before cleanupFloor. If the server did not answer c's last
// command (Answering), it is over already, for a guard or lease to put right.
func (c *Client) CleanupContext(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if !c.Answering() {
		limit = 0
	} else if d, ok := ctx.Deadline(); ok {
		limit = min(limit, max(time.Until(d), cleanupFloor))
	}
	return context.WithTimeout(context.WithoutCancel(ctx), limit)
}

// commandName names a list by its commands ("set-option;send-keys").
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

// KillServer kills the server and removes the socket file tmux leaves behind.
func (c *Client) KillServer(ctx context.Context) error {
	if _, err := c.runSerialized(ctx, Command{"kill-server"}); err != nil && !errors.Is(err, ErrNoServer) {
		return err
	}
	socketlock.Remove(c.Server.Socket) // (socketlock.go)
	if st, err := os.Lstat(c.Server.Socket); err != nil || st.Mode().Type() != os.ModeSocket {
		return nil // gone, or not a socket: nothing of tmux's to remove
	}
	if err := os.Remove(c.Server.Socket); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// WaitFor blocks until another client signals the channel (tmux(1), wait-for),
// ctx ends, or the server goes. A signal sent while nobody waited wakes the
// next WaitFor at once, since tmux marks the channel woken. Only ctx bounds it.
func (c *Client) WaitFor(ctx context.Context, channel string) error {
	_, err := c.exec(ctx, nil, 0, CommandList{{"wait-for", channel}}.argv())
	return err
}

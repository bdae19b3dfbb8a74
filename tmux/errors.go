package tmux

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Sentinel errors. A *Error from a tmux command unwraps to one of these when
// tmux's own message says so; match them with errors.Is.
var (
	// ErrNotInstalled: no tmux binary on $PATH (or $PANECTL_TMUX).
	ErrNotInstalled = errors.New("tmux is not installed")
	// ErrTooOld: the tmux binary is older than MinVersion.
	ErrTooOld = errors.New("tmux is too old")
	// ErrNoServer: no tmux server listens on the resolved socket.
	ErrNoServer = errors.New("no tmux server")
	// ErrPaneNotFound: the target pane (or session/window) does not exist.
	ErrPaneNotFound = errors.New("no such pane")
	// ErrAmbiguousTarget: a session:window.pane target names more than one pane.
	ErrAmbiguousTarget = errors.New("ambiguous target")
	// ErrPaneExited: the pane or its process was gone before the operation
	// finished, e.g. a new pane whose command exited at once.
	ErrPaneExited = errors.New("the pane exited")
	// ErrUnsupported: the server's tmux cannot do what was asked. The message
	// names the version and the one that would.
	ErrUnsupported = errors.New("not supported by this tmux")
	// ErrNotResponding: the server did not answer a command in time.
	ErrNotResponding = errors.New("tmux server not responding")
	// ErrNotSocket: the socket path exists and is no socket, which panectl will
	// not let tmux replace.
	ErrNotSocket = errors.New("not a socket")
	// ErrSocketPath: no server can start at the socket path: its directory is
	// missing or unwritable, or the path too long for a socket.
	ErrSocketPath = errors.New("unusable socket path")
)

// Error is a failed tmux command: the argument vector, tmux's exit code and
// tmux's own message on stderr, kept verbatim.
type Error struct {
	Args     []string // arguments after the tmux binary
	ExitCode int      // tmux's exit status (-1 when it could not start)
	Stderr   string   // tmux's message, trimmed
	kind     error    // sentinel this failure means, or nil
}

// Error is "tmux COMMAND: tmux's own message", or the exit status if silent.
func (e *Error) Error() string {
	msg := e.Stderr
	if msg == "" {
		msg = fmt.Sprintf("exit status %d", e.ExitCode)
	}
	name := ""
	if len(e.Args) > 0 {
		name = e.Args[0]
		// skip the socket flags to name the tmux command itself
		for i := 0; i+1 < len(e.Args) && (e.Args[i] == "-S" || e.Args[i] == "-L" || e.Args[i] == "-f"); i += 2 {
			if i+2 < len(e.Args) {
				name = e.Args[i+2]
			}
		}
	}
	return fmt.Sprintf("tmux %s: %s", name, msg)
}

// Unwrap returns the sentinel (ErrNoServer, ErrPaneNotFound, ...) that tmux's
// message means, so errors.Is works on a *Error.
func (e *Error) Unwrap() error { return e.kind }

// classify maps tmux's stderr to a sentinel. The strings are tmux 3.x's own
// messages (cmd-find.c, client.c).
func classify(stderr string) error {
	switch {
	case strings.Contains(stderr, "no server running on"),
		strings.Contains(stderr, "error connecting to"),
		strings.Contains(stderr, "server exited unexpectedly"),
		strings.Contains(stderr, "lost server"):
		return ErrNoServer
	case strings.Contains(stderr, "can't find pane"),
		strings.Contains(stderr, "can't find window"),
		strings.Contains(stderr, "can't find session"),
		strings.Contains(stderr, "no such pane"),
		strings.Contains(stderr, "no such session"), // show-options -t
		strings.Contains(stderr, "no current target"):
		return ErrPaneNotFound
	}
	return nil
}

// NotFoundError names a pane (or target) that does not exist on the server.
type NotFoundError struct {
	Target string
	Socket string
	Kind   string // what Target names: "" a pane (or target), "session"
}

// Error names the target and the server's socket.
func (e *NotFoundError) Error() string {
	if e.Kind == "session" {
		return fmt.Sprintf("no such session %q on the tmux server at %s (session names are matched exactly; list them with: %s)", e.Target, e.Socket, listCommand(e.Socket))
	}
	return fmt.Sprintf("no such pane %q on the tmux server at %s (list panes with: %s)", e.Target, e.Socket, listCommand(e.Socket))
}

// listCommand is the panectl list that lists the server at socket.
func listCommand(socket string) string {
	dir, name := filepath.Split(socket)
	switch {
	case filepath.Clean(dir) != socketDir(os.Getenv):
		return "panectl -S " + socket + " list"
	case name == "default":
		return "panectl list"
	}
	return "panectl -L " + name + " list"
}

// sessionNotFound turns tmux's "can't find session" for new --window-in into a
// *NotFoundError that says session.
func (c *Client) sessionNotFound(name string, err error) error {
	if errors.Is(err, ErrPaneNotFound) {
		return &NotFoundError{Target: name, Socket: c.Server.Socket, Kind: "session"}
	}
	return err
}

// Unwrap returns ErrPaneNotFound.
func (e *NotFoundError) Unwrap() error { return ErrPaneNotFound }

// NoServerError says which socket was tried.
type NoServerError struct {
	Socket string
	Stderr string
	From   string // how the socket was chosen (Server.From); "" if unknown
}

// Error names the socket tried, tmux's message and how to start one: panectl's
// new, which refuses a non-socket path (tmux would replace any file there).
func (e *NoServerError) Error() string {
	start := fmt.Sprintf("panectl -S %s new", e.Socket)
	if e.From == "-L" {
		start = fmt.Sprintf("panectl -L %s new", filepath.Base(e.Socket))
	}
	return fmt.Sprintf("no tmux server at %s (%s); start one with `%s`, or pass -L/-S to name another", e.Socket, e.Stderr, start)
}

// Unwrap returns ErrNoServer.
func (e *NoServerError) Unwrap() error { return ErrNoServer }

// NotRespondingError: the server did not answer a tmux command in time. The
// socket accepted, but the server is stopped (SIGSTOP), hung, or not tmux.
type NotRespondingError struct {
	Socket  string
	Command string        // the tmux command(s) that got no answer
	After   time.Duration // how long panectl waited
	Note    string        // what may still happen when it answers ("" when nothing)
}

// Error names the socket, the command and how long panectl waited.
func (e *NotRespondingError) Error() string {
	msg := fmt.Sprintf("the tmux server at %s is not responding (tmux %s got no answer within %v); is it stopped (kill -STOP) or hung? `kill -CONT` its pid, or pass -L/-S to use another server", e.Socket, e.Command, e.After)
	if e.Note != "" {
		msg += "; " + e.Note
	}
	return msg
}

// Unwrap returns ErrNotResponding.
func (e *NotRespondingError) Unwrap() error { return ErrNotResponding }

// NotSocketError: the socket path exists and is a regular file or directory.
// tmux would delete it to make its socket.
type NotSocketError struct {
	Path string
	From string // -S, -L, $TMUX or default
	Kind string // what is there: "a regular file", "a directory", ...
}

// Error names the path, what is there and where the path came from.
func (e *NotSocketError) Error() string {
	return fmt.Sprintf("%s %s is %s, not a tmux socket; panectl will not use it (tmux would replace it with a socket); pass the path of a socket or a path that does not exist", e.From, e.Path, e.Kind)
}

// Unwrap returns ErrNotSocket.
func (e *NotSocketError) Unwrap() error { return ErrNotSocket }

// SocketPathError: tmux cannot make the socket for NewPane's server there. tmux
// 3.3a says "error creating PATH (...)", does nothing and exits 0.
type SocketPathError struct {
	Path   string
	From   string // -S, -L, $TMUX or default
	Reason string // "its directory /x does not exist", ...
	Fix    string // what to do: "create the directory or pass another path", ...
}

// Error names the path, why it cannot be used and what to do.
func (e *SocketPathError) Error() string {
	return fmt.Sprintf("%s %s: no tmux server can be started there: %s; %s", e.From, e.Path, e.Reason, e.Fix)
}

// Unwrap returns ErrSocketPath.
func (e *SocketPathError) Unwrap() error { return ErrSocketPath }

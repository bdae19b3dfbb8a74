package tmux

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Server names the tmux server panectl talks to: the socket path every tmux
// command gets with -S. See tmux(1), "-L socket-name" and "-S socket-path".
type Server struct {
	Socket string // the absolute socket path
	From   string // how Socket was chosen: "-S", "-L", "$TMUX" or "default"
}

// ResolveServer turns the global flags into a socket path as tmux does. -S PATH
// is used as is. -L NAME is NAME in tmux-UID/ under $TMUX_TMPDIR (or /tmp).
// With neither it is the current server inside tmux ($TMUX set, with a socket
// path), else "default". name and path must not both be set. A path that is no
// socket is a *NotSocketError, since tmux would delete it.
func ResolveServer(name, path string, getenv func(string) string) (Server, error) {
	s, err := resolveServer(name, path, getenv)
	if err != nil {
		return s, err
	}
	if err := checkSocket(s); err != nil {
		return Server{}, err
	}
	if s.From == "-L" || s.From == "default" {
		if err := checkOwnDir(s); err != nil {
			return Server{}, err
		}
	}
	return s, nil
}

// checkOwnDir checks tmux's per-user socket directory as tmux does before
// it uses it: a directory of this user that others cannot use. Another
// user who made it first could slip in a server of theirs. A socket there
// must be this user's too. -S names a path on purpose and is not checked.
func checkOwnDir(s Server) error {
	dir, uid := filepath.Dir(s.Socket), uint32(os.Getuid())
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil {
		return nil // tmux makes it, 0700
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR || st.Uid != uid || st.Mode&0o007 != 0 {
		return unsafeSocketError(fmt.Sprintf("directory %s has unsafe permissions (owner uid %d, mode %04o): tmux wants a directory of yours "+
			"that others cannot use, and refuses it too; remove it, or name a socket in a directory of your own with -S", dir, st.Uid, st.Mode&0o7777))
	}
	if err := unix.Lstat(s.Socket, &st); err == nil && st.Uid != uid {
		return unsafeSocketError(fmt.Sprintf("the socket %s belongs to uid %d, not to you; name it with -S to use another user's server", s.Socket, st.Uid))
	}
	return nil
}

// ErrUnsafeSocket: a socket directory or socket that another user could
// control (checkOwnDir). It is a failure, not a usage error (exit 1).
var ErrUnsafeSocket = errors.New("unsafe socket")

type unsafeSocketError string

func (e unsafeSocketError) Error() string        { return string(e) }
func (e unsafeSocketError) Is(target error) bool { return target == ErrUnsafeSocket }

// checkSocket refuses a socket path that exists and is not a socket.
func checkSocket(s Server) error {
	st, err := os.Stat(s.Socket)
	if err != nil {
		return nil // nothing there (yet): tmux makes the socket
	}
	kind := ""
	switch m := st.Mode(); {
	case m.Type() == os.ModeSocket:
		return nil
	case m.IsRegular():
		kind = "a regular file"
	case m.IsDir():
		kind = "a directory"
	case m.Type() == os.ModeNamedPipe:
		kind = "a FIFO"
	case m.Type()&os.ModeDevice != 0:
		kind = "a device"
	default:
		kind = "not a socket (" + m.Type().String() + ")"
	}
	return &NotSocketError{Path: s.Socket, From: s.From, Kind: kind}
}

// checkSocketDir refuses a socket path where tmux could not make a new server's
// socket: a missing or unwritable directory, or a path too long for
// sockaddr_un. A socket already there is fine, as its server may run.
func checkSocketDir(s Server) error {
	if st, err := os.Stat(s.Socket); err == nil && st.Mode().Type() == os.ModeSocket {
		return nil
	}
	dir := filepath.Dir(s.Socket)
	reason, fix := "", "create the directory or pass another path"
	if st, err := os.Stat(dir); err != nil {
		reason = fmt.Sprintf("its directory %s does not exist", dir)
		if !os.IsNotExist(err) {
			reason, fix = fmt.Sprintf("its directory %s cannot be read (%v)", dir, err), "pass another path"
		}
	} else if !st.IsDir() {
		reason, fix = fmt.Sprintf("%s is not a directory", dir), "pass another path"
	} else if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil {
		reason, fix = fmt.Sprintf("its directory %s is not writable (%v)", dir, err), "pass a path in a directory you can write"
	} else if max := len(unix.RawSockaddrUnix{}.Path); len(s.Socket) >= max {
		reason = fmt.Sprintf("the path is %d bytes long, a socket path at most %d", len(s.Socket), max-1)
		fix = "pass a shorter path (-L NAME puts the socket in tmux's socket directory)"
	}
	if reason == "" {
		return nil
	}
	return &SocketPathError{Path: s.Socket, From: s.From, Reason: reason, Fix: fix}
}

func resolveServer(name, path string, getenv func(string) string) (Server, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	switch {
	case name != "" && path != "":
		return Server{}, fmt.Errorf("-L and -S are mutually exclusive")
	case path != "":
		abs, err := filepath.Abs(path)
		if err != nil {
			return Server{}, err
		}
		return Server{Socket: abs, From: "-S"}, nil
	case name != "":
		if strings.Contains(name, "/") {
			return Server{}, fmt.Errorf("-L %q: a socket name cannot contain '/'; use -S for a path", name)
		}
		return Server{Socket: filepath.Join(socketDir(getenv), name), From: "-L"}, nil
	}
	// $TMUX is "socket_path,server_pid,session_id" (tmux(1), ENVIRONMENT). With
	// an empty socket path ("", ",", ",123,4") tmux 3.3a uses its default
	// socket ("TMUX= tmux ls": "error connecting to /tmp/tmux-UID/default"),
	// and so does panectl.
	if t, _, _ := strings.Cut(getenv("TMUX"), ","); t != "" {
		return Server{Socket: t, From: "$TMUX"}, nil
	}
	return Server{Socket: filepath.Join(socketDir(getenv), "default"), From: "default"}, nil
}

// socketDir is tmux's per-user directory, "tmux-UID" in $TMUX_TMPDIR or /tmp.
func socketDir(getenv func(string) string) string {
	base := getenv("TMUX_TMPDIR")
	if base == "" {
		base = "/tmp"
	}
	return filepath.Join(base, fmt.Sprintf("tmux-%d", os.Getuid()))
}

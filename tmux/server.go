package tmux

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Server names the tmux server panectl talks to: the socket path every tmux
// command gets with -S. See tmux(1), "-L socket-name" and "-S socket-path".
type Server struct {
	// Socket is the absolute socket path.
	Socket string
	// From says how Socket was chosen: "-S", "-L", "$TMUX" or "default".
	From string
}

// ResolveServer turns the global flags into a socket path, as tmux does:
// -S PATH is used as is; -L NAME is NAME under $TMUX_TMPDIR (or /tmp) in
// tmux-UID/; with neither, inside tmux ($TMUX set) the current server, else
// the "default" socket. name and path must not both be set.
func ResolveServer(name, path string, getenv func(string) string) (Server, error) {
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
	if t := getenv("TMUX"); t != "" {
		// $TMUX is "socket_path,server_pid,session_id" (tmux(1), ENVIRONMENT).
		if i := strings.IndexByte(t, ','); i > 0 {
			t = t[:i]
		}
		return Server{Socket: t, From: "$TMUX"}, nil
	}
	return Server{Socket: filepath.Join(socketDir(getenv), "default"), From: "default"}, nil
}

// socketDir is tmux's per-user socket directory: $TMUX_TMPDIR (or /tmp) plus
// "tmux-UID".
func socketDir(getenv func(string) string) string {
	base := getenv("TMUX_TMPDIR")
	if base == "" {
		base = "/tmp"
	}
	return filepath.Join(base, fmt.Sprintf("tmux-%d", os.Getuid()))
}

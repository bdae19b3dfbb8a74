package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"

	"mvdan.cc/sh/v3/shell"
)

// ConnectTimeout bounds ssh's TCP connect, so an unreachable host fails
// fast (OpenSSH's ConnectTimeout, seconds).
const ConnectTimeout = "4"

// SSH is how panectl reaches hosts: the user's ssh command line and the
// private directory of its control sockets.
type SSH struct {
	// Command is ssh and its own options: $PANECTL_SSH split as a shell
	// would split it, else "ssh".
	Command []string
	// ControlDir holds the ControlMaster sockets (0700, this user's).
	ControlDir string
}

// NewSSH reads PANECTL_SSH and prepares the control socket directory under
// $XDG_RUNTIME_DIR/panectl/ssh, else $XDG_STATE_HOME/panectl/ssh (default
// ~/.local/state/panectl/ssh).
func NewSSH(getenv func(string) string) (SSH, error) {
	s := SSH{Command: []string{"ssh"}}
	if line := getenv("PANECTL_SSH"); line != "" {
		words, err := shell.Fields(line, getenv)
		if err != nil || len(words) == 0 {
			return s, fmt.Errorf("PANECTL_SSH %q: not a command line: %v", line, err)
		}
		s.Command = words
	}
	base := getenv("XDG_RUNTIME_DIR")
	if base == "" {
		base = getenv("XDG_STATE_HOME")
	}
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return s, fmt.Errorf("no directory for ssh control sockets: %w", err)
		}
		base = filepath.Join(home, ".local", "state")
	}
	s.ControlDir = filepath.Join(base, "panectl", "ssh")
	return s, privateDir(s.ControlDir)
}

// privateDir makes dir (0700) and checks it is a directory of this user
// that no one else may enter, not a link.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("ssh control socket directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("ssh control socket directory: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("ssh control socket directory %s is not a private directory of this user (want mode 0700, owner uid %d)", dir, os.Getuid())
	}
	return nil
}

// command is the ssh command that runs the words remote on t. It shares
// one connection per host (ControlMaster), never prompts (BatchMode) and
// gives up connecting after ConnectTimeout.
func (s SSH) command(ctx context.Context, t Target, remote ...string) *exec.Cmd {
	args := append(s.options(t), "--", t.destination())
	args = append(args, remote...)
	return exec.CommandContext(ctx, s.Command[0], args...)
}

// options are ssh's arguments for t before the destination.
func (s SSH) options(t Target) []string {
	args := append([]string{}, s.Command[1:]...)
	args = append(args,
		"-o", "ControlMaster=auto",
		"-o", "ControlPath="+s.controlPath(t),
		"-o", "ControlPersist=60",
		"-o", "BatchMode=yes",
		"-o", "ConnectTimeout="+ConnectTimeout,
		"-T",
	)
	if t.Port != "" {
		args = append(args, "-p", t.Port)
	}
	return args
}

// controlPath is t's control socket as ssh reads it (% tokens escaped).
func (s SSH) controlPath(t Target) string {
	return strings.ReplaceAll(s.controlFile(t), "%", "%%") // ssh expands % tokens
}

// controlFile is t's control socket: a short hash of -H's value, as
// OpenSSH's %C would not fit a socket's path limit under a long home.
func (s SSH) controlFile(t Target) string {
	sum := sha256.Sum256([]byte(t.String()))
	return filepath.Join(s.ControlDir, hex.EncodeToString(sum[:8]))
}

// Error is ssh failing before the remote panectl answered: no route,
// login refused, a host key mismatch, or no panectl on the host.
type Error struct {
	Target Target
	Code   int    // ssh's exit status (255: ssh's own failure)
	Stderr string // what ssh (or the remote shell) said
}

// ErrNotInstalled is the remote shell finding no panectl to run.
var ErrNotInstalled = errors.New("panectl is not installed there")

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = "no message"
	}
	s := fmt.Sprintf("ssh to %s failed (ssh exit status %d): %s", e.Target, e.Code, msg)
	if hint := e.hint(); hint != "" {
		s += "\n" + hint
	}
	return s
}

func (e *Error) Unwrap() error {
	if e.Code == 127 {
		return ErrNotInstalled
	}
	return nil
}

// sshHint matches what ssh says to what the user can do about it.
type sshHint struct {
	re   *regexp.Regexp
	hint string
}

// hints are built on first use (an ssh failure), not at start-up.
var hints = sync.OnceValue(func() []sshHint {
	return []sshHint{
		{regexp.MustCompile(`(?i)host key verification failed|identification has changed|host key for .* has changed`),
			"the host's key does not match the one in known_hosts: nothing was run; check the host, then update known_hosts (ssh-keygen -R HOST)"},
		{regexp.MustCompile(`(?i)permission denied|too many authentication failures`),
			"ssh refused the login: check your key or agent (panectl runs ssh with BatchMode=yes and never asks for a password)"},
		{regexp.MustCompile(`(?i)connection refused|timed out|no route to host|could not resolve|network is unreachable|name or service not known`),
			"the host cannot be reached: check its name and port (-H [user@]host[:port]) and that sshd runs there"},
	}
})

func (e *Error) hint() string {
	if e.Code == 127 {
		return fmt.Sprintf("no panectl to run on %s: run `panectl remote install %s`, or put panectl of this version on its PATH", e.Target, e.Target)
	}
	for _, h := range hints() {
		if h.re.MatchString(e.Stderr) {
			return h.hint
		}
	}
	return ""
}

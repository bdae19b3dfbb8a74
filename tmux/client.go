package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// MinVersion is the oldest tmux panectl supports (control-mode flags
// ignore-size/read-only and capture-pane -J behave as needed from 3.2 on).
const MinVersion = "3.2"

// Client runs tmux commands against one server. It is the only place in
// panectl that starts tmux processes. Every command gets "-S socket" so the
// server never depends on the caller's environment.
type Client struct {
	Server Server
	Bin    string // path of the tmux binary
}

// NewClient finds tmux ($PANECTL_TMUX or tmux on $PATH) and checks that it is
// at least MinVersion. Errors: ErrNotInstalled, ErrTooOld (with how to install).
func NewClient(s Server) (*Client, error) {
	bin := os.Getenv("PANECTL_TMUX")
	if bin == "" {
		bin = "tmux"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("%w: %q not found on $PATH; install it (Debian/Ubuntu: apt-get install tmux; macOS: brew install tmux)", ErrNotInstalled, bin)
	}
	out, err := exec.Command(path, "-V").Output()
	if err != nil {
		return nil, fmt.Errorf("%w: %s -V failed: %v", ErrNotInstalled, path, err)
	}
	if v := strings.TrimSpace(string(out)); !versionAtLeast(v, MinVersion) {
		return nil, fmt.Errorf("%w: %s is %q, panectl needs tmux %s or newer (Debian/Ubuntu: apt-get install tmux; macOS: brew install tmux)", ErrTooOld, path, v, MinVersion)
	}
	versions.Store(path, strings.TrimSpace(string(out)))
	return &Client{Server: s, Bin: path}, nil
}

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)`)

// versionAtLeast compares "tmux 3.3a" (tmux -V output) with "3.2". Builds
// that print no number ("tmux master", "tmux next-3.5") count as new enough.
func versionAtLeast(v, min string) bool {
	m := versionRE.FindStringSubmatch(v)
	if m == nil {
		return true
	}
	n := versionRE.FindStringSubmatch(min)
	maj, _ := strconv.Atoi(m[1])
	minr, _ := strconv.Atoi(m[2])
	wmaj, _ := strconv.Atoi(n[1])
	wmin, _ := strconv.Atoi(n[2])
	return maj > wmaj || (maj == wmaj && minr >= wmin)
}

// Command builds an exec.Cmd for tmux with the server's socket; callers
// outside this package never see it (the control client uses it).
func (c *Client) command(ctx context.Context, args ...string) *exec.Cmd {
	full := append([]string{"-S", c.Server.Socket}, args...)
	cmd := exec.CommandContext(ctx, c.Bin, full...)
	cmd.Env = tmuxEnv()
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

// Run runs one tmux command line (several commands may be joined with a ";"
// argument, see tmux(1) COMMAND PARSING) and returns its stdout. A failure is
// a *Error carrying tmux's stderr; it unwraps to ErrNoServer or
// ErrPaneNotFound when tmux's message says so.
func (c *Client) Run(ctx context.Context, args ...string) (string, error) {
	return c.RunInput(ctx, nil, args...)
}

// RunInput is Run with bytes on tmux's standard input (load-buffer -).
func (c *Client) RunInput(ctx context.Context, stdin []byte, args ...string) (string, error) {
	cmd := c.command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	err := cmd.Run()
	if err == nil {
		return stdout.String(), nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	te := &Error{Args: append([]string{"-S", c.Server.Socket}, args...), ExitCode: -1, Stderr: strings.TrimSpace(stderr.String())}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		te.ExitCode = ee.ExitCode()
	} else if te.Stderr == "" {
		te.Stderr = err.Error()
	}
	te.kind = classify(te.Stderr)
	if te.kind == ErrNoServer {
		return "", &NoServerError{Socket: c.Server.Socket, Stderr: te.Stderr}
	}
	return "", te
}

// KillServer kills the server (kill-server) and removes its socket file,
// which tmux leaves behind.
func (c *Client) KillServer(ctx context.Context) error {
	if _, err := c.runSerialized(ctx, "kill-server"); err != nil && !errors.Is(err, ErrNoServer) {
		return err
	}
	if err := os.Remove(c.Server.Socket); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

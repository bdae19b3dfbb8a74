// Package tmuxtest gives tests a private tmux server: its own socket in a
// temporary directory, no user configuration (-f /dev/null), killed and
// removed when the test ends. Tests that need tmux fail (never skip) when it
// is missing.
package tmuxtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/panectl/panectl/tmux"
)

// Server is a private tmux server for one test.
type Server struct {
	T      testing.TB
	Socket string
	Client *tmux.Client
}

// New starts a private server with a session "keep" (80x24, running a
// shell-less sleep) so the server outlives the panes a test kills.
func New(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is required (scripts/test.sh installs it)")
	}
	dir, err := os.MkdirTemp("", "pctl")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{T: t, Socket: filepath.Join(dir, "s")}
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-S", s.Socket, "kill-server").Run()
		os.RemoveAll(dir)
	})
	s.Tmux("-f", "/dev/null", "new-session", "-d", "-s", "keep", "-x", "80", "-y", "24", "sleep 100000")
	c, err := tmux.NewClient(tmux.Server{Socket: s.Socket, From: "-S"})
	if err != nil {
		t.Fatal(err)
	}
	s.Client = c
	return s
}

// Tmux runs tmux on the server and returns its stdout, trimmed; failure is fatal.
func (s *Server) Tmux(args ...string) string {
	s.T.Helper()
	out, err := s.TryTmux(args...)
	if err != nil {
		s.T.Fatalf("tmux %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// TryTmux runs tmux on the server and returns its stdout, trimmed.
func (s *Server) TryTmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-S", s.Socket}, args...)...)
	cmd.Env = append(os.Environ(), "TMUX=", "TMUX_PANE=")
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// NewPane starts command (a shell command line) in a new detached session
// of the given size and returns the pane.
func (s *Server) NewPane(size [2]int, command ...string) tmux.PaneInfo {
	s.T.Helper()
	p, err := s.Client.NewPane(context.Background(), tmux.NewOptions{Width: size[0], Height: size[1], Command: command})
	if err != nil {
		s.T.Fatal(err)
	}
	return p
}

// Clients lists the attached clients as "name flags" lines.
func (s *Server) Clients() []string {
	s.T.Helper()
	out := s.Tmux("list-clients", "-F", "#{client_name} #{client_flags}")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

// Layout is every pane's id, size and active flag, and every window's
// active flag: what a client must never change.
func (s *Server) Layout() string {
	s.T.Helper()
	return s.Tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_width}x#{pane_height} a=#{pane_active} w=#{window_active} #{window_id}")
}

// AtLeast reports whether the tmux on $PATH (the one tests run) is version
// min ("3.6") or newer.
func AtLeast(min string) (bool, error) {
	out, err := exec.Command("tmux", "-V").Output()
	if err != nil {
		return false, fmt.Errorf("tmux -V: %w", err)
	}
	return tmux.VersionAtLeast(strings.TrimSpace(string(out)), min), nil
}

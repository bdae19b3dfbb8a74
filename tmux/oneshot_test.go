package tmux_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

// A read-only list run by panectl's own one-shot client gives what a tmux
// process gives, byte for byte, errors included: titles and options with
// control characters, tabs and wide text, captures, several commands, a
// failure first or last.
func TestOwnClientRunsLikeAProcess(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	if tmux.AttachModeOf(s.Client) != "proto" {
		t.Skipf("tmux %s takes no client of panectl's own", s.Tmux("-V"))
	}
	p := s.NewPane([2]int{40, 10}, "sh", "-c", `printf 'one\ttab\n\033[1mbold\033[0m ünï ✓\n'; exec cat`)
	s.Tmux("select-pane", "-t", p.ID, "-T", "title\x01with\tbytes\\ and ;")
	s.Tmux("set-option", "-p", "-t", p.ID, "@panectl_test", "a value; with spaces")
	s.Tmux("wait-for", "-S", "x") // (a server round trip: the pane has printed by the next look)
	for _, cmds := range [][]tmux.Command{
		{{"display-message", "-p", "-t", p.ID, "#{pane_id}\x1f#{pane_title}\x1f#{@panectl_test}"}},
		{{"list-panes", "-a", "-F", "#{pane_id} #{session_id} #{pane_width}x#{pane_height}"}},
		{{"capture-pane", "-p", "-e", "-J", "-t", p.ID}},
		{{"show-options", "-p", "-t", p.ID}},
		{{"display-message", "-p", "-t", p.ID, "#{pane_pid}"}, {"capture-pane", "-p", "-t", p.ID, "-S", "-", "-E", "-"}},
		{{"capture-pane", "-p", "-t", "%999"}},
		{{"display-message", "-p", "-t", p.ID, "first"}, {"show-options", "-p", "-t", "%999"}},
		{{"list-sessions", "-F", "#{session_id}", "-f", "#{==:a,b}"}},
	} {
		own, ok, ownErr := tmux.RunOwn(ctx, s.Client, cmds...)
		if !ok {
			t.Fatalf("%q: not run by the own client", cmds)
		}
		proc, procErr := tmux.RunProcess(ctx, s.Client, cmds...)
		if own != proc {
			t.Errorf("%q: own client %q, a process %q", cmds, own, proc)
		}
		var ownTE, procTE *tmux.Error
		errors.As(ownErr, &ownTE)
		errors.As(procErr, &procTE)
		if (ownErr == nil) != (procErr == nil) || (ownTE == nil) != (procTE == nil) {
			t.Fatalf("%q: own client error %v, a process %v", cmds, ownErr, procErr)
		}
		if ownTE != nil && (ownTE.Stderr != procTE.Stderr || !reflect.DeepEqual(ownTE.Args, procTE.Args) ||
			errors.Is(ownErr, tmux.ErrPaneNotFound) != errors.Is(procErr, tmux.ErrPaneNotFound)) {
			t.Errorf("%q: own client error %#v, a process %#v", cmds, ownTE, procTE)
		}
	}
	// what may change the server, or needs a process's stdin, is not run
	for _, cmds := range [][]tmux.Command{
		{{"set-option", "-g", "status", "off"}},
		{{"display-message", "-t", p.ID, "no -p: shown on a client"}},
		{{"kill-server"}},
	} {
		if _, ok, _ := tmux.RunOwn(ctx, s.Client, cmds...); ok {
			t.Errorf("%q ran through the own client", cmds)
		}
	}
	if got := s.Tmux("show-options", "-g", "-v", "status"); got != "on" {
		t.Errorf("status is %q after the refused set-option", got)
	}
	// no server on the socket: ErrNoServer, as a process says
	gone := *s.Client
	gone.Server.Socket = filepath.Join(t.TempDir(), "none")
	if _, ok, err := tmux.RunOwn(ctx, &gone, tmux.Command{"list-sessions"}); !ok || !errors.Is(err, tmux.ErrNoServer) {
		t.Errorf("no server: ok=%v err=%v, want ErrNoServer", ok, err)
	}
	// a stopped server: not responding, by the caller's deadline; it
	// answers again once continued
	pid, _ := strconv.Atoi(s.Tmux("display-message", "-p", "#{pid}"))
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_, ok, err := tmux.RunOwn(short, s.Client, tmux.Command{"list-sessions"})
	cancel()
	_ = syscall.Kill(pid, syscall.SIGCONT)
	if !ok || !errors.Is(err, tmux.ErrNotResponding) {
		t.Errorf("stopped server: ok=%v err=%v, want ErrNotResponding", ok, err)
	}
	if _, err := s.Client.Run(ctx, "list-sessions"); err != nil {
		t.Fatal(err)
	}
	// the server still has the pane and no client of panectl's
	if clients := s.Clients(); len(clients) != 0 {
		t.Errorf("clients left attached: %q", clients)
	}
}

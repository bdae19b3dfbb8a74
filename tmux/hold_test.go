package tmux_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

// The guard of a new pane's exit hold, run as when panectl is killed during
// the hold: it undoes the hold as the pane's own settings would have it. A
// pane that died meanwhile is closed when its own remain-on-exit says so
// (off; failed and a clean exit), kept otherwise; a live pane keeps running;
// either way no option of the hold is left. A pane whose hold panectl ended
// itself (no token) is left alone.
func TestExitHoldGuardUndoes(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	for i, tc := range []struct {
		global  string // the server's remain-on-exit
		command string
		closed  bool // the pane is gone after the guard ran
	}{
		{"off", "exit 0", true},
		{"off", "exit 3", true},
		{"failed", "exit 0", true},
		{"failed", "exit 3", false},
		{"on", "exit 0", false},
		{"off", "sleep 100", false},
	} {
		t.Run(fmt.Sprintf("%s/%s", tc.global, tc.command), func(t *testing.T) {
			s.Tmux("set-option", "-g", "remain-on-exit", tc.global)
			hold, release, err := tmux.StartExitHold(s.Client)
			if err != nil {
				t.Fatal(err)
			}
			target := fmt.Sprintf("=keep:%d", 10+i)
			list := []tmux.Command{{"new-window", "-d", "-P", "-F", "#{pane_id}", "-t", target, "--", "sh", "-c", tc.command}}
			for _, c := range hold {
				list = append(list, append(tmux.Command{c[0], "-t", target}, c[1:]...))
			}
			out, err := s.Client.RunList(ctx, nil, list...)
			if err != nil {
				t.Fatal(err)
			}
			id := strings.TrimSpace(out)
			dead := waitDead(t, s, id, !strings.HasPrefix(tc.command, "sleep"))
			if opts := s.Tmux("show-options", "-p", "-t", id); !strings.Contains(opts, "remain-on-exit on") {
				t.Fatalf("the hold is not set on %s: %q", id, opts)
			}
			release() // as panectl's death closes the guard's pipe
			panes := s.Tmux("list-panes", "-a", "-F", "#{pane_id}")
			gone := !strings.Contains(" "+strings.ReplaceAll(panes, "\n", " ")+" ", " "+id+" ")
			if gone != tc.closed {
				t.Fatalf("pane %s (dead %v) gone = %v after the guard ran, want %v", id, dead, gone, tc.closed)
			}
			if !gone {
				if opts := s.Tmux("show-options", "-p", "-t", id); opts != "" {
					t.Errorf("pane %s keeps options of the hold: %q", id, opts)
				}
				s.Tmux("kill-pane", "-t", id)
			}
		})
	}
	s.Tmux("set-option", "-g", "remain-on-exit", "off")

	// panectl ended the hold itself (token removed), then someone set the
	// pane's remain-on-exit: the guard leaves it.
	hold, release, err := tmux.StartExitHold(s.Client)
	if err != nil {
		t.Fatal(err)
	}
	list := []tmux.Command{{"new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "=keep:30", "--", "sleep", "100"}}
	for _, c := range hold {
		list = append(list, append(tmux.Command{c[0], "-t", "=keep:30"}, c[1:]...))
	}
	out, err := s.Client.RunList(ctx, nil, list...)
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(out)
	s.Tmux("set-option", "-p", "-u", "-t", id, "@panectl-new-hold")
	s.Tmux("set-option", "-p", "-t", id, "remain-on-exit", "failed")
	release()
	if got := s.Tmux("show-options", "-p", "-t", id, "remain-on-exit"); got != "remain-on-exit failed" {
		t.Errorf("the guard changed a pane it no longer held: %q", got)
	}
}

// waitDead waits (5 s at most) until pane id is dead with its exit status
// known when want (NudgeReap: tmux 3.3a can miss a pane's SIGCHLD), and
// says whether it is dead.
func waitDead(t *testing.T, s *tmuxtest.Server, id string, want bool) bool {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; {
		st := s.Tmux("display-message", "-p", "-t", id, "#{pane_dead}:#{pane_dead_status}")
		if !want || (strings.HasPrefix(st, "1:") && st != "1:") {
			return strings.HasPrefix(st, "1:")
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %s did not die with a status (%s)", id, st)
		}
		if st == "1:" {
			_ = s.Client.NudgeReap(context.Background())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// new against a stopped server: the request is in the server's socket, so
// the pane is made when it resumes. The not-responding error says so and
// names the session to look for.
func TestNewPaneStoppedServerSaysItMayStillBeMade(t *testing.T) {
	s := tmuxtest.New(t)
	pid, err := strconv.Atoi(s.Tmux("display-message", "-p", "#{pid}"))
	if err != nil {
		t.Fatal(err)
	}
	cont := sync.OnceFunc(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	defer cont()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	_, err = s.Client.NewPane(context.Background(), tmux.NewOptions{SessionName: "job1", Command: []string{"sleep", "100"}, ExitCheck: 100 * time.Millisecond})
	if !errors.Is(err, tmux.ErrNotResponding) || !strings.Contains(err.Error(), `may still make the pane (session "job1")`) {
		t.Fatalf("NewPane on a stopped server: %v, want not responding saying session \"job1\" may still be made", err)
	}
	cont()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.Tmux("list-sessions", "-F", "#{session_name}"), "job1") {
		if time.Now().After(deadline) {
			t.Fatal("session job1 was not made after the server resumed: the note would be wrong")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

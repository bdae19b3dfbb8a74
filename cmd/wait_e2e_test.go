package cmd_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
)

// These tests run the real panectl binary (this test binary re-executed as
// panectl) concurrently and with signals, which testscript cannot express.
// Each has a private tmux server (internal/tmuxtest) that outlives the panes
// killed here (its session "keep").

// panectlCmd returns panectl ARGS on the server s.
func panectlCmd(s *tmuxtest.Server, args ...string) *exec.Cmd {
	// testscript.Main put this binary on $PATH as "panectl"
	bin, err := exec.LookPath("panectl")
	if err != nil {
		s.T.Fatal(err)
	}
	c := exec.Command(bin, append([]string{"-S", s.Socket}, args...)...)
	c.Env = append(os.Environ(), "TMUX=", "TMUX_PANE=")
	return c
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// waitClients waits until n clients are attached to s.
func waitClients(t *testing.T, s *tmuxtest.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(s.Clients()) != n {
		if time.Now().After(deadline) {
			t.Fatalf("want %d clients attached, have %q", n, s.Clients())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startWait starts a wait-for-text and waits until its control client is
// attached (the n-th client).
func startWait(t *testing.T, s *tmuxtest.Server, n int, args ...string) *exec.Cmd {
	t.Helper()
	c := panectlCmd(s, append([]string{"wait-for-text"}, args...)...)
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill() })
	waitClients(t, s, n)
	return c
}

// waitExit waits for c and returns its exit code and how long it took from now.
func waitExit(t *testing.T, c *exec.Cmd, limit time.Duration) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		return exitCode(err), time.Since(start)
	case <-time.After(limit + 5*time.Second):
		t.Fatalf("panectl still running %v after the event", limit+5*time.Second)
		return 0, 0
	}
}

func TestWaitManyConcurrentWaitersAndTypers(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{100, 30}, "cat")
	before := s.Layout()
	const waiters, typers, each = 20, 5, 4
	var cmds []*exec.Cmd
	for i := range waiters {
		cmds = append(cmds, startWait(t, s, i+1, p.ID, "--pattern", fmt.Sprintf("OUT-%d-%d.", i%typers, i/typers), "--timeout", "30"))
	}
	if during := s.Layout(); during != before {
		t.Errorf("layout changed while waiting:\n%s\nwas\n%s", during, before)
	}
	var wg sync.WaitGroup
	for j := range typers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range each {
				// typed with tmux itself: text panectl types is discounted as echo
				if _, err := s.TryTmux("send-keys", "-t", p.ID, "-l", fmt.Sprintf("OUT-%d-%d.\r", j, k)); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	for i, c := range cmds {
		if code, _ := waitExit(t, c, 30*time.Second); code != 0 {
			t.Errorf("waiter %d exited %d, want 0 (stderr %v)", i, code, c.Stderr)
		}
	}
	if c := s.Clients(); len(c) != 0 {
		t.Errorf("clients left attached: %q", c)
	}
	if after := s.Layout(); after != before {
		t.Errorf("layout changed:\n%s\nwas\n%s", after, before)
	}
}

// The server killed under a wait takes the pane the wait saw alive with it:
// exited (5), not "no server" (4) (issue 14).
func TestWaitEndsWhenServerKilled(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	c := startWait(t, s, 1, p.ID, "--pattern", "never", "--timeout", "30")
	s.Tmux("kill-server")
	code, took := waitExit(t, c, 500*time.Millisecond)
	if code != 5 || took > 500*time.Millisecond {
		t.Errorf("exit %d after %v, want 5 within 0.5 s (stderr %v)", code, took, c.Stderr)
	}
}

func TestWaitEndsWhenPaneKilled(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	c := startWait(t, s, 1, p.ID, "--pattern", "never", "--timeout", "30")
	s.Tmux("kill-pane", "-t", p.ID)
	code, took := waitExit(t, c, time.Second)
	if code != 5 || took > time.Second {
		t.Errorf("exit %d after %v, want 5 within 1 s (stderr %v)", code, took, c.Stderr)
	}
	if cl := s.Clients(); len(cl) != 0 {
		t.Errorf("clients left attached: %q", cl)
	}
}

func TestWaitSIGINTDetaches(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		c := startWait(t, s, 1, p.ID, "--pattern", "never", "--timeout", "30")
		_ = c.Process.Signal(sig)
		code, took := waitExit(t, c, time.Second)
		if code != 130 || took > time.Second {
			t.Errorf("%v: exit %d after %v, want 130 promptly", sig, code, took)
		}
		if cl := s.Clients(); len(cl) != 0 {
			t.Errorf("%v: clients left attached: %q", sig, cl)
		}
	}
}

package tmux_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
	"golang.org/x/sys/unix"
)

// The socket lock file exists only where it is needed. On a tmux with the
// half-identified client bug (3.2 to 3.6) panectl attaches with its own
// client, so making and killing panes and waiting leave no
// SOCKET.panectl.lock; a fallback `tmux -C` attach makes it, after which
// panectl's pane commands wait for the lock; killing the server removes it.
func TestSocketLockOnlyWhenNeeded(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	defer tmux.ForceAttach("proto")() // as below 3.7, whatever this machine's tmux
	lock := s.Socket + ".panectl.lock"
	noLock := func(when string) {
		t.Helper()
		if _, err := os.Lstat(lock); err == nil {
			t.Fatalf("%s: %s exists", when, lock)
		}
	}

	p, err := s.Client.NewPane(ctx, tmux.NewOptions{Command: []string{"cat"}, ExitCheck: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	noLock("after new")
	k, err := s.Client.Control(ctx, p, tmux.ControlOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k.Close()
	noLock("after a wait's client")
	if err := s.Client.KillPane(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	noLock("after kill")

	// A server run from another binary (a copy) refuses panectl's client:
	// the fallback `tmux -C` attaches under the lock, which makes the file.
	p, err = s.Client.NewPane(ctx, tmux.NewOptions{Command: []string{"cat"}})
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(s.Client.Bin)
	if err != nil {
		t.Fatal(err)
	}
	copyBin := t.TempDir() + "/tmux"
	if err := os.WriteFile(copyBin, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	c := *s.Client
	c.Bin = copyBin
	k, err = c.Control(ctx, p, tmux.ControlOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if kind := tmux.ControlKind(k); kind != "exec" {
		t.Fatalf("client kind %q, want tmux -C", kind)
	}
	k.Close()
	if _, err := os.Lstat(lock); err != nil {
		t.Fatalf("no lock file after a fallback attach: %v", err)
	}

	// From now on pane commands take the lock: held here, new waits.
	f, err := os.OpenFile(lock, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Client.NewPane(ctx, tmux.NewOptions{Command: []string{"cat"}})
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("new did not wait for the held lock (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	f.Close() // releases the flock
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("new still waits after the lock was released")
	}

	if err := s.Client.KillServer(ctx); err != nil {
		t.Fatal(err)
	}
	noLock("after kill-server")
}

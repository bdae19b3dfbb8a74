package tmux_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

// A kept client switches a pane's output off when its last subscription
// has gone and the pane speaks, and on again for the next subscription.
// tmux 3.2 to 3.6 crash when a pane is switched off (refresh-client -A
// %N:off) while output of it is still queued for the client: the queued
// blocks are written later from an offset the server has drained past
// (tmux GitHub issue 5054, fixed in 3.7 by cae229cad). panectl pauses the
// pane instead (%N:pause, which drops the queued output) and continues it;
// here a pane that never stops printing is subscribed to and dropped many
// times in a row, and the server must survive.
func TestKeptClientTogglesBusyPaneSafely(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	busy := s.NewPane([2]int{80, 24}, "sh", "-c", "while :; do echo 'busy busy busy busy busy busy busy busy busy busy'; done")
	// a second busy pane in the same session, never subscribed
	s.Tmux("split-window", "-d", "-t", busy.ID, "sh -c 'while :; do echo other other other other other; done'")
	c := *s.Client
	c.KeepControl(time.Minute)
	defer c.Close()
	pid := s.Tmux("display-message", "-p", "#{pid}")
	for i := range 200 {
		got := make(chan struct{}, 1)
		sub, err := c.Subscribe(ctx, busy, func(e tmux.ControlEvent) {
			if e.Kind == tmux.EventOutput {
				select {
				case got <- struct{}{}:
				default:
				}
			}
		})
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if _, _, _, err := sub.SnapshotOptions(ctx, busy.ID, "", tmux.CaptureSpec{Start: 0, ToBottom: true}); err != nil {
			t.Fatalf("round %d: snapshot: %v", i, err)
		}
		select {
		case <-got:
		case <-time.After(5 * time.Second):
			t.Fatalf("round %d: no output from a pane that prints all the time", i)
		}
		sub.Close()
		if i%20 == 0 {
			if now, err := s.TryTmux("display-message", "-p", "#{pid}"); err != nil || now != pid {
				t.Fatalf("round %d: the server died (%v)", i, err)
			}
		}
	}
	if now, err := s.TryTmux("display-message", "-p", "#{pid}"); err != nil || now != pid {
		t.Fatalf("the server died (%v)", err)
	}
	if n := len(s.Clients()); n != 1 {
		t.Errorf("%d clients attached, want the one kept client", n)
	}
}

// Several waits on panes of one session share one kept client; each gets
// its own pane's output only, and a kept client of another session is
// another client. Close detaches them all.
func TestKeptClientSharedBySubscriptions(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	a := s.NewPane([2]int{80, 24}, "cat")
	bID := s.Tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", a.ID, "cat")
	b, err := s.Client.Pane(ctx, bID)
	if err != nil {
		t.Fatal(err)
	}
	other := s.NewPane([2]int{80, 24}, "cat")
	c := *s.Client
	c.KeepControl(time.Minute)
	recA, recB, recO := newRecorder(), newRecorder(), newRecorder()
	subA, err := c.Subscribe(ctx, a, recA.on)
	if err != nil {
		t.Fatal(err)
	}
	subB, err := c.Subscribe(ctx, b, recB.on)
	if err != nil {
		t.Fatal(err)
	}
	subO, err := c.Subscribe(ctx, other, recO.on)
	if err != nil {
		t.Fatal(err)
	}
	if subA.Control() != subB.Control() || subA.Control() == subO.Control() {
		t.Errorf("one client per session: a %p b %p other %p", subA.Control(), subB.Control(), subO.Control())
	}
	if n := len(s.Clients()); n != 2 {
		t.Errorf("%d clients attached, want 2 (one per session)", n)
	}
	s.Tmux("send-keys", "-t", a.ID, "-l", "to-a")
	s.Tmux("send-keys", "-t", b.ID, "-l", "to-b")
	s.Tmux("send-keys", "-t", other.ID, "-l", "to-other")
	recA.waitFor(t, "a's output", func(r *recorder) bool { return strings.Contains(r.out.String(), "to-a") })
	recB.waitFor(t, "b's output", func(r *recorder) bool { return strings.Contains(r.out.String(), "to-b") })
	recO.waitFor(t, "other's output", func(r *recorder) bool { return strings.Contains(r.out.String(), "to-other") })
	for name, r := range map[string]*recorder{"a": recA, "b": recB, "other": recO} {
		r.mu.Lock()
		out := r.out.String()
		r.mu.Unlock()
		for _, w := range []string{"to-a", "to-b", "to-other"} {
			if w != "to-"+name && strings.Contains(out, w) {
				t.Errorf("%s's subscription got %q", name, out)
			}
		}
	}
	// a's subscription ends; b's goes on through the same client
	subA.Close()
	s.Tmux("send-keys", "-t", a.ID, "-l", "after-a")
	s.Tmux("send-keys", "-t", b.ID, "-l", "after-b")
	recB.waitFor(t, "b's later output", func(r *recorder) bool { return strings.Contains(r.out.String(), "after-b") })
	if strings.Contains(recA.out.String(), "after-a") {
		t.Error("a closed subscription still got output")
	}
	// a new subscription to a gets what a prints from now on
	recA2 := newRecorder()
	subA2, err := c.Subscribe(ctx, a, recA2.on)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := subA2.Command(ctx, []string{"display-message", "-p", "x"}); err != nil {
		t.Fatal(err)
	}
	s.Tmux("send-keys", "-t", a.ID, "-l", "again-a")
	recA2.waitFor(t, "a's output after resubscribing", func(r *recorder) bool { return strings.Contains(r.out.String(), "again-a") })
	subA2.Close()
	subB.Close()
	subO.Close()
	if n := len(s.Clients()); n != 2 {
		t.Errorf("%d clients attached with no subscription, want the 2 kept ones", n)
	}
	// both kept clients are named client-PID (panectl's pid); the end of
	// one (its session killed) leaves the other serving its session
	if names := s.Tmux("list-clients", "-F", "#{client_name}"); strings.Count(names, "\n") != 1 {
		t.Fatalf("clients %q", names)
	}
	s.Tmux("kill-session", "-t", other.SessionID)
	deadline := time.Now().Add(2 * time.Second)
	for len(s.Clients()) != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("clients after the other session was killed: %q", s.Clients())
		}
		time.Sleep(10 * time.Millisecond)
	}
	recB2 := newRecorder()
	subB2, err := c.Subscribe(ctx, b, recB2.on)
	if err != nil {
		t.Fatal(err)
	}
	if subB2.Control() != subB.Control() {
		t.Error("a new subscription on the surviving session got another client")
	}
	if _, err := subB2.Command(ctx, []string{"display-message", "-p", "x"}); err != nil {
		t.Fatal(err)
	}
	s.Tmux("send-keys", "-t", b.ID, "-l", "still-b")
	recB2.waitFor(t, "b's output after the other client ended", func(r *recorder) bool { return strings.Contains(r.out.String(), "still-b") })
	subB2.Close()
	c.Close()
	deadline = time.Now().Add(2 * time.Second)
	for len(s.Clients()) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("clients after Close: %q", s.Clients())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A kept client with no use is detached after its idle time; read-only
// commands of the client go through it while it is attached (no tmux
// process).
func TestKeptClientIdleAndRouting(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	p := s.NewPane([2]int{80, 24}, "cat")
	c := *s.Client
	c.KeepControl(300 * time.Millisecond)
	defer c.Close()
	sub, err := c.Subscribe(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	sub.Close()
	if n := len(s.Clients()); n != 1 {
		t.Fatalf("%d clients after the subscription closed, want the kept one", n)
	}
	// through the kept client: a pane lookup and an error as a process gives it
	info, err := c.Pane(ctx, p.ID)
	if err != nil || info.ID != p.ID {
		t.Fatalf("Pane through the kept client: %+v %v", info, err)
	}
	if _, err := c.Pane(ctx, "%999"); err == nil || !strings.Contains(err.Error(), "%999") {
		t.Errorf("unknown pane through the kept client: %v", err)
	}
	if _, err := c.Run(ctx, "capture-pane", "-p", "-t", "%999"); err == nil || !strings.Contains(err.Error(), "can't find pane") {
		t.Errorf("capture of an unknown pane through the kept client: %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(s.Clients()) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("kept client still attached long after its idle time: %q", s.Clients())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// a command attaches nothing
	if _, err := c.Pane(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if n := len(s.Clients()); n != 0 {
		t.Errorf("%d clients after a lookup with no kept client", n)
	}
}

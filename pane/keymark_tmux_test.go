package pane_test

import (
	"context"
	"testing"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/pane"
)

// A key mark names the screen a key went to: that screen is Before it, a
// screen drawn after the key is not, and a pane never marked has no mark.
func TestKeyMarkNamesTheScreenBeforeTheKey(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	p := s.NewPane([2]int{40, 10}, "sh", "-c", `stty -echo; printf 'Proceed? [y/N] '; read x; printf '\r\nworking'; sleep 600`)
	waitText(t, s, p.ID, "Proceed?")
	if m, err := pane.LoadKeyMark(ctx, s.Client, p.ID); err != nil || !m.At.IsZero() {
		t.Fatalf("unmarked pane: %+v %v", m, err)
	}
	before, err := pane.CaptureScreen(ctx, s.Client, p.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := pane.MarkKey(ctx, s.Client, p.ID, before); err != nil {
		t.Fatal(err)
	}
	m, err := pane.LoadKeyMark(ctx, s.Client, p.ID)
	if err != nil || m.At.IsZero() || !m.Before(before) {
		t.Fatalf("mark of the screen the key went to: %+v %v", m, err)
	}
	s.Tmux("send-keys", "-t", p.ID, "y", "Enter")
	waitText(t, s, p.ID, "working")
	after, err := pane.CaptureScreen(ctx, s.Client, p.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.Before(after) {
		t.Fatalf("a screen drawn after the key is taken for the one before: %q", after.Rows)
	}
}

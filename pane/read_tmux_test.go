package pane_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/pane"
)

// Read with a guessed pane description (one tmux process) returns what a
// Read without one returns, also when the guess is stale because output
// scrolled rows into history since; the ledger read in the same snapshot
// equals LoadLedger.
func TestReadWithGuessMatchesPlainRead(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	p := s.NewPane([2]int{40, 5}, "cat")
	c := s.Client
	cur, info, err := pane.Now(ctx, c, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := pane.Record(ctx, c, p.ID, "typed-text", true); err != nil {
		t.Fatal(err)
	}
	for i := range 12 { // more rows than the screen: history grows
		s.Tmux("send-keys", "-t", p.ID, "-l", fmt.Sprintf("line-%d\r", i))
		// one line at a time, so the tty's echo and cat's copy alternate
		waitText(t, s, p.ID, fmt.Sprintf("line-%d\nline-%d", i, i))
	}
	plain, err := pane.Read(ctx, c, p.ID, cur, pane.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for name, guess := range map[string]func() (pane.ReadResult, error){
		"fresh guess": func() (pane.ReadResult, error) {
			return pane.Read(ctx, c, p.ID, cur, pane.ReadOptions{Guess: plain.Pane, Ledger: true})
		},
		"stale guess": func() (pane.ReadResult, error) {
			return pane.Read(ctx, c, p.ID, cur, pane.ReadOptions{Guess: info, Ledger: true})
		},
	} {
		got, err := guess()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got.Lines, plain.Lines) || got.Cursor.Encode() != plain.Cursor.Encode() {
			t.Errorf("%s: lines %q cursor %s; without a guess: %q %s", name, got.Lines, got.Cursor.Encode(), plain.Lines, plain.Cursor.Encode())
		}
		if !got.Ledger.IsEcho("$ typed-text") || got.Ledger.Len() != 1 {
			t.Errorf("%s: ledger from the snapshot has %d entries, does not discount the typed text", name, got.Ledger.Len())
		}
	}
	if len(plain.Lines) != 24 || plain.Lines[0] != "line-0" { // the tty echo, then cat
		t.Errorf("lines = %q", plain.Lines)
	}
}

// A guess from another pane process (respawned) is caught by the cursor check.
func TestReadWithGuessChecksCursor(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	p := s.NewPane([2]int{40, 5}, "cat")
	cur, info, err := pane.Now(ctx, s.Client, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Tmux("respawn-pane", "-k", "-t", p.ID, "cat")
	if _, err := pane.Read(ctx, s.Client, p.ID, cur, pane.ReadOptions{Guess: info}); err == nil {
		t.Fatal("a cursor of the old process was accepted")
	}
}

func waitText(t *testing.T, s *tmuxtest.Server, id, text string) {
	t.Helper()
	for range 250 {
		if strings.Contains(s.Tmux("capture-pane", "-p", "-S", "-", "-t", id), text) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%q never appeared in %s", text, id)
}

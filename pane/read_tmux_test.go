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
	"github.com/panectl/panectl/tmux"
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
		if !got.Ledger.IsEcho("typed-text") || got.Ledger.Len() != 1 {
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

// A pane with a short history, where yes prints identical lines around
// every cursor: each read after a cursor is either exactly the lines after
// it (Whole), or says it is not and returns everything the pane holds,
// with the lines it calls certainly new (Fresh on) among the lines after
// the cursor; a read that says the cursor's line was trimmed returns only
// lines after it. Also with the cursor taken on a screen partly filled,
// and with history cleared.
func TestReadRepeatsAtHistoryLimit(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	c := s.Client
	p, err := c.NewPane(ctx, tmux.NewOptions{Width: 40, Height: 6, HistoryLimit: 20, Env: []string{"PS1=$ "},
		Command: []string{"bash", "--norc", "--noprofile"}})
	if err != nil {
		t.Fatal(err)
	}
	waitText(t, s, p.ID, "$")
	k := 0
	// cmd types a command that prints n lines "x" and a last line of its
	// own, waits for the prompt after it, and returns the lines after
	// the cursor taken before typing (its row's prefix "$ " aside).
	cmd := func(n int, clear bool) (pane.Cursor, []string) {
		k++
		cur, _, err := pane.Now(ctx, c, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("yes x | head -%d; echo end-%d", n, k)
		s.Tmux("send-keys", "-t", p.ID, "-l", line+"\r")
		waitText(t, s, p.ID, fmt.Sprintf("\nend-%d\n$", k))
		if clear {
			s.Tmux("clear-history", "-t", p.ID)
		}
		want := []string{line}
		for range n {
			want = append(want, "x")
		}
		return cur, append(want, fmt.Sprintf("end-%d", k), "$")
	}
	outcomes := map[string]int{}
	check := func(name string, cur pane.Cursor, want []string) {
		t.Helper()
		r, err := pane.Read(ctx, c, p.ID, cur, pane.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		held := strings.Split(s.Tmux("capture-pane", "-p", "-J", "-S", "-", "-t", p.ID), "\n")
		for i := range held {
			held[i] = strings.TrimRight(held[i], " ")
		}
		switch {
		case r.Whole():
			outcomes["whole"]++
			if !reflect.DeepEqual(r.Lines, want) {
				t.Errorf("%s: a whole read returned %q, want %q", name, r.Lines, want)
			}
			return
		case !reflect.DeepEqual(r.Lines, held):
			t.Errorf("%s: a read that is not whole (%q) returned %q, not all the pane holds %q", name, r.Note, r.Lines, held)
		case r.Uncertain:
			outcomes["uncertain"]++
			fresh := r.Lines[r.Fresh:]
			if atLimit := r.Pane.HistorySize >= r.Pane.HistoryLimit-max(1, r.Pane.HistoryLimit/10); !atLimit {
				break // (Fresh is told only at the history limit)
			}
			if len(fresh) > len(want) || len(fresh) > 0 && (!reflect.DeepEqual(fresh[1:], want[len(want)-len(fresh)+1:]) ||
				!strings.HasSuffix(fresh[0], want[len(want)-len(fresh)])) {
				t.Errorf("%s: an uncertain read says %q are new; the lines after the cursor are %q", name, fresh, want)
			}
		case r.Reset:
			outcomes["reset"]++
		default:
			outcomes["trimmed"]++
			if r.Note == "" || len(r.Lines) >= len(want) || !reflect.DeepEqual(r.Lines, want[len(want)-len(r.Lines):]) {
				t.Errorf("%s: a read with lines trimmed (%d, %q) returned %q; the lines after the cursor are %q", name, r.LinesDropped, r.Note, r.Lines, want)
			}
		}
	}
	// the first prompt, on a screen with nothing else
	cur, want := cmd(3, false)
	check("partly filled screen", cur, want)
	for _, n := range []int{2, 10, 25, 3, 40, 1, 7, 19, 30} {
		cur, want := cmd(n, false)
		check(fmt.Sprintf("yes %d", n), cur, want)
	}
	for _, n := range []int{2, 9, 30} {
		cur, want := cmd(n, true)
		check(fmt.Sprintf("yes %d, clear-history", n), cur, want)
	}
	t.Logf("outcomes: %v", outcomes)
	if outcomes["whole"] == 0 || outcomes["trimmed"]+outcomes["uncertain"] == 0 {
		t.Errorf("outcomes %v: want whole reads and reads that are not", outcomes)
	}
}

// The cursor after each line of a read (CursorAfter) reads on from the next
// line: lines in history and on the screen, a line wrapped over three rows,
// repeated lines, and the oldest lines left out by MaxLines.
func TestReadCursorAfterEachLine(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	long := strings.Repeat("x", 90)
	script := `read x; printf 'one\ntwo\n` + long + `\nsame\nsame\n'; seq 3 12; printf 'end\n'; sleep 1000`
	p := s.NewPane([2]int{40, 6}, "sh", "-c", script)
	cur, _, err := pane.Now(ctx, s.Client, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Tmux("send-keys", "-t", p.ID, "Enter")
	waitText(t, s, p.ID, "end")
	all, err := pane.Read(ctx, s.Client, p.ID, cur, pane.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Lines) != 17 || all.Lines[3] != long || all.Lines[16] != "end" { // the first: the echo of Enter
		t.Fatalf("lines %q", all.Lines)
	}
	r, err := pane.Read(ctx, s.Client, p.ID, cur, pane.ReadOptions{MaxLines: 14})
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Lines {
		c, ok := r.CursorAfter(i)
		if !ok {
			t.Fatalf("no cursor after line %d", i)
		}
		after, err := pane.Read(ctx, s.Client, p.ID, c, pane.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if want := r.Lines[i+1:]; !reflect.DeepEqual(after.Lines, want) && (len(want) > 0 || len(after.Lines) > 0) || !after.Whole() {
			t.Errorf("after line %d (%q): read %q (whole %v), want %q", i, r.Lines[i], after.Lines, after.Whole(), want)
		}
	}
}

package pane_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/pane"
)

// A cursor taken in the middle of a line keeps its place when the pane
// gets narrower and the line wraps: the read continues the line from the
// same byte as at the old width (newuser H1). bash's line editor redraws
// the line it edits for the new width, and may leave a piece of the old
// one above it. That text is before the cursor's, which then cannot be
// told for certain. The lines after the newest place it can be are the new
// ones: the first of them whole, as it holds the place.
func TestReadAfterReflowContinuesLine(t *testing.T) {
	for name, tc := range map[string]struct {
		command         []string
		want, uncertain []string // the lines; the new ones of an uncertain read (nil: none allowed)
	}{
		"program": {[]string{"sh", "-c", `stty -echo; printf 'a partial line of several words'; read x; printf ' and more\n$'; sleep 600`},
			[]string{" and more", "$"}, nil},
		"bash": {[]string{"env", "PS1=$ ", "bash", "--norc", "--noprofile"},
			[]string{" and more", "a partial line of several words and more", "$"},
			[]string{"$ echo a partial line of several words and more", "a partial line of several words and more", "$"}},
	} {
		t.Run(name, func(t *testing.T) {
			s := tmuxtest.New(t)
			ctx := context.Background()
			p := s.NewPane([2]int{40, 10}, tc.command...)
			if name == "bash" {
				waitText(t, s, p.ID, "$")
				s.Tmux("send-keys", "-t", p.ID, "-l", "echo a partial line of several words")
			}
			waitText(t, s, p.ID, "several words")
			cur, _, err := pane.Now(ctx, s.Client, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			s.Tmux("resize-window", "-t", p.ID, "-x", "17")
			if name == "bash" {
				s.Tmux("send-keys", "-t", p.ID, "-l", " and more")
			}
			s.Tmux("send-keys", "-t", p.ID, "Enter")
			waitText(t, s, p.ID, "more\n$")
			r, err := pane.Read(ctx, s.Client, p.ID, cur, pane.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			switch got := r.Lines[r.Fresh:]; {
			case r.Uncertain && (tc.uncertain == nil || !reflect.DeepEqual(got, tc.uncertain)):
				t.Errorf("uncertain: new lines %q (from %d) note %q; want %q", got, r.Fresh, r.Note, tc.uncertain)
			case !r.Uncertain && (!reflect.DeepEqual(r.Lines, tc.want) || !r.Whole()):
				t.Errorf("lines %q whole %v note %q; want %q", r.Lines, r.Whole(), r.Note, tc.want)
			}
		})
	}
}

// After a change of width, text before the cursor that repeats itself (a
// run of identical lines) cannot tell the cursor's place from a later
// repetition. The read says so: everything the pane holds, and the lines
// after the newest place it can be (Fresh on) are the new ones.
func TestReadAfterReflowRepetitiveText(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	p := s.NewPane([2]int{40, 10}, "sh", "-c", `stty -echo; i=0; while [ $i -lt 60 ]; do echo y; i=$((i+1)); done; read x; echo NEW; echo y; sleep 600`)
	waitText(t, s, p.ID, strings.Repeat("y\n", 10))
	cur, _, err := pane.Now(ctx, s.Client, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Tmux("resize-window", "-t", p.ID, "-x", "20")
	s.Tmux("send-keys", "-t", p.ID, "Enter")
	waitText(t, s, p.ID, "NEW\ny")
	r, err := pane.Read(ctx, s.Client, p.ID, cur, pane.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Uncertain || !strings.Contains(r.Note, "could not be told for certain") {
		t.Fatalf("uncertain %v note %q; want an uncertain read", r.Uncertain, r.Note)
	}
	if fresh := r.Lines[r.Fresh:]; !reflect.DeepEqual(fresh, []string{"NEW", "y"}) {
		t.Errorf("fresh lines %q (of %d); want NEW, y", fresh, len(r.Lines))
	}
}

// A cursor printed by an earlier panectl has no mark of its text without
// blanks. After a reflow that moved its rows, its place is unknown: the
// read returns nothing, with a note, and a cursor to read on from.
func TestReadAfterReflowOlderCursor(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	long := "a typed line that is longer than one hundred and twenty columns wide, so that it wraps at the right edge of the pane xx"
	p := s.NewPane([2]int{120, 10}, "sh", "-c", `stty -echo; printf '%s\n' '`+long+`' 'Build FAILED'; printf '$ '; read x; echo NEW; sleep 600`)
	waitText(t, s, p.ID, "FAILED\n$")
	cur, _, err := pane.Now(ctx, s.Client, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur.HasFlat, cur.FlatLen, cur.FlatHash, cur.FlatAll, cur.FlatBreaks, cur.FlatPad = false, 0, 0, false, 0, 0
	older, err := pane.ParseCursor(cur.Encode())
	if err != nil {
		t.Fatal(err)
	}
	s.Tmux("resize-window", "-t", p.ID, "-x", "45") // a row of the long line ends at a blank
	r, err := pane.Read(ctx, s.Client, p.ID, older, pane.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lines) != 0 || r.Whole() || !strings.Contains(r.Note, "earlier panectl") {
		t.Fatalf("lines %q whole %v note %q; want none, with a note", r.Lines, r.Whole(), r.Note)
	}
	s.Tmux("send-keys", "-t", p.ID, "Enter")
	waitText(t, s, p.ID, "NEW")
	next, err := pane.Read(ctx, s.Client, p.ID, r.Cursor, pane.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(next.Lines, []string{"NEW"}) || !next.Whole() {
		t.Errorf("from the cursor it returned: %q whole %v note %q; want NEW", next.Lines, next.Whole(), next.Note)
	}
}

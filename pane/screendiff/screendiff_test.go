package screendiff

import (
	"reflect"
	"strings"
	"testing"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
)

func scr(pid int, rows ...string) pane.Screen {
	return pane.Screen{Rows: rows, Info: tmux.PaneInfo{PID: pid, Width: 80, Height: 24}}
}

func TestScreenStateRoundTrip(t *testing.T) {
	st := StateOf(scr(42, "a", "", "c"))
	st.Alternate = true
	got, err := Parse(st.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, st) {
		t.Fatalf("round trip: got %+v, want %+v", got, st)
	}
	if strings.ContainsAny(st.Encode(), " \"';\n") {
		t.Fatalf("not a plain token: %q", st.Encode())
	}
	for _, bad := range []string{"", "ps1", "ps1!!", "xx" + st.Encode(), st.Encode()[:len(st.Encode())-2]} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted garbage", bad)
		}
	}
}

func FuzzParseScreenState(f *testing.F) {
	f.Add(StateOf(scr(1, "x", "y")).Encode())
	f.Add("ps1AAAA")
	f.Fuzz(func(t *testing.T, s string) {
		st, err := Parse(s)
		if err == nil && st.Encode() != s {
			// a decoded state encodes to a token that decodes the same
			if again, err := Parse(st.Encode()); err != nil || !reflect.DeepEqual(again, st) {
				t.Fatalf("re-encoding %q failed", s)
			}
		}
	})
}

func TestDiffScreen(t *testing.T) {
	base := scr(7, "one", "two", "three", "four", "five", "six")
	prev := StateOf(base)
	for _, tc := range []struct {
		name     string
		prev     State
		ok       bool
		cur      pane.Screen
		full     bool
		scrolled int
		changed  []int
	}{
		{"first look", State{}, false, base, true, 0, nil},
		{"unchanged", prev, true, base, false, 0, nil},
		{"one row", prev, true, scr(7, "one", "two", "THREE", "four", "five", "six"), false, 0, []int{2}},
		{"row became blank", prev, true, scr(7, "one", "two", "three", "four", "five"), false, 0, []int{5}},
		{"row added", prev, true, scr(7, "one", "two", "three", "four", "five", "six", "seven"), false, 0, []int{6}},
		{"respawned", prev, true, scr(8, "one", "two", "three", "four", "five", "six"), true, 0, nil},
		{"most rows", prev, true, scr(7, "a", "b", "c", "d", "five", "six"), true, 0, []int{0, 1, 2, 3}},
		{"scrolled by two", prev, true, scr(7, "three", "four", "five", "six", "seven", "eight"), false, 2, []int{4, 5}},
		{"repeated rows stay in place", StateOf(scr(7, "x", "a", "a", "b", "c", "d")), true, scr(7, "a", "a", "a", "b", "c", "d"), false, 0, []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Compare(tc.prev, tc.ok, tc.cur)
			if d.Full != tc.full || d.Scrolled != tc.scrolled || (!tc.full && !reflect.DeepEqual(d.Changed, tc.changed)) {
				t.Fatalf("got %+v, want full=%v scrolled=%d changed=%v", d, tc.full, tc.scrolled, tc.changed)
			}
		})
	}
}

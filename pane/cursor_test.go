package pane

import (
	"errors"
	"strings"
	"testing"
)

func TestCursorRoundTrip(t *testing.T) {
	cases := []Cursor{
		{PaneID: 0, PanePID: 1, Row: 0},
		{PaneID: 12, PanePID: 40421, Row: 52000, History: 50000, AnchorLen: 48, AnchorHash: 0xdeadbeefcafebabe, PrefixLen: 7, PrefixHash: 42},
		{PaneID: 3, PanePID: 9, Row: 30, Alternate: true, AltRows: []uint32{1, 2, 0xffffffff}},
		{PaneID: 3, PanePID: 9, Row: 30, Alternate: true, AltKeys: true, AltRows: []uint32{4}},
		{PaneID: 7, PanePID: 99, Row: 4, Journal: true, JournalOff: 108894, JournalLine: 20000},
		{PaneID: 7, PanePID: 99, Row: 4, Alternate: true, AltRows: []uint32{5}, Journal: true, JournalOff: 1 << 33, JournalLine: 0},
		{PaneID: 2, PanePID: 5, Row: 70, History: 60, HasRows: true, Width: 80, Rows: []uint32{7, 0, 0xffffffff}, TopLen: 48, TopHash: 3},
		{PaneID: 2, PanePID: 5, Row: 70, HasRows: true, Width: 80, HasFlat: true, FlatLen: 48, FlatHash: 0xfeedface12345678},
		{PaneID: 2, PanePID: 5, Row: 1, HasFlat: true, FlatLen: 3, FlatHash: 9, FlatAll: true, FlatBreaks: 4, FlatPad: 2},
	}
	for _, c := range cases {
		s := c.Encode()
		if !strings.HasPrefix(s, "pc1") {
			t.Fatalf("Encode() = %q, want pc1 prefix", s)
		}
		got, err := ParseCursor(s)
		if err != nil {
			t.Fatalf("ParseCursor(%q): %v", s, err)
		}
		if got.Encode() != s || got.Row != c.Row || got.AnchorHash != c.AnchorHash || len(got.AltRows) != len(c.AltRows) ||
			got.Journal != c.Journal || got.JournalOff != c.JournalOff || got.JournalLine != c.JournalLine ||
			got.HasRows != c.HasRows || got.Width != c.Width || len(got.Rows) != len(c.Rows) || got.TopLen != c.TopLen || got.TopHash != c.TopHash ||
			got.HasFlat != c.HasFlat || got.AltKeys != c.AltKeys || got.FlatLen != c.FlatLen || got.FlatHash != c.FlatHash || got.FlatAll != c.FlatAll || got.FlatBreaks != c.FlatBreaks || got.FlatPad != c.FlatPad {
			t.Fatalf("round trip: got %+v, want %+v", got, c)
		}
	}
}

// A cursor printed before cursors fingerprinted flat text still parses.
// It has no such fingerprint.
func TestCursorParsesOlderFormat(t *testing.T) {
	old := "pc1BADoMQQAMEt5ilmBabk5Age4EAe0g0fJAHgAy_Kc5IQiIyUEy-qFfY3uphWdq5I77bMa2DLA9q8"
	c, err := ParseCursor(old)
	if err != nil {
		t.Fatal(err)
	}
	if c.PaneID != 0 || !c.HasRows || c.Width != 120 || c.HasFlat || c.Encode() != old {
		t.Errorf("parsed %+v", c)
	}
}

func TestCursorSpecial(t *testing.T) {
	for _, s := range []string{CursorScreen, CursorHistory} {
		c, err := ParseCursor(s)
		if err != nil || c.Special != s || c.Encode() != s {
			t.Fatalf("ParseCursor(%q) = %+v, %v", s, c, err)
		}
	}
}

func TestCursorRejectsGarbage(t *testing.T) {
	good := Cursor{PaneID: 1, PanePID: 2, Row: 3}.Encode()
	flipped := []byte(good)
	flipped[5] ^= 1
	for _, s := range []string{"", "garbage", "pc1", "pc1!!!", "pc1AAAA", string(flipped), good + "A", "%1"} {
		if _, err := ParseCursor(s); !errors.Is(err, ErrBadCursor) {
			t.Errorf("ParseCursor(%q) err = %v, want ErrBadCursor", s, err)
		}
	}
}

func TestCursorCheck(t *testing.T) {
	c := Cursor{PaneID: 4, PanePID: 100}
	if err := c.Check("%4", 100); err != nil {
		t.Fatal(err)
	}
	if err := c.Check("%5", 100); !errors.Is(err, ErrBadCursor) || !strings.Contains(err.Error(), "belongs to pane %4") {
		t.Fatalf("other pane: %v", err)
	}
	if err := c.Check("%4", 101); !errors.Is(err, ErrBadCursor) || !strings.Contains(err.Error(), "respawned") {
		t.Fatalf("respawned pane: %v", err)
	}
	// tmux 3.8 reports no pane_pid for a dead pane: the process died
	if err := c.Check("%4", 0); err != nil {
		t.Fatalf("dead pane without a pid: %v", err)
	}
}

func FuzzParseCursor(f *testing.F) {
	f.Add(Cursor{PaneID: 1, PanePID: 2, Row: 3, AltRows: []uint32{5}}.Encode())
	f.Add(Cursor{PaneID: 1, PanePID: 2, Row: 3, HasRows: true, Width: 80, Rows: []uint32{5, 6}, TopLen: 4, TopHash: 9}.Encode())
	f.Add("screen")
	f.Add("pc1")
	f.Add(savedToken(Cursor{PaneID: 3, PanePID: 99}, "pc1AAAA"))
	f.Add("pc2")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCursor(s)
		if err != nil {
			if !errors.Is(err, ErrBadCursor) {
				t.Fatalf("error %v does not wrap ErrBadCursor", err)
			}
			return
		}
		if again, err := ParseCursor(c.Encode()); err != nil || again.Encode() != c.Encode() {
			t.Fatalf("re-encoding %q: %v", s, err)
		}
	})
}

// Alternate-screen rows are old by their place in the sequence: a repeat
// of a row shown before is new (keptRows).
func TestKeptRows(t *testing.T) {
	for _, c := range []struct {
		old, now []uint32
		want     string // k: kept, n: new
	}{
		{nil, []uint32{1, 2}, "nn"},
		{[]uint32{1, 2, 3, 9}, []uint32{1, 2, 3, 4, 2, 3, 9}, "kkknnnk"},
		{[]uint32{1, 2, 3, 9}, []uint32{2, 3, 4, 2, 3, 9}, "kknnnk"},
		{[]uint32{7, 7, 7}, []uint32{5, 7, 7, 7}, "nkkk"},
		{[]uint32{1, 2}, []uint32{3, 4}, "nn"},
	} {
		got := ""
		for _, k := range keptRows(c.old, c.now) {
			got += map[bool]string{true: "k", false: "n"}[k]
		}
		if got != c.want {
			t.Errorf("keptRows(%v, %v) = %s, want %s", c.old, c.now, got, c.want)
		}
	}
}

// Rows redrawn with other decoration compare equal (rowKey).
func TestRowKey(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"Answer to round 7", "Answer to round 7                    █"},
		{"│ Answer  to round 7 │", "Answer to round 7"},
		{"⠋ Thinking", "⠙ Thinking"},
		{"● Bash(ls)", "Bash(ls)"},
	} {
		if rowKey(c.a) != rowKey(c.b) {
			t.Errorf("rowKey(%q) = %q, rowKey(%q) = %q", c.a, rowKey(c.a), c.b, rowKey(c.b))
		}
	}
	for _, c := range []struct{ a, b string }{
		{"Answer to round 7", "Answer to round 8"},
		{"› first", "first"},
		{"a-b", "a b"},
	} {
		if rowKey(c.a) == rowKey(c.b) {
			t.Errorf("rowKey(%q) = rowKey(%q)", c.a, c.b)
		}
	}
}

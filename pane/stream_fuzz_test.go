package pane

import (
	"strings"
	"testing"

	"github.com/panectl/panectl/tmux"
)

// fuzzStream is a stream seeded from a 20x6 screen with a prompt on its
// last used row and some history, as Read would seed it.
func fuzzStream(tabs tabMode) *Stream {
	rows := []string{"older", "line one", "line two", strings.Repeat("w", 20), "wrapped", "$", "", ""}
	v := normalView{start: -2, rows: rows, body: 2, joined: []string{"line two", strings.Repeat("w", 20) + "wrapped", "$", "", ""}}
	snap := tmux.PaneInfo{ID: "%3", PID: 42, Width: 20, Height: 6, HistorySize: 2, HistoryLimit: 50,
		CursorX: 2, CursorY: 3, WrapFlag: true, ScrollLower: 5}
	cur := Cursor{PaneID: 3, PanePID: 42, Row: 4, History: 2, PrefixLen: 8, PrefixHash: hash64("line two")}
	return newStream(v, snap, cur, 8, tabs)
}

// Whatever bytes a pane writes, cut wherever, a stream never panics, and
// it says the same whether the bytes came in one notification or two.
func FuzzStreamFeed(f *testing.F) {
	for _, seed := range []string{"hello\r\nworld", "\x1b[1;31mred\x1b[0m\r\n", "a\tb\x1b[K\x08c", "\x1b]0;t\x07x",
		"\xe4\xb8\xad\xe6\x96\x87|x", strings.Repeat("z", 50) + "\r\n", "\x1b[?2004h$ ", "\x1b[2J", "\xff\xfe", "\x1b[10G\x1b[3D!"} {
		f.Add([]byte(seed), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		for _, tabs := range []tabMode{tabMoves, tabCells, tabUnknown} {
			whole := fuzzStream(tabs)
			if whole == nil {
				t.Fatal("the fuzz seed does not make a stream")
			}
			whole.Feed(data)
			split := fuzzStream(tabs)
			i := int(cut) % (len(data) + 1)
			split.Feed(data[:i])
			split.Feed(data[i:])
			if whole.Invalid() != split.Invalid() {
				t.Fatalf("whole: %q, split at %d: %q", whole.Invalid(), i, split.Invalid())
			}
			if whole.Invalid() != "" {
				continue
			}
			a, b := strings.Join(whole.Lines(), "\n"), strings.Join(split.Lines(), "\n")
			if a != b {
				t.Fatalf("lines differ: %q vs %q", a, b)
			}
			if whole.Cursor().Encode() != split.Cursor().Encode() {
				t.Fatalf("cursors differ")
			}
		}
	})
}

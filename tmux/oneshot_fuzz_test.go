package tmux

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// FuzzReadBlocks: any stream ends readBlocks without a panic, and a stream
// of blocks between notifications gives each block's lines, whatever they
// hold but an end line of a block (tmux's time and command number make its
// own unique).
func FuzzReadBlocks(f *testing.F) {
	f.Add([]byte("%begin 1 2 0\nhello\n%end 1 2 0\n"), []byte("a\x00b\nc"), uint8(1))
	f.Add([]byte("%sessions-changed\n%begin 1 2 0\ncan't find pane: %9\n%error 1 2 0\n%exit\n"), []byte("%end 1 2 0\x00"), uint8(2))
	f.Add([]byte("%begin 9 9\n%end 9 9\n"), []byte(""), uint8(0))
	f.Fuzz(func(t *testing.T, raw, outs []byte, n uint8) {
		got, failure, complete := readBlocks(bytes.NewReader(raw), int(n%4))
		if complete && failure == "" && len(got) != int(n%4) {
			t.Fatalf("complete with %d outputs, want %d", len(got), n%4)
		}
		// a stream built of blocks
		var want []string
		var b strings.Builder
		for i, o := range strings.Split(string(outs), "\x00") {
			out := ""
			for _, l := range strings.Split(o, "\n") {
				if _, _, end := blockEnd([]byte(l)); l != "" && !end { // (tmux's own ends are unique)
					out += l + "\n"
				}
			}
			want = append(want, out)
			fmt.Fprintf(&b, "%%window-add @%d\n%%begin 1796 %d 0\n%s%%end 1796 %d 0\n", i, 100+i, out, 100+i)
		}
		b.WriteString("%exit\n")
		got, failure, complete = readBlocks(strings.NewReader(b.String()), len(want))
		if !complete || failure != "" || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("blocks %q: got %q, failure %q, complete %v", want, got, failure, complete)
		}
	})
}

package tmux

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// FuzzReadBlocks: any stream ends readBlocks without a panic. A stream of
// blocks between notifications gives each block's lines back, whatever they
// hold but a guard line, and is trusted; the same stream with the block's
// own end line forged into its output is not.
func FuzzReadBlocks(f *testing.F) {
	f.Add([]byte("%begin 1 2 0\nhello\n%end 1 2 0\n"), []byte("a\x00b\nc"), uint8(1))
	f.Add([]byte("%sessions-changed\n%begin 1 2 0\ncan't find pane: %9\n%error 1 2 0\n%exit\n"), []byte("%end 1 2 0\x00"), uint8(2))
	f.Add([]byte("%begin 9 9\n%end 9 9\n"), []byte(""), uint8(0))
	f.Fuzz(func(t *testing.T, raw, outs []byte, at uint8) {
		readBlocks(bytes.NewReader(raw))
		var want []string
		var stream, forged strings.Builder
		forgedAt := -1
		for i, o := range strings.Split(string(outs), "\x00") {
			var lines []string
			for _, l := range strings.Split(o, "\n") {
				if _, _, end := blockEnd([]byte(l)); l != "" && !end {
					lines = append(lines, l)
				}
			}
			out := strings.Join(lines, "\n")
			if out != "" {
				out += "\n"
			}
			want = append(want, out)
			begin, end := fmt.Sprintf("%%begin 1796 %d 0\n", 100+i), fmt.Sprintf("%%end 1796 %d 0\n", 100+i)
			for _, b := range []*strings.Builder{&stream, &forged} {
				fmt.Fprintf(b, "%%window-add @%d\n%s", i, begin)
			}
			stream.WriteString(out)
			if i == int(at)%(strings.Count(string(outs), "\x00")+1) {
				n := int(at) % (len(lines) + 1)
				lines = append(lines[:n], append([]string{strings.TrimSuffix(end, "\n")}, lines[n:]...)...)
				out, forgedAt = strings.Join(lines, "\n")+"\n", i
			}
			forged.WriteString(out)
			stream.WriteString(end)
			forged.WriteString(end)
		}
		stream.WriteString("%exit\n")
		forged.WriteString("%exit\n")
		got, blocks, failure, trusted := readBlocks(strings.NewReader(stream.String()))
		if !trusted || failure != "" || blocks != len(want) || got != strings.Join(want, "") {
			t.Fatalf("blocks %q: got %q (%d blocks), failure %q, trusted %v", want, got, blocks, failure, trusted)
		}
		if got, _, _, trusted := readBlocks(strings.NewReader(forged.String())); forgedAt >= 0 && trusted {
			t.Fatalf("block %d's end forged into its output: trusted, got %q\n%s", forgedAt, got, forged.String())
		}
	})
}

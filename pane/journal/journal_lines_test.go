package journal

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRenderLine(t *testing.T) {
	cases := []struct{ in, plain, sgr string }{
		{"plain text   ", "plain text", ""},
		{"10%\r20%\r100%", "100%", ""},
		{"downloading 10%\rok", "okwnloading 10%", ""},
		{"downloading 10%\r\x1b[Kok", "ok", ""},
		{"abc\x1b[2Kx", "   x", ""},
		{"ab\bc", "ac", ""},
		{"\x1b[31mred\x1b[0m text", "red text", "\x1b[31mred\x1b[0m text"},
		{"中文|x", "中文|x", ""},
		{"\x1b]0;title\x07after", "after", ""},
		{"bad \xff byte", "bad \uFFFD byte", ""},
		{"cut \x1b[3", "cut", ""},
		{"col\x1b[10Gx", "col      x", ""},
		{"a\tb", "a\tb", ""},
		{"e\u0301!", "e\u0301!", ""},
	}
	for _, c := range cases {
		if got := renderLine([]byte(c.in), false); got != c.plain {
			t.Errorf("renderLine(%q) = %q; want %q", c.in, got, c.plain)
		}
		if c.sgr != "" {
			if got := renderLine([]byte(c.in), true); got != c.sgr {
				t.Errorf("renderLine(%q, keepSGR) = %q; want %q", c.in, got, c.sgr)
			}
		}
	}
}

func FuzzJournalLines(f *testing.F) {
	for _, s := range []string{"a\r\nb", "\x1b[31mx\x1b[0m\n", "10%\r20%\n", "\xc3", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n", "中\b\b文\x1b[K\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lines := Lines(b, false, true)
		if n, nl := len(lines), bytes.Count(b, []byte{'\n'}); n < nl || n > nl+1 {
			t.Fatalf("%d lines from %d newlines", n, nl)
		}
		for _, l := range lines {
			if !utf8.ValidString(l) || strings.ContainsAny(l, "\n\r\x1b") {
				t.Fatalf("line %q is not plain valid text", l)
			}
		}
		_ = Lines(b, true, true)
		if e := SafeEnd(b); e < 0 || e > len(b) {
			t.Fatalf("SafeEnd = %d of %d", e, len(b))
		}
		_ = Compress(string(b))
	})
}

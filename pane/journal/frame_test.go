package journal

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCompress(t *testing.T) {
	cases := []struct{ in, want string }{
		{"\x1b[31mred\x1b[0m text", "red text"},
		{"10%\r20%\r100%\ndone", "100%\ndone"},
		{"downloading 10%\rok", "okwnloading 10%"}, // a shorter redraw leaves the rest, as a terminal shows
		{"a\na\na\na\nb", "a\n[previous line repeated 3 more times]\nb"},
		{"x\nx\ny", "x\nx\ny"},
		{"line\r\nline\r\n", "line\nline\n"},
		{"trailing   \nspaces\t", "trailing\nspaces"},
		{"", ""},
	}
	for _, c := range cases {
		if got := Compress(c.in); got != c.want {
			t.Errorf("Compress(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

func TestPreview(t *testing.T) {
	if p, cut := Preview("short", 300); p != "short" || cut {
		t.Errorf("Preview(short) = %q, %v", p, cut)
	}
	// multibyte characters at the cut: é is 2 bytes, 😀 is 4
	for _, unit := range []string{"é", "😀", "中", "aé", "a😀b"} {
		s := strings.Repeat(unit, 400) + "line5"
		for _, max := range []int{300, 299, 298, 297, 10} {
			p, cut := Preview(s, max)
			if !cut || len(p) > max || !utf8.ValidString(p) || !strings.HasSuffix(p, "line5") || len(p) < max-3 {
				t.Errorf("Preview(%q*400, %d) = %d bytes, cut=%v, valid=%v", unit, max, len(p), cut, utf8.ValidString(p))
			}
		}
	}
	// invalid UTF-8 in the output is replaced, never passed on
	if p, _ := Preview("ok\xff\xfe", 300); !utf8.ValidString(p) {
		t.Errorf("Preview kept invalid UTF-8: %q", p)
	}
}

func TestCountTokens(t *testing.T) {
	if tokenizerLoaded() {
		t.Fatal("the tokenizer was loaded before any count: it must load lazily")
	}
	for s, want := range map[string]int{"": 0, "hello world": 2, "line1\nline2": 5} {
		if got := CountTokens(s); got != want {
			t.Errorf("CountTokens(%q) = %d; want %d", s, got, want)
		}
	}
	if !tokenizerLoaded() {
		t.Error("the tokenizer is not loaded after a count")
	}
	st := CountOutput("\x1b[32mok\x1b[0m\nok\nok\nok\n")
	if st.Skipped || st.Compressed == nil || st.Original == nil || *st.Compressed >= *st.Original {
		t.Errorf("CountOutput: %+v; want compressed < original", st)
	}
	big := strings.Repeat("é", TokenSkipBytes)
	if st := CountOutput(big); !st.Skipped || st.Compressed != nil || st.Original != nil {
		t.Errorf("CountOutput(256 KiB) = %+v; want skipped, with no counts", st)
	}
}

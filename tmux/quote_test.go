package tmux

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// unquote reads one token as tmux's parser does (cmd-parse.y) for what
// quoteArg writes: single-quoted text taken literally, double-quoted text
// with \n and nothing else special. ok is false for anything else.
func unquote(s string) (string, bool) {
	var b strings.Builder
	for s != "" {
		switch s[0] {
		case '\'':
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(s[1 : 1+end])
			s = s[2+end:]
		case '"':
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				return "", false
			}
			in := s[1 : 1+end]
			if strings.ContainsAny(in, "$~") || strings.Count(in, `\`) != strings.Count(in, `\n`) {
				return "", false // the parser would expand it
			}
			b.WriteString(strings.ReplaceAll(in, `\n`, "\n"))
			s = s[2+end:]
		default:
			return "", false // outside quotes: a space, ; or } would end the token
		}
	}
	return b.String(), true
}

func FuzzQuoteArg(f *testing.F) {
	for _, s := range []string{"", "plain", "it's", "'\n'", "a\nb", `"\n"`, "$HOME ~", "\\", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, a string) {
		q, ok := quoteArg(a)
		if ok != (utf8.ValidString(a) && !strings.ContainsRune(a, 0)) {
			t.Fatalf("quoteArg(%q) ok=%v", a, ok)
		}
		if !ok {
			return
		}
		if strings.ContainsAny(q, "\n\x00") {
			t.Fatalf("quoteArg(%q) = %q holds a newline or NUL", a, q)
		}
		if got, ok := unquote(q); !ok || got != a {
			t.Fatalf("quoteArg(%q) = %q reads back as %q (ok=%v)", a, q, got, ok)
		}
	})
}

package pane

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/tiktoken-go/tokenizer/codec"
)

// Completion-frame limits (SPEC.md section 8).
const (
	PreviewBytes   = 300       // output_preview holds at most this many bytes
	TokenSkipBytes = 128 << 10 // output above this is not tokenized
)

// Compress makes output cheaper to read without losing what it says: ANSI
// escapes removed, carriage-return redraws (progress bars) collapsed to
// the state a terminal would show, trailing blanks trimmed, and runs of
// identical lines folded into the line and a count.
func Compress(s string) string {
	s = ansi.Strip(s)
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); {
		l := strings.TrimRight(collapseCR(lines[i]), " \t")
		j := i + 1
		for j < len(lines) && strings.TrimRight(collapseCR(lines[j]), " \t") == l {
			j++
		}
		out = append(out, l)
		if n := j - i - 1; n > 0 {
			if n == 1 {
				out = append(out, l)
			} else {
				out = append(out, fmt.Sprintf("[previous line repeated %d more times]", n))
			}
		}
		i = j
	}
	return strings.Join(out, "\n")
}

// collapseCR applies carriage returns as a terminal does: each "\r" moves
// back to the start of the line and what follows overwrites what was there
// (a shorter redraw leaves the end of the longer one visible).
func collapseCR(l string) string {
	if !strings.Contains(l, "\r") {
		return l
	}
	var cells []rune
	for _, seg := range strings.Split(l, "\r") {
		for i, r := range []rune(seg) {
			if i < len(cells) {
				cells[i] = r
			} else {
				cells = append(cells, r)
			}
		}
	}
	return string(cells)
}

// Preview is the tail of s in at most max bytes, valid UTF-8 (invalid
// bytes replaced first), cut on a character boundary; cut is true when it is
// not all of s.
func Preview(s string, max int) (preview string, cut bool) {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= max {
		return s, false
	}
	i := len(s) - max
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:], true
}

var (
	tokOnce  sync.Once
	tokCodec *codec.Codec
)

// tokenizerLoaded reports whether the vocabulary was loaded (tests check
// that nothing loads it before a count is asked for).
func tokenizerLoaded() bool { return tokCodec != nil }

// CountTokens counts o200k_base tokens of s. The vocabulary (about 200,000
// entries) is built on the first call only, so commands that never count
// (panectl version) never pay for it.
func CountTokens(s string) int {
	tokOnce.Do(func() { tokCodec = codec.NewO200kBase() })
	n, err := tokCodec.Count(s)
	if err != nil {
		// invalid UTF-8 cannot be encoded: count the repaired text
		n, _ = tokCodec.Count(strings.ToValidUTF8(s, "\uFFFD"))
	}
	return n
}

// TokenStats is the token part of a completion frame.
type TokenStats struct {
	Original   int  // tokens of the output as written; bytes/4 when Skipped
	Compressed *int // tokens of Compress(output); nil when Skipped
	Skipped    bool // the output exceeds TokenSkipBytes
}

// CountOutput counts the tokens of raw output and of its compressed form,
// unless it is larger than TokenSkipBytes.
func CountOutput(raw string) TokenStats {
	if len(raw) > TokenSkipBytes {
		return TokenStats{Original: (len(raw) + 3) / 4, Skipped: true}
	}
	c := CountTokens(Compress(raw))
	return TokenStats{Original: CountTokens(raw), Compressed: &c}
}

package journal

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Completion-frame limits (SPEC.md section 8).
const (
	PreviewBytes   = 300       // output_preview holds at most this many bytes
	TokenSkipBytes = 128 << 10 // output above this is not tokenized
)

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
	Original   *int // tokens of the output as written; nil when Skipped
	Compressed *int // tokens of Compress(output); nil when Skipped
	Skipped    bool // the output exceeds TokenSkipBytes
}

// CountOutput counts the tokens of raw output and of its compressed form,
// unless it is larger than TokenSkipBytes (then both are omitted, as the
// completion frame contract says).
func CountOutput(raw string) TokenStats {
	if len(raw) > TokenSkipBytes {
		return TokenStats{Skipped: true}
	}
	o, c := CountTokens(raw), CountTokens(Compress(raw))
	return TokenStats{Original: &o, Compressed: &c}
}

// OutputSummary is the output part of a completion frame.
type OutputSummary struct {
	Preview   string // the tail of the rendered output, at most PreviewBytes
	Truncated bool   // Preview is not all of it (or the journal lost its oldest part)
	Tokens    TokenStats
	Bytes     int64 // bytes the journal keeps
}

// previewWindow is how many of a large journal's newest bytes the preview
// is rendered from.
const previewWindow = 16 << 10

// Summarize builds the output part of a completion frame from a
// journal: tokens of the whole stream when it is at most TokenSkipBytes,
// the preview from its rendered tail.
func Summarize(dir string) (OutputSummary, error) {
	kept, dropped, err := Size(dir)
	if err != nil {
		return OutputSummary{}, err
	}
	var sum OutputSummary
	sum.Bytes = kept
	var text []byte
	if !dropped && kept <= TokenSkipBytes {
		d, err := Read(dir, -1)
		if err != nil {
			return OutputSummary{}, err
		}
		text = d.Data
		sum.Tokens = CountOutput(string(d.Data))
	} else {
		sum.Tokens = TokenStats{Skipped: true}
		d, err := Tail(dir, previewWindow)
		if err != nil {
			return OutputSummary{}, err
		}
		text = d.Data
		if d.Start > d.First {
			// start at a line (or at least a character) boundary
			if i := bytes.IndexByte(text, '\n'); i >= 0 && i < len(text)-1 {
				text = text[i+1:]
			}
			for len(text) > 0 && !utf8.RuneStart(text[0]) {
				text = text[1:]
			}
			sum.Truncated = true
		}
	}
	lines := Lines(text, false, true)
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	p, cut := Preview(strings.Join(lines, "\n"), PreviewBytes)
	if cut {
		p = strings.TrimLeft(p, "\n") // not a line cut in two
	}
	sum.Preview = p
	sum.Truncated = sum.Truncated || cut || dropped
	return sum, nil
}

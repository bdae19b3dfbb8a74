package pane

import (
	"fmt"
	"slices"
	"strings"

	"github.com/panectl/panectl/tmux"
)

// flatText is s with its blanks left out. tmux trims the blanks a row ends
// with. A reflow after a change of width moves where rows end, and keeps
// every other character in its order. So the text without blanks reads the
// same at any width.
func flatText(s string) string {
	if !strings.ContainsAny(s, " \t") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// flatBase is the base of flatHash, FNV's 64-bit prime.
const flatBase = 1099511628211

// flatHash is a polynomial hash of s. findFlat rolls it along a text.
func flatHash(s string) uint64 {
	var h uint64
	for i := 0; i < len(s); i++ {
		h = h*flatBase + uint64(s[i])
	}
	return h
}

// findFlat returns every offset e of text where text[e-n:e] has hash h.
func findFlat(text string, n int, h uint64) []int {
	if n > len(text) {
		return nil
	}
	pow := uint64(1)
	for range n {
		pow *= flatBase
	}
	var ends []int
	cur := flatHash(text[:n])
	for e := n; ; e++ {
		if cur == h {
			ends = append(ends, e)
		}
		if e == len(text) {
			return ends
		}
		cur = cur*flatBase + uint64(text[e]) - pow*uint64(text[e-n])
	}
}

// variedFlat reports whether lines, the text without blanks of the lines
// before a point, say enough to tell them from a later repetition. It is
// normalView.varied for lines: their distinct lines hold at least
// anchorBytes bytes, and they do not repeat a shorter sequence of lines.
// Output such as yes, blank lines or a prompt pressed again and again
// prints the same lines anywhere later.
func variedFlat(lines []string) bool {
	seen := map[string]bool{}
	text := 0
	for _, l := range lines {
		if !seen[l] {
			seen[l] = true
			text += len(l)
		}
	}
	if text < anchorBytes {
		return false
	}
	for d := 1; d <= len(lines)/2; d++ {
		if slices.Equal(lines[d:], lines[:len(lines)-d]) {
			return false
		}
	}
	return true
}

// flatAt fingerprints the text before the point for a new cursor c. The
// point is pad blanks after the end of relative row r. FlatAll says the
// view holds all the pane's text before it, and it is shorter than a full
// fingerprint.
func (v normalView) flatAt(r, pad int, snap tmux.PaneInfo, c *Cursor) {
	if !v.indexed() {
		v.index()
	}
	i := min(max(r-v.start+1, 0), len(v.rows)) // the rows up to r
	text := v.flat[:v.foff[i]]
	k := i - 1 // the last of them with text, -1 if none
	for k >= 0 && v.foff[k+1] == v.foff[k] {
		k--
	}
	c.HasFlat, c.FlatBreaks, c.FlatPad = true, i-1-k, pad
	c.FlatAll = len(text) < anchorBytes && v.start <= -snap.HistorySize
	text = text[max(0, len(text)-anchorBytes):]
	c.FlatLen, c.FlatHash = len(text), flatHash(text)
}

// locateFlat finds the cursor's point in a view of the whole history after
// a change of width. It searches the joined lines' text without blanks for
// the text the cursor fingerprinted. One place, with a full fingerprint
// that does not repeat itself, is certain. So is text the cursor found at
// the start of the pane, still there. Several places, or weak evidence,
// leave the place uncertain: the lines after the newest place are new. ok
// is false when no place shows the text. Part of it was trimmed or cleared
// then.
func (v normalView) locateFlat(cur Cursor, snap tmux.PaneInfo) (placement, bool) {
	plain := make([]string, len(v.joined))
	offs := make([]int, len(v.joined)+1) // where each line starts in text
	var b strings.Builder
	for j, l := range v.joined {
		plain[j] = cleanLine(l, false)
		offs[j] = b.Len()
		b.WriteString(flatText(plain[j]))
	}
	offs[len(v.joined)] = b.Len()
	text := b.String()
	// Text at the start of the pane is certain when it still starts it. It
	// may have lost its head to a trim, or to a clear-history (history is
	// smaller than it was, unless the pane got wider), or a program may
	// have redrawn it. Else it is searched for anywhere, as weak evidence.
	start := cur.FlatAll && !mayTrim(snap) && snap.HistorySize >= cur.History &&
		cur.FlatLen <= len(text) && flatHash(text[:cur.FlatLen]) == cur.FlatHash
	ends := []int{cur.FlatLen}
	if !start {
		ends = findFlat(text, cur.FlatLen, cur.FlatHash)
	}
	if len(ends) == 0 {
		return placement{}, false
	}
	e := ends[len(ends)-1]
	line, end := lineAt(e, offs, plain) // where the text ends
	p := placement{kind: placeFound, flat: true, full: true, line: line, skip: end, row: v.body}
	if cur.FlatBreaks > 0 {
		if e == 0 {
			line = -1 // (no text: before the first line)
		}
		p.line, p.skip = min(line+cur.FlatBreaks, len(v.joined)), 0
	}
	if p.line < len(v.joined) {
		p.row = v.lineStarts(v.body)[p.line]
		p.skip = skipBlanks(plain[p.line], p.skip, cur.FlatPad)
	}
	p.at = p.row
	// the lines the fingerprinted text spans, the last up to its end
	var spanned []string
	for j := 0; j <= line; j++ {
		if offs[j+1] > e-cur.FlatLen {
			spanned = append(spanned, text[offs[j]:min(offs[j+1], e)])
		}
	}
	if len(ends) == 1 && (start || cur.FlatLen == anchorBytes && variedFlat(spanned)) {
		return p, true
	}
	why := fmt.Sprintf("the text before it is found at %d places", len(ends))
	if len(ends) == 1 {
		why = "the text before it is too short or repetitive to tell it from a repetition"
	}
	return placement{kind: placeUncertain, row: -snap.HistorySize, reason: why, newest: &p}, true
}

// skipBlanks moves past at most n blanks of l from byte i.
func skipBlanks(l string, i, n int) int {
	for ; n > 0 && i < len(l) && (l[i] == ' ' || l[i] == '\t'); n-- {
		i++
	}
	return i
}

// lineAt is where flat offset e falls in lines whose text without blanks
// starts at offs. It is the line and the bytes of its plain text up to e.
// An offset between two lines is the end of the first.
func lineAt(e int, offs []int, plain []string) (line, skip int) {
	if e == 0 || len(plain) == 0 {
		return 0, 0
	}
	j := 0
	for j+1 < len(plain) && offs[j+1] < e {
		j++
	}
	l, k := plain[j], e-offs[j]
	i := 0
	for ; i < len(l) && k > 0; i++ {
		if l[i] != ' ' && l[i] != '\t' {
			k--
		}
	}
	return j, i
}

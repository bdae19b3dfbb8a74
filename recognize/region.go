package recognize

import (
	"strings"
	"unicode/utf8"
)

// view is a Screen prepared for matching: no-break spaces turned into spaces
// (Claude draws "❯\u00a0"), rows right-trimmed, trailing blank rows removed,
// horizontal rules located, and each row's text without the frame of the
// box it is drawn in.
type view struct {
	scr   Screen
	rows  []string
	text  []string // rows without box frames (unframe), what regexes see
	rules []int    // indices of horizontal-rule rows
}

func newView(scr Screen) *view {
	rows := make([]string, len(scr.Rows))
	for i, r := range scr.Rows {
		rows[i] = strings.TrimRight(strings.ReplaceAll(r, "\u00a0", " "), " \t\r\n")
	}
	for len(rows) > 0 && rows[len(rows)-1] == "" {
		rows = rows[:len(rows)-1]
	}
	v := &view{scr: scr, rows: rows, text: make([]string, len(rows))}
	for i, r := range rows {
		v.text[i] = unframe(r)
		if isRule(r) {
			v.rules = append(v.rules, i)
		}
	}
	return v
}

// isFrameRune reports the vertical box-drawing runes agents draw dialogs,
// prompt boxes and gutters with (│ ┃ ║ and the thin bars ▎ ▏ ▕).
func isFrameRune(r rune) bool {
	switch r {
	case '│', '┃', '║', '▎', '▏', '▕':
		return true
	}
	return false
}

// unframe returns row without the vertical frames around its text: a frame
// rune at the start (after spaces) followed by a space or nothing, and a
// frame rune (or a scrollbar █) at the end after a space, repeatedly, so
// "│ │ key │ │" gives "key" and "┃  Build · Model" gives "Build · Model".
// Leading spaces of the text inside the frame are kept trimmed; rules match
// what a person reads inside the box.
func unframe(row string) string {
	t := strings.TrimSpace(row)
	for changed := true; changed && t != ""; {
		changed = false
		if r, n := utf8.DecodeRuneInString(t); isFrameRune(r) && (len(t) == n || t[n] == ' ') {
			t, changed = strings.TrimLeft(t[n:], " "), true
		}
		if r, n := utf8.DecodeLastRuneInString(t); (isFrameRune(r) || r == '█') && len(t) > n && t[len(t)-n-1] == ' ' {
			t, changed = strings.TrimRight(t[:len(t)-n], " "), true
		} else if len(t) == n && isFrameRune(r) {
			t, changed = "", true
		}
	}
	return t
}

// isRuleRune reports the box-drawing runes that make a horizontal rule.
// Dashed lines (╌ ┄) are left out: agents draw them around diffs.
func isRuleRune(r rune) bool {
	return r == '─' || r == '━' || r == '═'
}

// isRule reports whether row is a horizontal rule: after leading spaces it
// starts with ─, ━ or ═ and at least 8 runes (and half of the non-space runes)
// are rule runes, so a rule carrying a session name still counts. Box tops and
// bottoms (╭──╮, └──┘) and framed rows (│ ── │) are not rules.
func isRule(row string) bool {
	t := strings.TrimSpace(row)
	first, _ := utf8.DecodeRuneInString(t)
	if !isRuleRune(first) {
		return false
	}
	rule, other := 0, 0
	for _, r := range t {
		switch {
		case isRuleRune(r):
			rule++
		case r != ' ':
			other++
		}
	}
	return rule >= 8 && rule >= other
}

// span is a half-open row range [from, to).
type span struct{ from, to int }

// inputBox finds the live input box of m's program: the last row matching
// m.InputMarker (with its continuation rows) when m has one and it is found;
// else the rows between the last two horizontal rules; else the rows after the
// only rule; else the last row. top is the first row of the box's frame (the
// rule above it, or the marker row); rows above top are "above the box".
func (v *view) inputBox(m *Manifest) (box span, top int, note string) {
	n := len(v.rows)
	if n == 0 {
		return span{}, 0, ""
	}
	if m != nil && m.InputMarker != nil {
		for i := n - 1; i >= 0; i-- {
			ok, err := m.InputMarker.match(v.rows[i])
			if err != nil {
				note = "input_marker timed out; used the rules instead"
				break
			}
			if ok {
				j := i + 1
				for j < n && v.rows[j] != "" && !isRule(v.rows[j]) {
					j++
				}
				return span{i, j}, i, ""
			}
		}
	}
	switch k := len(v.rules); {
	case k >= 2:
		return span{v.rules[k-2] + 1, v.rules[k-1]}, v.rules[k-2], note
	case k == 1:
		return span{v.rules[0] + 1, n}, v.rules[0], note
	}
	return span{n - 1, n}, n - 1, note
}

// lastNonEmpty returns the indices of the last count non-empty rows of
// rows[:end], bottom first; a row holding only a frame ("│   │") is empty.
func (v *view) lastNonEmpty(end, count int) []int {
	var out []int
	for i := end - 1; i >= 0 && len(out) < count; i-- {
		if v.text[i] != "" {
			out = append(out, i)
		}
	}
	return out
}

// cursorKnown reports whether the Screen carries a cursor position.
func (v *view) cursorKnown() bool {
	s := v.scr
	return s.CursorY >= 0 && !(s.Height == 0 && s.CursorX == 0 && s.CursorY == 0)
}

// idleComposerRows is how many non-empty rows (the agent's footer) may
// follow an idle composer for it to count as the bottom of the screen.
const idleComposerRows = 4

// idleComposer finds m's composer shown idle at the bottom of the screen:
// the live input box (inputBox) with at most idleComposerRows non-empty
// rows under it, one of whose rows an awaiting_input rule of m on region
// input_box matches. A dialog replaces or covers the composer, so while it
// is there the rows above it are transcript (the user's own prompt, an
// answer quoting "Enter to confirm" or "● 1. Allow once") and the rows
// under it its footer (Codex prints the session title, that is the first
// prompt, there): the live region of a dialog is the box itself. ok is
// false when m has no such rule or its composer is not found that way.
func (v *view) idleComposer(m *Manifest) (box span, ok bool) {
	if m == nil || len(v.rows) == 0 {
		return span{}, false
	}
	box, _, note := v.inputBox(m)
	if note != "" || box.to <= box.from {
		return span{}, false
	}
	under := 0
	for k := box.to; k < len(v.rows); k++ {
		if v.text[k] != "" {
			under++
		}
	}
	if under > idleComposerRows {
		return span{}, false
	}
	for i := range m.Rules {
		r := &m.Rules[i]
		if r.State != AwaitingInput || r.Region.Kind != RegionInputBox {
			continue
		}
		for k := box.from; k < box.to; k++ {
			if ok, err := r.Regex.match(v.text[k]); err == nil && ok {
				return box, true
			}
		}
	}
	return span{}, false
}

// region returns the text lines of region r, in the order they are tried
// (bottom first), plus a note when finding the region hit a problem.
// Rows outside within (when within.to > 0) are left out of the screen-row
// regions (screen, bottom, after_last_rule).
func (v *view) region(r Region, m *Manifest, within span) (lines []string, note string) {
	in := func(k int) bool { return within.to == 0 || k >= within.from && k < within.to }
	rowsAt := func(idx []int) []string {
		var out []string
		for _, k := range idx {
			if in(k) {
				out = append(out, v.text[k])
			}
		}
		return out
	}
	spanRows := func(s span) []string {
		var out []string
		for i := s.to - 1; i >= s.from; i-- {
			if in(i) {
				out = append(out, v.text[i])
			}
		}
		return out
	}
	switch r.Kind {
	case RegionTitle:
		if v.scr.Title == "" {
			return nil, ""
		}
		return []string{v.scr.Title}, ""
	case RegionCommand:
		if v.scr.Command == "" {
			return nil, ""
		}
		return []string{v.scr.Command}, ""
	case RegionJob:
		if v.scr.Job == "" {
			return nil, ""
		}
		return []string{v.scr.Job}, ""
	case RegionScreen:
		return spanRows(span{0, len(v.rows)}), ""
	case RegionBottom:
		return rowsAt(v.lastNonEmpty(len(v.rows), r.N)), ""
	case RegionAfterLastRule:
		if len(v.rules) == 0 {
			return spanRows(span{0, len(v.rows)}), ""
		}
		return spanRows(span{v.rules[len(v.rules)-1] + 1, len(v.rows)}), ""
	case RegionInputBox:
		box, _, note := v.inputBox(m)
		within = span{}
		return spanRows(box), note
	case RegionAboveInputBox:
		_, top, note := v.inputBox(m)
		within = span{}
		return rowsAt(v.lastNonEmpty(top, r.N)), note
	case RegionCursorLine:
		if !v.cursorKnown() {
			within = span{}
			return rowsAt(v.lastNonEmpty(len(v.rows), 1)), ""
		}
		if v.scr.CursorY < len(v.rows) {
			return []string{v.text[v.scr.CursorY]}, ""
		}
		return []string{""}, "" // the cursor is on a blank row below the text
	}
	return nil, ""
}

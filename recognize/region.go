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

// liveDialogRows returns which rows may hold a live dialog while m's
// composer shows idle at the bottom of the screen, or nil when it does not
// (then every row may). The composer shows when an awaiting_input rule of
// m on region input_box matches a row of the live input box (inputBox)
// that has at most idleComposerRows non-empty rows under it. A dialog
// replaces or covers the composer, so the rows above the box are
// transcript (the user's own prompt, an answer quoting "Enter to confirm"
// or "● 1. Allow once") and the composer row holds the user's draft. When
// the box is the composer alone (found by input_marker, or closed between
// two rules), no row is live: the rows under it are the agent's footer
// (Codex prints the session title, the first prompt, there). When the box
// is what follows the only rule, its rows stay live: it may be a dialog
// drawn after a rule, whose highlighted option "❯ 1. Yes" reads like a
// composer (so a one-line draft with dialog words in such a composer,
// Gemini's, is still taken for a dialog).
//
// A box holding an option list of the layers (a rule with also, such as
// dialogs' "❯ 1. Yes" beside "2. No") is a dialog, not the composer:
// Claude draws first-run choices between two rules, where its composer
// goes.
func (v *view) liveDialogRows(m *Manifest, layers []*Manifest) func(int) bool {
	if m == nil || len(v.rows) == 0 {
		return nil
	}
	box, _, note := v.inputBox(m)
	if note != "" || box.to <= box.from || v.boxHoldsOptions(box, layers) {
		return nil
	}
	for i := range m.Rules {
		r := &m.Rules[i]
		if r.State != AwaitingInput || r.Region.Kind != RegionInputBox {
			continue
		}
		for k := box.from; k < box.to; k++ {
			if ok, err := r.Regex.match(v.text[k]); err != nil || !ok || v.nonEmptyUnder(k) > idleComposerRows {
				continue
			}
			if v.closedBox(m, box) {
				return func(int) bool { return false }
			}
			return func(j int) bool { return j >= box.from && j < box.to }
		}
	}
	return nil
}

// boxHoldsOptions reports whether an approval rule of the layers that
// needs company (also) matches two rows of box, the first not on the box's
// first row: an option list under its question. A composer's prompt glyph
// sits on its first row, so a numbered draft ("❯ 1. fix it", "2. test")
// stays a draft.
func (v *view) boxHoldsOptions(box span, layers []*Manifest) bool {
	var lines []string // bottom first, without the first non-empty row
	for k := box.to - 1; k >= box.from; k-- {
		lines = append(lines, v.text[k])
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > 0 {
		lines = lines[:len(lines)-1]
	}
	for _, l := range layers {
		for i := range l.Rules {
			r := &l.Rules[i]
			if r.State != AwaitingApproval || r.Also == nil {
				continue
			}
			if _, ok, err := matchRule(r, lines); err == nil && ok {
				return true
			}
		}
	}
	return false
}

// closedBox reports whether box, from inputBox, is the composer alone:
// found by m's input_marker, or between the last two rules.
func (v *view) closedBox(m *Manifest, box span) bool {
	if m.InputMarker != nil {
		if ok, err := m.InputMarker.match(v.rows[box.from]); err == nil && ok {
			return true
		}
	}
	k := len(v.rules)
	return k >= 2 && box.from == v.rules[k-2]+1 && box.to == v.rules[k-1]
}

// nonEmptyUnder counts the non-empty rows under row k.
func (v *view) nonEmptyUnder(k int) int {
	n := 0
	for j := k + 1; j < len(v.rows); j++ {
		if v.text[j] != "" {
			n++
		}
	}
	return n
}

// region returns the text lines of region r, in the order they are tried
// (bottom first), plus a note when finding the region hit a problem.
// Rows live (when not nil) says no to are left out of the screen-row
// regions (screen, bottom, after_last_rule).
func (v *view) region(r Region, m *Manifest, live func(int) bool) (lines []string, note string) {
	in := func(k int) bool { return live == nil || live(k) }
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
	case RegionShell:
		if v.scr.Shell == "" {
			return nil, ""
		}
		return []string{v.scr.Shell}, ""
	case RegionProcess:
		if v.scr.Process == "" {
			return nil, ""
		}
		return []string{v.scr.Process}, ""
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
		live = nil
		return spanRows(box), note
	case RegionAboveInputBox:
		_, top, note := v.inputBox(m)
		live = nil
		return rowsAt(v.lastNonEmpty(top, r.N)), note
	case RegionCursorLine:
		if !v.cursorKnown() {
			live = nil
			return rowsAt(v.lastNonEmpty(len(v.rows), 1)), ""
		}
		if v.scr.CursorY < len(v.rows) {
			return []string{v.text[v.scr.CursorY]}, ""
		}
		return []string{""}, "" // the cursor is on a blank row below the text
	}
	return nil, ""
}

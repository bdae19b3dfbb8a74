package recognize

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/panectl/panectl/schema"
)

// Option is one option of a dialog as read from the screen (schema.Option).
type Option = schema.Option

// Dialog is the option list of an approval dialog, as drawn.
type Dialog struct {
	// Options in screen order. Key is the number drawn before the text,
	// or the position from 1 when the options carry no numbers.
	Options []Option
	// Rows are the option rows and up to dialogContext rows above them
	// (the question, the command): they tell one dialog from another.
	Rows []string
}

// Selected is the index of the highlighted option, or -1 when no option
// shows a highlight mark (opencode marks it by colour alone).
func (d Dialog) Selected() int {
	for i, o := range d.Options {
		if o.Selected {
			return i
		}
	}
	return -1
}

// dialogRows is how many non-empty rows from the bottom the option list
// is looked for in; dialogContext how many rows above it identify it.
const (
	dialogRows    = 30
	dialogContext = 4
	// optionGap is how many rows (a description, a wrapped text) may lie
	// between two numbered options.
	optionGap = 3
)

var (
	// numberedOption: "❯ 1. Yes", "  2. No", "● 1. Allow once", and
	// "2.Yes, and always ..." (Claude Code draws a wrapped option with no
	// space after its number): no space only before a letter (see
	// matchNumbered), so "1.5 s" is no option.
	numberedOption = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:([›❯>●→▶◉])\s*)?(\d{1,2})[.)](\s*)(\S.*)$`)
	})
	// markedOption: an unnumbered option with its highlight mark, "❯ No, exit", "→ Yes".
	markedOption = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[›❯>→▶]\s+(\S.*)$`) })
	// buttonHints ends a row of buttons: opencode's "ctrl+f fullscreen  ⇆ select  enter confirm".
	buttonHints = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s{2,}(ctrl\+f fullscreen|⇆ select)`) })
	// buttonGap separates buttons.
	buttonGap = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s{3,}`) })
	// pageCount is a picker's "(1/30)" under its options.
	pageCount = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\(\d+/\d+\)$`) })
)

// ReadDialog reads the option list of the dialog at the bottom of scr: a
// numbered list with a highlighted option, else unnumbered options beside
// a highlighted one, else a row of buttons before opencode's "⇆ select"
// hint. It reads only the first row of an option whose text wraps. A
// screen without such a list gives a zero Dialog.
func ReadDialog(scr Screen) Dialog {
	v := newView(scr)
	rows := v.lastNonEmpty(len(v.rows), dialogRows) // bottom first
	for _, read := range []func(*view, []int) (Dialog, bool){readNumbered, readMarked, readButtons} {
		if d, ok := read(v, rows); ok {
			return d
		}
	}
	return Dialog{}
}

// readNumbered reads the numbered list around the lowest highlighted
// numbered row: 1, 2, ... upwards and downwards from it.
func readNumbered(v *view, rows []int) (Dialog, bool) {
	for _, h := range rows {
		m := matchNumbered(v.text[h])
		if m == nil || m[1] == "" {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		at := map[int]int{n: h} // number -> row
		collect(v, at, h, n, -1)
		collect(v, at, h, n, 1)
		if len(at) < 2 {
			continue
		}
		d := Dialog{}
		first, last := len(v.rows), 0
		for num := n - len(at); num <= n+len(at); num++ {
			k, ok := at[num]
			if !ok {
				continue
			}
			o := matchNumbered(v.text[k])
			d.Options = append(d.Options, Option{Key: o[2], Text: o[3], Selected: k == h})
			first, last = min(first, k), max(last, k)
		}
		d.Rows = v.text[max(0, first-dialogContext) : last+1]
		return d, true
	}
	return Dialog{}, false
}

// collect adds to at the rows of the options numbered n+dir, n+2*dir, ...
// going from row h in direction dir, until another number or a gap.
func collect(v *view, at map[int]int, h, n, dir int) {
	want, gap := n+dir, 0
	for k := h + dir; k >= 0 && k < len(v.rows) && gap <= optionGap; k += dir {
		o := matchNumbered(v.text[k])
		switch {
		case o == nil:
			gap++
		case o[2] != strconv.Itoa(want):
			return // another list
		default:
			at[want], want, gap = k, want+dir, 0
		}
	}
}

// readMarked reads unnumbered options: the lowest highlighted row and the
// rows right beside it whose text starts in the same column, after
// nothing but spaces and frames.
func readMarked(v *view, rows []int) (Dialog, bool) {
	for _, h := range rows {
		m := markedOption().FindStringSubmatch(v.text[h])
		if m == nil {
			continue
		}
		col := textColumn(v.rows[h], m[1])
		first, last := h, h
		for first > 0 && sibling(v, first-1, col) {
			first--
		}
		for last+1 < len(v.rows) && sibling(v, last+1, col) {
			last++
		}
		if first == last {
			continue
		}
		d := Dialog{Rows: v.text[max(0, first-dialogContext) : last+1]}
		for k := first; k <= last; k++ {
			text := v.text[k]
			if k == h {
				text = m[1]
			}
			d.Options = append(d.Options, Option{Key: strconv.Itoa(k - first + 1), Text: text, Selected: k == h})
		}
		return d, true
	}
	return Dialog{}, false
}

// sibling reports whether row k holds an option beside a highlighted one
// whose text starts at column col.
func sibling(v *view, k, col int) bool {
	t := v.text[k]
	if t == "" || pageCount().MatchString(t) || markedOption().MatchString(t) {
		return false
	}
	return textColumn(v.rows[k], t) == col && strings.Trim(prefixRunes(v.rows[k], col), " │┃║▎▏▕") == ""
}

// textColumn is the rune column where text starts in row (-1: not in it).
func textColumn(row, text string) int {
	i := strings.LastIndex(row, text)
	if i < 0 {
		return -1
	}
	return utf8.RuneCountInString(row[:i])
}

// prefixRunes is the first n runes of s.
func prefixRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// readButtons reads a row of buttons, "Allow once   Allow always   Reject",
// before opencode's key hints. No highlight shows in text.
func readButtons(v *view, rows []int) (Dialog, bool) {
	for _, k := range rows[:min(len(rows), 6)] {
		loc := buttonHints().FindStringIndex(v.text[k])
		if loc == nil {
			continue
		}
		parts := buttonGap().Split(strings.TrimSpace(v.text[k][:loc[0]]), -1)
		if len(parts) < 2 {
			continue
		}
		d := Dialog{Rows: v.text[max(0, k-dialogContext) : k+1]}
		for i, p := range parts {
			d.Options = append(d.Options, Option{Key: strconv.Itoa(i + 1), Text: p})
		}
		return d, true
	}
	return Dialog{}, false
}

// The words that sort options by what they do.
var (
	affirmative = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(yes|allow|approve|accept|trust|proceed|continue|confirm|run|ok)\b`)
	})
	refusing = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(no|don['’]?t|deny|reject|decline|cancel|block|skip)\b`)
	})
	persistent = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(don['’]?t ask again|\balways\b|\bthis session\b|\bremember\b)`)
	})
)

// escKey is an option's own hint that Esc picks it: "(esc)", "(Esc to stop)".
var escKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\(\s*esc\b[^()]*\)$`) })

// NamesEsc reports whether option o says Esc is its key: "No, and tell
// Codex what to do differently (esc)". Copilot CLI takes such an option
// only by Esc, not by Enter on it.
func NamesEsc(o Option) bool { return escKey().MatchString(o.Text) }

// Choices are the named choices of Choose; a number (the option's key) is
// the other kind.
const Choices = "yes, no, always or an option's number"

// Choose picks the option choice names: "yes" the first affirmative option
// that is not "always", "always" the first that lasts ("don't ask again",
// "always", "this session", "remember") and does not refuse, "no" the first
// refusing one, a number the option with that key. The error lists the
// options offered.
func Choose(opts []Option, choice string) (Option, error) {
	pick := func(ok func(Option) bool) (Option, error) {
		for _, o := range opts {
			if ok(o) {
				return o, nil
			}
		}
		return Option{}, fmt.Errorf("the dialog offers no option for %q; its options: %s", choice, schema.ListOptions(opts))
	}
	switch choice {
	case "yes":
		return pick(func(o Option) bool { return affirmative().MatchString(o.Text) && !persistent().MatchString(o.Text) })
	case "always":
		return pick(func(o Option) bool { return persistent().MatchString(o.Text) && !refusing().MatchString(o.Text) })
	case "no":
		return pick(func(o Option) bool { return refusing().MatchString(o.Text) })
	}
	return pick(func(o Option) bool { return o.Key == choice })
}

// matchNumbered matches a numbered option row: [whole, mark, number,
// text], nil when row is none. Its text follows the number after a space,
// or at once when it starts with a letter.
func matchNumbered(row string) []string {
	m := numberedOption().FindStringSubmatch(row)
	if m == nil {
		return nil
	}
	if r, _ := utf8.DecodeRuneInString(m[4]); m[3] == "" && !unicode.IsLetter(r) {
		return nil
	}
	return []string{m[0], m[1], m[2], m[4]}
}

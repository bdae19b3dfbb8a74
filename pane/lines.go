package pane

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// splitRows splits capture-pane output into rows, without the final empty
// element. Each row or logical line in the output ends in "\n".
func splitRows(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// cleanLine makes a logical line as panectl reports it. ANSI escapes are
// removed, unless keepANSI. Trailing whitespace is trimmed. Wide and
// combining characters stay exactly as tmux wrote them.
func cleanLine(s string, keepANSI bool) string {
	if !keepANSI {
		s = ansi.Strip(s)
	}
	return strings.TrimRight(s, " \t")
}

// trimRow is a physical row as fingerprinted: trailing spaces trimmed.
func trimRow(s string) string { return strings.TrimRight(s, " \t") }

// cutPlainPrefix removes the first n bytes of visible text from s. It skips
// and keeps the escape sequences that precede them. So a prefix measured on
// the plain text can be cut from text captured with escapes.
func cutPlainPrefix(s string, n int) string {
	i := 0
	var kept strings.Builder
	for n > 0 && i < len(s) {
		if s[i] == 0x1b {
			j := escapeEnd(s, i)
			kept.WriteString(s[i:j])
			i = j
			continue
		}
		i++
		n--
	}
	return kept.String() + s[i:]
}

// escapeEnd returns the index just past the escape sequence starting at
// s[i]. That is a CSI, an OSC or DCS string, or a two-byte escape.
func escapeEnd(s string, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[':
		for j := i + 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^':
		for j := i + 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return i + 2
}

// lastNonBlank returns the index of the last row with visible text, or -1.
func lastNonBlank(rows []string) int {
	for i := len(rows) - 1; i >= 0; i-- {
		if strings.TrimSpace(ansi.Strip(rows[i])) != "" {
			return i
		}
	}
	return -1
}

func SqueezeBlanks(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// CutCells is the longest prefix of plain text s that fills at most n
// terminal cells, and the cells it fills. Wide characters take two cells,
// combining ones none, and an invalid byte one.
func CutCells(s string, n int) (string, int) {
	w := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		rw := 1
		if r != utf8.RuneError || size > 1 {
			rw = ansi.StringWidth(s[i : i+size])
		}
		if w+rw > n {
			return s[:i], w
		}
		w += rw
		i += size
	}
	return s, w
}

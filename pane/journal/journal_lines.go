package journal

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Journal lines. A journal is a byte stream; its logical lines are the
// text between newlines as a terminal would leave it on one row: escape
// sequences are parsed (charmbracelet/x/ansi) and removed, a carriage
// return or backspace moves back so what follows overwrites (a progress bar
// redrawn with "\r" collapses to its last state, a shorter redraw leaves
// the end of the longer one, as on a terminal), erase-in-line and
// cursor-column moves are applied, and trailing blanks are trimmed. Other
// cursor movement (full-screen programs) is not replayed: for those, the
// screen commands show what tmux drew.

// renderLine renders one line (no '\n') of terminal output. keepSGR keeps
// colour and style sequences (SGR) in front of the characters they style.
func renderLine(b []byte, keepSGR bool) string {
	if plainLine(b) {
		return strings.TrimRight(string(b), " \t")
	}
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	r := lineRenderer{keepSGR: keepSGR}
	var state byte
	p := ansi.NewParser()
	for len(b) > 0 {
		seq, width, n, newState := ansi.DecodeSequence(b, state, p)
		if n <= 0 {
			n = 1
		}
		b = b[n:]
		state = newState
		if state != ansi.NormalState {
			continue // an escape sequence cut by the end of the line
		}
		c := seq[0]
		switch {
		case width > 0:
			r.put(string(seq), width)
		case c >= 0xC0:
			// a zero-width character: it joins the one before it
			if r.col > 0 && r.col-1 < len(r.cells) {
				r.cells[r.col-1] += string(seq)
			}
		case c == '\r':
			r.col = 0
		case c == '\b':
			r.col = max(0, r.col-1)
		case c == '\t':
			r.put("\t", 1)
		case ansi.HasCsiPrefix(seq):
			r.csi(p, seq)
		}
	}
	return r.text()
}

// lineRenderer is renderLine's row as it is drawn.
type lineRenderer struct {
	cells   []string // one per column; "" after a wide character
	col     int
	pending string // SGR waiting for the next character
	keepSGR bool
}

// put writes the character g, w columns wide, at the column.
func (r *lineRenderer) put(g string, w int) {
	for len(r.cells) < r.col+w {
		r.cells = append(r.cells, " ")
	}
	r.cells[r.col] = r.pending + g
	r.pending = ""
	for k := 1; k < w; k++ {
		r.cells[r.col+k] = ""
	}
	r.col += w
}

// csi applies the control sequence seq that p parsed. Erase in line,
// column moves and SGR count; any other is dropped.
func (r *lineRenderer) csi(p *ansi.Parser, seq []byte) {
	cmd := ansi.Cmd(p.Command())
	if cmd.Prefix() != 0 || cmd.Intermediate() != 0 {
		return
	}
	arg := func(def int) int {
		params := p.Params()
		if len(params) == 0 {
			return def
		}
		return ansi.Param(params[0]).Param(def)
	}
	switch cmd.Final() {
	case 'K': // EL: erase in line
		r.eraseInLine(arg(0))
	case 'G', '`': // CHA, HPA: to column
		r.col = clampCol(max(0, arg(1)-1), len(r.cells))
	case 'C', 'a': // CUF, HPR: forward
		r.col = clampCol(r.col+max(1, arg(1)), len(r.cells))
	case 'D': // CUB: back
		r.col = max(0, r.col-max(1, arg(1)))
	case 'm':
		if r.keepSGR {
			r.pending += string(seq)
		}
	}
}

// eraseInLine is EL: 0 erases to the end, 1 to the column, 2 the row.
func (r *lineRenderer) eraseInLine(mode int) {
	switch mode {
	case 0:
		if r.col < len(r.cells) {
			r.cells = r.cells[:r.col]
		}
	case 1:
		for k := 0; k <= r.col && k < len(r.cells); k++ {
			r.cells[k] = " "
		}
	case 2:
		r.cells = r.cells[:0]
	}
}

// text is the row drawn, trailing blanks trimmed.
func (r *lineRenderer) text() string {
	var sb strings.Builder
	for _, c := range r.cells {
		sb.WriteString(c)
	}
	out := strings.TrimRight(sb.String(), " \t")
	if r.keepSGR && r.pending != "" {
		out += r.pending // a reset at the end of the line
	}
	return out
}

// maxMoveCol bounds where a cursor move can put the column beyond the text
// (a terminal stops at its width; a journal does not know it).
const maxMoveCol = 4096

func clampCol(col, n int) int {
	if col < 0 {
		return 0
	}
	return min(col, max(n, maxMoveCol))
}

// plainLine reports whether b has nothing for a terminal to interpret:
// valid UTF-8 with no control character other than tab.
func plainLine(b []byte) bool {
	for _, c := range b {
		if (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return utf8.Valid(b)
}

// Lines splits journal bytes into rendered lines. A last line with
// no newline is included when partial is true (it may still grow).
func Lines(data []byte, keepSGR, partial bool) []string {
	var lines []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			if partial {
				lines = append(lines, renderLine(data, keepSGR))
			}
			break
		}
		lines = append(lines, renderLine(data[:i], keepSGR))
		data = data[i+1:]
	}
	return lines
}

// TailLines returns the rendered last n lines of data (a partial last line
// included) and whether there were more.
func TailLines(data []byte, n int, keepSGR bool) ([]string, bool) {
	body := data
	if len(body) > 0 && body[len(body)-1] == '\n' {
		body = body[:len(body)-1]
	}
	if n <= 0 {
		return Lines(data, keepSGR, true), false
	}
	start, count := len(body), 0
	for count < n {
		i := bytes.LastIndexByte(body[:start], '\n')
		count++
		if i < 0 {
			start = 0
			return Lines(data[start:], keepSGR, true), false
		}
		start = i
	}
	return Lines(data[start+1:], keepSGR, true), true
}

// SafeEnd is the length of the prefix of data a cursor may stop after: an
// incomplete UTF-8 character or escape sequence at its end is left for the
// next read, so it is rendered whole.
func SafeEnd(data []byte) int {
	end := len(data)
	// an unfinished escape sequence after the last newline
	line := data[bytes.LastIndexByte(data, '\n')+1:]
	base := len(data) - len(line)
	if i := bytes.LastIndexByte(line, ansi.ESC); i >= 0 {
		var state byte
		rest := line[i:]
		for len(rest) > 0 {
			_, _, n, st := ansi.DecodeSequence(rest, state, nil)
			if n <= 0 {
				n = 1
			}
			rest, state = rest[n:], st
		}
		if state != ansi.NormalState {
			end = base + i
		}
	}
	// an unfinished UTF-8 character
	for k := 1; k <= 3 && k <= end; k++ {
		c := data[end-k]
		if utf8.RuneStart(c) {
			if c >= 0xC0 && !utf8.FullRune(data[end-k:end]) {
				end -= k
			}
			break
		}
	}
	return end
}

// Compress makes output cheaper to read without losing what it says: its
// journal lines (ANSI removed, carriage-return redraws collapsed to the
// state a terminal shows, trailing blanks trimmed), with runs of identical
// lines folded into the line and a count.
func Compress(s string) string {
	return strings.Join(compressLines(Lines([]byte(s), false, true), strings.HasSuffix(s, "\n")), "\n")
}

func compressLines(lines []string, endsInNewline bool) []string {
	out := make([]string, 0, len(lines)+1)
	for i := 0; i < len(lines); {
		l := lines[i]
		j := i + 1
		for j < len(lines) && lines[j] == l {
			j++
		}
		out = append(out, l)
		switch n := j - i - 1; {
		case n == 1:
			out = append(out, l)
		case n > 1:
			out = append(out, "[previous line repeated "+strconv.Itoa(n)+" more times]")
		}
		i = j
	}
	if endsInNewline {
		out = append(out, "")
	}
	return out
}

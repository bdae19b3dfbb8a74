package pane

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/panectl/panectl/tmux"
)

// A Stream follows a pane's normal screen through its output stream, from a
// snapshot on. The stream is the bytes of a control client's %output
// notifications. A Stream says what a capture at the same point of the
// stream would return to a Read. That is the logical lines after the read's
// cursor, and the cursor after them. It does so only while the output is of
// the kinds it reproduces exactly as tmux does. These are from tmux 3.2 to
// 3.7, screen-write.c and input.c:
//
//   - text written at the terminal cursor: printable characters of width 1
//     or 2 (never a combining or zero-width one), overwriting, with
//     autowrap at the right margin;
//   - carriage return, line feed (and VT, FF), backspace, tab (default tab
//     stops; from tmux 3.6 a tab over blank cells is a tab cell, which
//     capture-pane prints as a tab), and scrolling at the bottom of the
//     screen into history;
//   - erase in line (EL), cursor forward and back (CUF, CUB) and to a
//     column (CHA, HPA) on the cursor's row;
//   - sequences that change nothing on the screen: SGR colours and
//     attributes, OSC strings (titles, the working directory, hyperlinks),
//     cursor style and visibility, keypad, mouse, focus, bracketed-paste
//     and synchronized-output modes, device status and attribute queries.
//
// Anything else makes the stream Invalid. Examples are a cursor move to
// another row, the alternate screen, scrolling regions and insert mode.
// Others are erase in display, a clear, a character set switch, a DCS
// string, or a byte that is not UTF-8. Then only a new capture can say what
// the screen holds. A snapshot gives no Stream when its pane is in any
// state the stream cannot follow. Such states are the alternate screen, a
// scrolling region, insert mode, and autowrap off.
//
// Character widths are those of wcwidth (charmbracelet/x/ansi's WcWidth),
// as tmux computes them. A terminal library and tmux disagree on some
// emoji. There the cursor column panectl predicts differs from tmux's, and
// Check detects it. Every decision made from a Stream is checked against a
// pane description taken after it (Check). The cursor position, the history
// size, the screen size and the modes must be what the stream predicts.
type Stream struct {
	paneID     string
	pid        int
	w, h       int
	hs, hlimit int
	cx, cy     int    // the terminal cursor; cx is w after the last column was written (a wrap is pending)
	bodyAbs    int    // the read cursor's row, absolute (history rows counted from the oldest retained)
	cur        Cursor // the read's cursor

	// rows holds every row a capture for the read holds. They start 64 rows
	// before the read cursor's row, as Read captures them. Frozen rows are
	// kept as text only, open ones as cells.
	firstAbs int // absolute row of rows[0]
	rows     []srow
	openIdx  int // index in rows of the first open row (the start of the cursor's logical line, or later)

	// frozen are the cleaned logical lines after the read's cursor that lie
	// above the open rows. No output the stream follows can change them.
	frozen []string

	// held is the echo by place of the ledger's held entries (see
	// EchoEntry.held) in the frozen lines. It is as the read that seeded
	// the stream found it. It is nil when not kept (see keepEcho).
	held *heldEcho

	tabs tabMode
	// padWrap says a row that wraps early keeps blanks to the pane's width
	// in its line. A row wraps early when a wide character does not fit.
	// capture-pane -J of tmux before 3.3 joins it so
	// (tmux.Client.JoinsWholeWidth).
	padWrap bool
	pending []byte // an escape sequence or character cut by the end of a notification
	parser  *ansi.Parser
	invalid string
}

// tabMode is how the server's tmux stores a tab (tmux.Client.Tabs).
type tabMode int

const (
	tabUnknown tabMode = iota // a build with no version: a tab ends the stream
	tabMoves                  // tmux 3.2 to 3.5: the cursor moves, cells stay blank
	tabCells                  // tmux 3.6 and later: a tab over blank cells is a tab cell
)

func tabModeOf(c interface{ Tabs() (bool, bool) }) tabMode {
	if c == nil {
		return tabUnknown
	}
	switch cells, known := c.Tabs(); {
	case !known:
		return tabUnknown
	case cells:
		return tabCells
	}
	return tabMoves
}

// srow is one physical row. Open rows keep their cells, one string per
// column. The right half of a wide character is "". Frozen rows keep only
// their text.
type srow struct {
	cells   []string
	text    string // frozen rows: the row's text, trailing blanks trimmed
	frozen  bool
	wrapped bool // the row's logical line goes on in the next row
}

// maxPending bounds an escape sequence cut across notifications, such as an
// OSC string. A longer one makes the stream invalid.
const maxPending = 64 << 10

// maxStreamRows bounds the rows a Stream keeps. Beyond it the stream gives
// up, and a new capture starts it again.
const maxStreamRows = 100000

// Invalid says why the stream can no longer say what a capture would. It is
// "" while it can.
func (s *Stream) Invalid() string { return s.invalid }

func (s *Stream) fail(why string) {
	if s.invalid == "" {
		s.invalid = why
	}
}

// newStream seeds a stream from a read's snapshot. That is the fast path of
// Read, where the cursor's rows were where it expected them. skip is the
// prefix of the cursor's row that was cut. It returns nil when the pane is
// in a state the stream does not follow.
func newStream(v normalView, snap tmux.PaneInfo, cur Cursor, skip int, tabs tabMode) *Stream {
	if cur.Special == CursorScreen {
		// "screen" means the screen of each read. Lines that scroll off
		// leave it, and the stream does not follow that.
		return nil
	}
	if !streamFollows(snap) {
		return nil
	}
	if v.body > snap.CursorY || v.body < v.start || len(v.rows) != snap.Height-v.start {
		return nil
	}
	s := &Stream{
		paneID: snap.ID, pid: snap.PID, w: snap.Width, h: snap.Height, hs: snap.HistorySize, hlimit: snap.HistoryLimit,
		cx: snap.CursorX, cy: snap.CursorY, cur: cur, parser: ansi.NewParser(), tabs: tabs,
	}
	s.bodyAbs = snap.HistorySize + v.body
	s.firstAbs = snap.HistorySize + v.start
	open, frozen, wrapped, ok := openRows(v, s.w, s.h, s.cy)
	if !ok {
		return nil
	}
	for k, text := range v.rows {
		row := srow{}
		if v.start+k < open {
			row.text, row.frozen = text, true
		} else {
			row.cells, _ = cellsOf(text)
		}
		s.rows = append(s.rows, row)
	}
	for _, r := range wrapped {
		row := &s.rows[r-v.start]
		row.wrapped = true
		for len(row.cells) < s.w {
			row.cells = append(row.cells, " ") // a wrapped row's trailing blanks are part of its line
		}
	}
	for k, l := range v.joined[:frozen] {
		line := cleanLine(l, false)
		if k == 0 && skip > 0 {
			line = cleanLine(cutPlainPrefix(l, skip), false)
			if strings.TrimSpace(line) == "" {
				continue
			}
		}
		s.frozen = append(s.frozen, line)
	}
	s.openIdx = open - v.start
	return s
}

// streamFollows reports whether a stream can follow the pane in snap. It
// cannot on the alternate screen, with insert or origin mode, without
// autowrap or history, with a scroll region, or with the cursor off the
// screen.
func streamFollows(snap tmux.PaneInfo) bool {
	if snap.AlternateOn || !snap.WrapFlag || snap.InsertFlag || snap.OriginFlag || snap.HistoryLimit <= 0 {
		return false
	}
	if snap.ScrollUpper != 0 || snap.ScrollLower != snap.Height-1 || snap.Width <= 0 || snap.Height <= 0 {
		return false
	}
	return snap.CursorY >= 0 && snap.CursorY < snap.Height && snap.CursorX >= 0 && snap.CursorX <= snap.Width
}

// openRows places the joined lines on the rows from the read cursor's row
// to the bottom. From the bottom up, it finds the rows of each line until
// the one holding the terminal cursor (row cy). That row and the rows
// below are open. They must be text the stream can place in cells. The
// lines above are frozen as captured. It returns the first open row, the
// number of frozen lines, and the open rows that wrap into the next. It
// returns false when the rows do not hold the lines as the stream would
// place them.
func openRows(v normalView, w, h, cy int) (open, frozen int, wrapped []int, ok bool) {
	end, i := h, len(v.joined)-1
	open = -1
	for ; i >= 0 && open < 0; i-- {
		cells, placeable := cellsOf(ansi.Strip(v.joined[i]))
		if !placeable {
			return 0, 0, nil, false
		}
		n := max(1, (len(cells)+w-1)/w)
		start := end - n
		if start < v.body || !rowsHold(v, start, n, cells, w) {
			return 0, 0, nil, false
		}
		for k := start; k < start+n-1; k++ {
			wrapped = append(wrapped, k)
		}
		if start <= cy {
			open = start
		}
		end = start
	}
	return open, i + 1, wrapped, open >= 0
}

// rowsHold reports whether the n rows from start hold cells as the stream
// would place them, w cells a row.
func rowsHold(v normalView, start, n int, cells []string, w int) bool {
	for k := range n {
		row, _ := v.row(start + k)
		if strings.TrimRight(strings.Join(cells[k*w:min(len(cells), (k+1)*w)], ""), " \t") != row {
			return false
		}
	}
	return true
}

// cellsOf splits text into cells of width 1. ok is false for any other
// character, such as a wide, zero-width or control one.
func cellsOf(text string) ([]string, bool) {
	cells := make([]string, 0, len(text))
	for i := 0; i < len(text); {
		c := text[i]
		if c >= 0x20 && c < 0x7f {
			cells = append(cells, text[i:i+1])
			i++
			continue
		}
		if c < 0x80 {
			return nil, false
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError || r < 0xa0 || ansi.WcWidth.StringWidth(text[i:i+n]) != 1 {
			return nil, false
		}
		cells = append(cells, text[i:i+n])
		i += n
	}
	return cells, true
}

// Feed applies output bytes, the decoded %output data in order. It does
// nothing once the stream is invalid.
func (s *Stream) Feed(data []byte) {
	if s.invalid != "" {
		return
	}
	if len(s.pending) > 0 {
		data = append(s.pending, data...)
		s.pending = nil
	}
	for len(data) > 0 && s.invalid == "" {
		c := data[0]
		switch {
		case c >= 0x20 && c < 0x7f:
			// runs of printable ASCII, the common case
			j := 1
			for j < len(data) && data[j] >= 0x20 && data[j] < 0x7f {
				j++
			}
			for _, b := range data[:j] {
				s.put(asciiCell[b], 1)
			}
			data = data[j:]
			continue
		case c == '\r':
			s.cx = 0
		case c == '\n', c == 0x0b, c == 0x0c:
			s.linefeed()
		case c == '\b':
			s.backspace()
		case c == '\t':
			s.tab()
		case c == 0x0e, c == 0x0f:
			s.fail("a character set shift (SO/SI)")
		case c < 0x20 && c != 0x1b, c == 0x7f:
			// NUL, BEL and the other controls tmux ignores
		case c >= 0x80 && c < 0xc0:
			s.fail("a byte that is not UTF-8")
		case c >= 0xc0:
			if !utf8.FullRune(data) {
				s.keep(data)
				return
			}
			r, n := utf8.DecodeRune(data)
			switch w := ansi.WcWidth.StringWidth(string(data[:n])); {
			case r == utf8.RuneError:
				s.fail("a byte that is not UTF-8")
			case r < 0xa0:
				s.fail("a C1 control")
			case w == 1 || w == 2:
				s.put(string(data[:n]), w)
			default:
				s.fail("a character of no width (tmux joins it to the one before)")
			}
			data = data[n:]
			continue
		default: // ESC
			seq, _, n, state := ansi.DecodeSequenceWc(data, ansi.NormalState, s.parser)
			if state != ansi.NormalState {
				s.keep(data) // cut by the end of the notification
				return
			}
			if n <= 0 {
				n = 1
			}
			s.escape(seq)
			data = data[n:]
			continue
		}
		data = data[1:]
	}
	if len(s.rows) > maxStreamRows {
		s.fail("too much output to follow")
	}
}

var asciiCell = func() (t [128]string) {
	for i := range t {
		t[i] = string(rune(i))
	}
	return
}()

// tab moves the cursor to the next tab stop, never past the last column. It
// does so as tmux's input_c0_dispatch does. From tmux 3.6, over cells that
// are all blank, it writes a tab cell instead. capture-pane prints that as
// "\t".
func (s *Stream) tab() {
	if s.cx >= s.w-1 {
		return
	}
	to := min((s.cx/8+1)*8, s.w-1)
	switch s.tabs {
	case tabUnknown:
		s.fail("a tab (how this tmux stores one is not known)")
	case tabMoves:
		s.cx = to
	case tabCells:
		row := s.cursorRow()
		blank, written := true, false
		for k := s.cx; k < to; k++ {
			if k < len(row.cells) {
				written = true
				if row.cells[k] != " " {
					blank = false
				}
			}
		}
		switch {
		case !blank:
			s.cx = to // content under it: tmux only moves the cursor
		case written:
			// These are written blanks. tmux tells them from a tab's by
			// their attributes, which the stream does not keep.
			s.fail("a tab over written blanks")
		default:
			s.put("\t", to-s.cx)
		}
	}
}

// keep holds the start of a sequence cut by the end of a notification.
func (s *Stream) keep(data []byte) {
	if len(data) > maxPending {
		s.fail("an escape sequence longer than panectl follows")
		return
	}
	s.pending = append([]byte(nil), data...)
}

// row returns the open row the cursor is on.
func (s *Stream) cursorRow() *srow {
	return &s.rows[len(s.rows)-s.h+s.cy]
}

// put writes a character or a tab cell of width w at the cursor. It follows
// screen_write_cell and screen_write_collect_add. When the character does
// not fit, it autowraps first.
func (s *Stream) put(ch string, w int) {
	if s.cx > s.w-w {
		row := s.cursorRow()
		row.wrapped = true
		for s.padWrap && !row.frozen && len(row.cells) < s.w {
			row.cells = append(row.cells, " ")
		}
		s.linefeed()
		s.cx = 0
		if s.invalid != "" {
			return
		}
	}
	row := s.cursorRow()
	if row.frozen {
		s.fail("a write to a row the stream no longer holds")
		return
	}
	for len(row.cells) < s.cx+w {
		row.cells = append(row.cells, " ")
	}
	if s.inTab(row, s.cx) || s.inTab(row, s.cx+w-1) {
		s.fail("a write over a tab cell")
		return
	}
	// overwriting half of a wide character clears the other half
	if s.cx > 0 && row.cells[s.cx] == "" {
		row.cells[s.cx-1] = " "
	}
	if end := s.cx + w; end < len(row.cells) && row.cells[end] == "" {
		row.cells[end] = " "
	}
	row.cells[s.cx] = ch
	for k := 1; k < w; k++ {
		row.cells[s.cx+k] = "" // the rest of a wide character or a tab cell
	}
	s.cx += w
}

// inTab reports whether cell k of row is a tab cell or its padding.
func (s *Stream) inTab(row *srow, k int) bool {
	for ; k >= 0 && k < len(row.cells); k-- {
		if row.cells[k] != "" {
			return row.cells[k] == "\t"
		}
	}
	return false
}

// linefeed moves the cursor down a row. At the bottom it scrolls the screen
// into history (grid_view_scroll_region_up). tmux trims history at its
// limit (grid_collect_history). That moves the rows a capture for the
// read's cursor expects, so the stream stops there.
func (s *Stream) linefeed() {
	if s.cy < s.h-1 {
		s.cy++
		s.freeze()
		return
	}
	if s.hs >= s.hlimit {
		s.fail("history-limit reached: tmux trims history")
		return
	}
	s.hs++
	s.rows = append(s.rows, srow{})
	s.freeze()
}

// backspace moves the cursor left (screen_write_backspace). At the start of
// a row its logical line continues from, it moves to the end of the row
// above.
func (s *Stream) backspace() {
	switch {
	case s.cx > 0:
		s.cx = min(s.cx, s.w) - 1
	case s.cy > 0 && s.rows[len(s.rows)-s.h+s.cy-1].wrapped:
		if s.rows[len(s.rows)-s.h+s.cy-1].frozen {
			s.fail("a backspace into a row the stream no longer holds")
			return
		}
		s.cy--
		s.cx = s.w - 1
	}
}

// freeze turns the open rows above the cursor's logical line into frozen
// lines. The stream follows no output that could change them.
func (s *Stream) freeze() {
	cur := len(s.rows) - s.h + s.cy
	start := cur
	for start > s.openIdx && s.rows[start-1].wrapped {
		start--
	}
	if start <= s.openIdx {
		return
	}
	s.frozen = append(s.frozen, s.linesOf(s.openIdx, start)...)
	for i := s.openIdx; i < start; i++ {
		row := &s.rows[i]
		row.text = strings.TrimRight(strings.Join(row.cells, ""), " \t")
		row.cells, row.frozen = nil, true
	}
	s.openIdx = start
}

// linesOf is the cleaned logical lines of the open rows from index i to j.
// j is at a line start. A line starting at the read cursor's row loses the
// part of it the cursor had seen, as Read cuts it. That happens only when
// the row still starts with what the cursor saw. Else it was redrawn and
// comes whole.
func (s *Stream) linesOf(i, j int) []string {
	var out []string
	for i < j {
		var b strings.Builder
		first := i
		for {
			for _, c := range s.rows[i].cells {
				b.WriteString(c)
			}
			i++
			if !s.rows[i-1].wrapped || i >= j {
				break
			}
		}
		line := strings.TrimRight(b.String(), " \t")
		if s.firstAbs+first == s.bodyAbs && s.cur.Special == "" {
			if skip := s.seen(first); skip > 0 {
				line = strings.TrimRight(cutPlainPrefix(line, skip), " \t")
				if strings.TrimSpace(line) == "" {
					continue
				}
			}
		}
		out = append(out, line)
	}
	return out
}

// seen is the prefix of row index i, the read cursor's row, that the cursor
// had seen. It is that prefix when the row still starts with it, else 0
// (normalView.matches).
func (s *Stream) seen(i int) int {
	text := s.rowText(i)
	if pad := s.cur.PrefixLen - len(text); pad > 0 {
		text += strings.Repeat(" ", pad)
	}
	if hash64(text[:s.cur.PrefixLen]) == s.cur.PrefixHash {
		return s.cur.PrefixLen
	}
	if s.cur.AnchorLen == 0 && s.cur.PrefixLen > 0 {
		// Read would look for the cursor elsewhere
		s.fail("the read cursor's row was redrawn")
	}
	return 0
}

// escape applies one escape sequence (seq, decoded by s.parser).
func (s *Stream) escape(seq []byte) {
	switch {
	case ansi.HasCsiPrefix(seq):
		s.csi()
	case ansi.HasOscPrefix(seq), ansi.HasSosPrefix(seq), ansi.HasPmPrefix(seq), ansi.HasApcPrefix(seq):
		// strings that change no cell (titles, the working directory,
		// hyperlinks, the clipboard)
	case ansi.HasDcsPrefix(seq):
		s.fail("a DCS string")
	case len(seq) == 2 && strings.IndexByte("=>\\", seq[1]) >= 0:
		// keypad modes, a lone string terminator
	case len(seq) == 3 && (seq[1] == '(' || seq[1] == ')') && seq[2] == 'B':
		// the US ASCII character set designated
	default:
		s.fail("the escape sequence " + quoteSeq(seq))
	}
}

func quoteSeq(seq []byte) string {
	return strings.ReplaceAll(string(seq), "\x1b", "ESC ")
}

// harmlessModes are the private modes (CSI ? N h/l) that change nothing
// on the screen.
var harmlessModes = map[int]bool{
	1: true, 5: true, 12: true, 25: true, 1000: true, 1002: true, 1003: true, 1004: true, 1005: true,
	1006: true, 1007: true, 1015: true, 1016: true, 2004: true, 2026: true,
}

// csi applies the CSI sequence the parser holds.
func (s *Stream) csi() {
	cmd := ansi.Cmd(s.parser.Command())
	params := s.parser.Params()
	arg := func(def int) int {
		if len(params) == 0 {
			return def
		}
		return params[0].Param(def)
	}
	switch prefix, inter, final := cmd.Prefix(), cmd.Intermediate(), cmd.Final(); {
	case prefix == 0 && inter == 0:
		switch final {
		case 'm', 'n', 'c', 't':
			// SGR, device status, device attributes, window operations
		case 'K':
			s.eraseInLine(arg(0))
		case 'G', '`':
			s.cx = min(max(arg(1), 1), s.w) - 1
		case 'C':
			if s.cx >= s.w {
				s.fail("a cursor move past the right margin")
				return
			}
			s.cx = min(s.cx+max(arg(1), 1), s.w-1)
		case 'D':
			s.cx = max(0, s.cx-max(arg(1), 1))
		default:
			s.fail("the control sequence CSI " + string(rune(final)))
		}
	case prefix == '?' && inter == 0 && (final == 'h' || final == 'l'):
		for _, p := range params {
			if !harmlessModes[p.Param(0)] {
				s.fail(fmt.Sprintf("the private mode ?%d", p.Param(0)))
				return
			}
		}
	case prefix == '>' && inter == 0 && (final == 'm' || final == 'n' || final == 'c' || final == 'q'),
		inter == ' ' && prefix == 0 && final == 'q',
		final == 'u' && prefix != 0 && inter == 0:
		// key modifier options, secondary attributes, cursor style,
		// keyboard protocol flags
	default:
		s.fail("a control sequence the stream does not follow")
	}
}

// eraseInLine applies EL on the cursor's row (screen_write_clearendofline
// and friends). A row whose logical line wraps into it or out of it is not
// followed. tmux may change its wrap flag.
func (s *Stream) eraseInLine(mode int) {
	row := s.cursorRow()
	i := len(s.rows) - s.h + s.cy
	if row.wrapped || (i > 0 && s.rows[i-1].wrapped) {
		s.fail("erase in a wrapped line")
		return
	}
	if s.cx > 0 && s.cx < len(row.cells) && row.cells[s.cx] == "" {
		s.fail("erase from the middle of a wide character")
		return
	}
	switch mode {
	case 0:
		if s.cx < len(row.cells) {
			row.cells = row.cells[:s.cx]
		}
	case 1:
		end := min(s.cx, s.w-1) + 1
		for k := 0; k < end && k < len(row.cells); k++ {
			row.cells[k] = " "
		}
		if end < len(row.cells) && row.cells[end] == "" {
			row.cells[end] = " "
		}
	case 2:
		row.cells = row.cells[:0]
	default:
		s.fail("an unknown erase in line")
	}
}

// Lines returns the cleaned logical lines after the read's cursor. They are
// what Read would return now, before MaxLines.
func (s *Stream) Lines() []string {
	lines := append(append([]string(nil), s.frozen...), s.Open()...)
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// FrozenLen is how many of Lines can no longer change.
func (s *Stream) FrozenLen() int { return len(s.frozen) }

// Frozen returns frozen line i.
func (s *Stream) Frozen(i int) string { return s.frozen[i] }

// Open returns the lines of the open rows (they may still change).
func (s *Stream) Open() []string { return s.linesOf(s.openIdx, len(s.rows)) }

// rowText is the text of row index i, trailing blanks trimmed.
func (s *Stream) rowText(i int) string {
	if s.rows[i].frozen {
		return s.rows[i].text
	}
	return strings.TrimRight(strings.Join(s.rows[i].cells, ""), " \t")
}

// StartRow is the absolute row where Lines begin, the read's first row. It
// is history_size + the relative row, as Cursor.Row.
func (s *Stream) StartRow() int { return s.bodyAbs }

// heldEcho is the echo marks of a read's frozen lines and the option names
// of the entries held by place it looked for.
type heldEcho struct {
	keys map[string]bool
	echo []bool
}

// keepEcho keeps the echo marks of the read that seeded the stream. It
// keeps them for the entries held by place, submitted more than EchoWindow
// ago. Their echo landed before the read. So output the stream follows
// cannot hold it, and the marks of the frozen lines stay right. The marks
// are kept only when every held entry was placed. Then none discounts lines
// by text, which matters as new output could show its text. Every mark must
// also be on a frozen line.
func (s *Stream) keepEcho(r ReadResult) {
	if r.heldLost || r.Truncated || len(r.Echo) > 0 && len(r.Lines) != len(r.Echo) {
		return
	}
	n := len(s.frozen)
	for i, e := range r.Echo {
		if e && i >= n {
			return
		}
	}
	h := &heldEcho{keys: map[string]bool{}, echo: make([]bool, n)}
	copy(h.echo, r.Echo)
	for _, k := range r.Ledger.heldKeysFrom(s.bodyAbs) {
		h.keys[k] = true
	}
	s.held = h
}

// EchoOf returns the echo marks by place of n lines (Lines) for ledger l. l
// is read after the output the stream was fed. ok is false when only a
// capture can say. That is when an active entry knows its place, or an
// entry held by place was not looked for by the seeding read. It is also
// when the marks were not kept. With no entry that discounts by place here,
// every mark is false.
func (s *Stream) EchoOf(l Ledger, n int) (echo []bool, ok bool) {
	active, _ := l.placesFrom(s.bodyAbs)
	keys := l.heldKeysFrom(s.bodyAbs)
	switch {
	case len(active)+len(keys) == 0:
		return nil, true
	case len(active) > 0 || s.held == nil:
		return nil, false
	}
	for _, k := range keys {
		if !s.held.keys[k] {
			return nil, false
		}
	}
	echo = make([]bool, n)
	copy(echo, s.held.echo)
	return echo, true
}

// Cursor returns the cursor after the lines, as Read would make it now.
func (s *Stream) Cursor() Cursor {
	next := Cursor{PaneID: paneNumber(s.paneID), PanePID: s.pid, History: s.hs}
	body := s.bodyAbs - s.firstAbs
	last := -1
	for i := len(s.rows) - 1; i >= 0; i-- {
		if strings.TrimSpace(s.rowText(i)) != "" {
			last = i
			break
		}
	}
	if last < body {
		last = body
	}
	text := s.rowText(last)
	if last == len(s.rows)-s.h+s.cy {
		if pad := s.cx - ansi.StringWidth(text); pad > 0 {
			text += strings.Repeat(" ", pad)
		}
	}
	next.Row = s.firstAbs + last
	// The anchor is the text of the rows before. It goes as far back as a
	// capture for the read holds them.
	anchor := ""
	for k := 1; k <= anchorScan && len(anchor) < anchorBytes; k++ {
		i := last - k
		if i < 0 {
			break
		}
		anchor = s.rowText(i) + anchor
	}
	if len(anchor) > anchorBytes {
		anchor = anchor[len(anchor)-anchorBytes:]
	}
	next.AnchorLen, next.AnchorHash = len(anchor), hash64(anchor)
	next.PrefixLen, next.PrefixHash = len(text), hash64(text)
	// The rows before, as a capture fingerprints them (normalView.rowsAt).
	// They come from the rows rowsAt reads, anchorScan before its first.
	from := max(0, last-2*anchorScan)
	v := normalView{start: s.firstAbs + from - s.hs}
	for i := from; i < len(s.rows); i++ {
		v.rows = append(v.rows, s.rowText(i))
	}
	next.HasRows, next.Width = true, s.w
	next.Rows, next.TopLen, next.TopHash = v.rowsAt(v.start + last)
	// The text before the point without blanks (normalView.flatAt).
	flat, k := "", last
	for k >= 0 && flatText(s.rowText(k)) == "" {
		k--
	}
	for i := k; i >= 0 && len(flat) < anchorBytes; i-- {
		flat = flatText(s.rowText(i)) + flat
	}
	next.HasFlat, next.FlatBreaks, next.FlatPad = true, last-k, len(text)-len(s.rowText(last))
	next.FlatAll = len(flat) < anchorBytes && s.firstAbs == 0
	flat = flat[max(0, len(flat)-anchorBytes):]
	next.FlatLen, next.FlatHash = len(flat), flatHash(flat)
	return next
}

// Check reports whether the pane as described now is where the stream says
// it is. The description comes from a command through the control client,
// after every byte the stream was fed. The process, size, history, cursor
// and modes must be the same.
func (s *Stream) Check(p tmux.PaneInfo) bool {
	return s.invalid == "" && len(s.pending) == 0 && p.ID == s.paneID && p.PID == s.pid && !p.Dead &&
		p.Width == s.w && p.Height == s.h && p.HistorySize == s.hs && p.HistoryLimit == s.hlimit &&
		p.CursorX == s.cx && p.CursorY == s.cy && !p.AlternateOn && p.WrapFlag && !p.InsertFlag &&
		!p.OriginFlag && p.ScrollUpper == 0 && p.ScrollLower == s.h-1
}

// Describe reads the pane's geometry and its echo ledger with one command
// through the control client, aligned with the output stream. It uses
// tmux.Subscription.Describe, with no capture and no tmux process.
func Describe(ctx context.Context, sub *tmux.Subscription) (tmux.PaneInfo, Ledger, error) {
	p, opts, err := sub.Describe(ctx, ledgerPrefix)
	if err != nil {
		return p, Ledger{}, err
	}
	return p, ledgerFrom(opts), nil
}

// Prefetch makes the subscription's client read the pane's geometry and
// echo ledger whenever output arrives (tmux.Subscription.Prefetch). The
// EventDescribed events carry them, read with LedgerOf.
func Prefetch(sub *tmux.Subscription) { sub.Prefetch(ledgerPrefix) }

// LedgerOf is the echo ledger in a prefetched description's options.
func LedgerOf(opts map[string]string) Ledger { return ledgerFrom(opts) }

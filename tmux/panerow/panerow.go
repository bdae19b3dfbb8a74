// Package panerow is the pane row: the format panectl asks tmux for a
// pane's description with, and its parser. No directory name, argv[0] or
// title can shift a field. It runs nothing.
package panerow

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// A pane row is fixed fields, then free text. A fixed field holds an id, a
// number, a flag or the tty, each checked. Free text (a name, a path, argv[0],
// a title) can hold any byte tmux passes: a newline, sep, a forged row. So
// each text comes whole by its length in bytes (#{n:}), given among the fixed
// fields. The separators before each text and at the row's end carry a nonce
// made for the call. tmux 3.4 and 3.5 print control characters through vis(3)
// (featOutputVis), which changes a text's length. Such a text is found up to
// the next separator, which no text made before the call can hold, and
// decoded. So is a text that changed between its length and itself: tmux
// reads pane_current_command and pane_current_path from /proc at each use,
// and a program may start in between. The length then only says the text
// moved; the nonce still frames it.

// paneFixed are a pane row's fixed fields, in order, with their kinds.
var paneFixed = []struct{ name, kind string }{
	{"pane_id", "%"}, {"session_id", "$"}, {"window_id", "@"},
	{"window_index", "n"}, {"pane_index", "n"}, {"pane_pid", "n"}, {"pane_tty", "tty"},
	{"pane_width", "n"}, {"pane_height", "n"}, {"pane_dead", "flag"},
	{"pane_dead_status", "n"}, {"pane_dead_signal", "n"}, {"pane_in_mode", "flag"},
	{"history_size", "n"}, {"history_limit", "n"}, {"cursor_x", "n"}, {"cursor_y", "n"},
	{"alternate_on", "flag"}, {"alternate_saved_y", "n"},
	{"pane_active", "flag"}, {"window_active", "flag"}, {"session_attached", "n"}, {"focus-events", "on"},
	{"wrap_flag", "flag"}, {"insert_flag", "flag"}, {"origin_flag", "flag"},
	{"scroll_region_upper", "n"}, {"scroll_region_lower", "n"},
}

// paneTexts are a pane row's free-text fields, in order.
var paneTexts = []string{"session_name", "pane_current_command", "pane_current_path", "pane_start_command", JournalOption, "pane_title"}

// JournalOption is the pane option naming the pane's journal (package
// journal's Option): a row carries it, so a read needs no other call.
const JournalOption = "@panectl_journal"

// Sep (U+241F) separates the fields of a row, RecordSep (U+241E) ends it.
// tmux prints both verbatim to a -u client.
const (
	Sep       = "\u241f"
	RecordSep = "\u241e"
	sep       = Sep
	recordSep = RecordSep
)

// ErrNoPane: tmux 3.3 prints a missing pane's row with empty fields.
var ErrNoPane = errors.New("no pane")

// PaneInfo is one pane as tmux reports it (tmux(1), FORMATS).
type PaneInfo struct {
	ID           string // pane_id, "%N"
	SessionID    string // session_id, "$N"
	SessionName  string // session_name
	WindowID     string // window_id, "@N"
	WindowIndex  int    // window_index
	PaneIndex    int    // pane_index
	Command      string // pane_current_command (foreground process name)
	StartCommand string // pane_start_command
	PID          int    // pane_pid: the pane's first process; changes on respawn
	TTY          string // pane_tty
	CWD          string // pane_current_path
	Width        int    // pane_width, cells
	Height       int    // pane_height, rows
	Dead         bool   // pane_dead
	DeadStatus   int    // pane_dead_status (valid when Dead and DeadKnown)
	DeadKnown    bool   // pane_dead_status is set: tmux has reaped the process (a dead pane's status arrives a moment after pane_dead)
	DeadSignal   int    // pane_dead_signal (valid when Dead)
	InMode       bool   // pane_in_mode (copy mode and the like)
	HistorySize  int    // history_size: rows now in history
	HistoryLimit int    // history_limit
	CursorX      int    // cursor_x
	CursorY      int    // cursor_y, row in the visible screen
	AlternateOn  bool   // alternate_on
	AltSavedY    int    // alternate_saved_y: the normal screen's cursor row
	Active       bool   // pane_active: the active pane of its window
	WindowActive bool   // window_active: its window is its session's current window
	Attached     int    // session_attached: clients attached to its session
	FocusEvents  bool   // the server option focus-events is on
	WrapFlag     bool   // wrap_flag: autowrap mode (DECAWM) of the normal screen
	InsertFlag   bool   // insert_flag: insert mode (IRM)
	OriginFlag   bool   // origin_flag: origin mode (DECOM)
	ScrollUpper  int    // scroll_region_upper: top row of the scrolling region
	ScrollLower  int    // scroll_region_lower: bottom row of the scrolling region
	Journal      string // the pane option @panectl_journal, as set: data, not a path to trust
	Title        string // pane_title (free text, last field)
}

// Row is the pane row format of one call, with its nonce.
type Row struct{ nonce string }

// New is the row format of a call, with a nonce made for it.
func New(nonce string) Row { return Row{nonce: nonce} }

// textSep comes before each text; end ends the row.
func (r Row) textSep() string { return sep + r.nonce }
func (r Row) end() string     { return recordSep + r.nonce + recordSep }

// Format is the -F format of a row.
func (r Row) Format() string {
	var b strings.Builder
	for i, f := range paneFixed {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString("#{" + f.name + "}")
	}
	for _, t := range paneTexts {
		b.WriteString(sep + "#{n:" + t + "}")
	}
	for _, t := range paneTexts {
		b.WriteString(r.textSep() + "#{" + t + "}")
	}
	b.WriteString(r.end())
	return b.String()
}

// Parse reads the row at the head of out. It returns the pane and what
// follows the row. A malformed row is an error, with the fixed fields read
// when they parse (ID "" when not), and rest after the row's end if found.
// tmux 3.3 prints a missing pane's row with empty fields: ErrNoPane.
func (r Row) Parse(out string) (p PaneInfo, rest string, err error) {
	ts, end := r.textSep(), r.end()
	skip := func() string {
		if _, after, ok := strings.Cut(out, end); ok {
			return strings.TrimPrefix(after, "\n")
		}
		return ""
	}
	head, _, ok := strings.Cut(out, ts)
	f := strings.Split(head, sep)
	if !ok || len(f) != len(paneFixed)+len(paneTexts) {
		return PaneInfo{}, skip(), malformedRow(out, "not its fields")
	}
	if f[0] == "" {
		return PaneInfo{}, skip(), ErrNoPane
	}
	if p, err = fixedPane(f[:len(paneFixed)]); err != nil {
		return PaneInfo{}, skip(), malformedRow(out, err.Error())
	}
	texts := make([]string, len(paneTexts))
	pos := len(head)
	for i, name := range paneTexts {
		n, err := strconv.Atoi(f[len(paneFixed)+i])
		if err != nil || n < 0 || !strings.HasPrefix(out[pos:], ts) {
			return p, skip(), malformedRow(out, name+" is not framed")
		}
		pos += len(ts)
		next := ts
		if i == len(paneTexts)-1 {
			next = end
		}
		text, used, ok := takeText(out[pos:], n, next, fromProc[name])
		if !ok {
			return p, skip(), malformedRow(out, fmt.Sprintf("%s is not %d bytes long", name, n))
		}
		texts[i], pos = text, pos+used
	}
	p.SessionName, p.Command, p.CWD, p.StartCommand, p.Journal, p.Title = texts[0], texts[1], texts[2], texts[3], texts[4], texts[5]
	return p, strings.TrimPrefix(out[pos+len(end):], "\n"), nil
}

// fromProc are the texts tmux reads from /proc at each use: one may change
// between its length and itself.
var fromProc = map[string]bool{"pane_current_command": true, "pane_current_path": true}

// takeText reads a text of n bytes followed by next at the head of s, and
// says how many bytes of s it used. Printed through vis(3), the text is
// longer: then it ends at next, and decodes to n bytes. A text that may
// have changed (changes) is taken up to next as it is, unless vis(3) could
// have printed it (it holds a backslash): then it is no text for sure.
func takeText(s string, n int, next string, changes bool) (text string, used int, ok bool) {
	if n <= len(s) && strings.HasPrefix(s[n:], next) {
		return s[:n], n, true
	}
	j := strings.Index(s, next)
	if j < 0 {
		return "", 0, false
	}
	if text = unvis(s[:j]); len(text) == n {
		return text, j, true
	}
	if changes && !strings.Contains(s[:j], `\`) {
		return s[:j], j, true
	}
	return "", 0, false
}

// visCStyle are vis(3)'s C escapes (VIS_CSTYLE), by the letter after "\".
var visCStyle = map[byte]byte{'n': '\n', 'r': '\r', 'b': '\b', 'a': '\a', 'v': '\v', 't': '\t', 'f': '\f', 's': ' ', '0': 0}

// unvis decodes what tmux's vis(3) flags VIS_OCTAL|VIS_CSTYLE|VIS_NOSLASH
// make: "\ooo" and C escapes. A backslash of the text itself is not escaped,
// so a text holding both is ambiguous: its length then tells (takeText).
func unvis(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b = append(b, s[i])
			continue
		}
		if i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b = append(b, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 3
		} else if c, ok := visCStyle[s[i+1]]; ok {
			b = append(b, c)
			i++
		} else {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// fixedPane checks the fixed fields f and fills a PaneInfo from them.
func fixedPane(f []string) (PaneInfo, error) {
	n := make([]int, len(f))
	for i, spec := range paneFixed {
		if !fixedOK(spec.kind, f[i]) {
			return PaneInfo{}, fmt.Errorf("%s %q", spec.name, f[i])
		}
		if spec.kind == "n" && f[i] != "" {
			n[i], _ = strconv.Atoi(f[i])
		}
	}
	return PaneInfo{
		ID: f[0], SessionID: f[1], WindowID: f[2], WindowIndex: n[3], PaneIndex: n[4],
		PID: n[5], TTY: f[6], Width: n[7], Height: n[8], Dead: f[9] == "1",
		DeadStatus: n[10], DeadSignal: n[11], DeadKnown: f[10] != "" || f[11] != "", InMode: f[12] == "1",
		HistorySize: n[13], HistoryLimit: n[14], CursorX: n[15], CursorY: n[16],
		AlternateOn: f[17] == "1", AltSavedY: n[18], Active: f[19] == "1", WindowActive: f[20] == "1",
		Attached: n[21], FocusEvents: f[22] == "on" || f[22] == "1",
		WrapFlag: f[23] == "1", InsertFlag: f[24] == "1", OriginFlag: f[25] == "1",
		ScrollUpper: n[26], ScrollLower: n[27],
	}, nil
}

// fixedOK checks a fixed field's value against its kind. A number may be
// empty (tmux leaves some unset), an id may not. tmux 3.3 prints an on/off
// option as 1 or 0.
func fixedOK(kind, v string) bool {
	switch kind {
	case "%", "$", "@":
		return len(v) > 1 && v[:1] == kind && digits(v[1:], 10)
	case "n":
		return v == "" || digits(v, 10)
	case "flag":
		return v == "" || v == "0" || v == "1"
	case "on":
		return v == "" || v == "on" || v == "off" || v == "0" || v == "1"
	case "tty":
		return v == "" || ttyPathRE().MatchString(v)
	}
	return false
}

// digits reports whether s is 1 to max ASCII digits.
func digits(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ttyPathRE is a path under /dev that can name a terminal device: letters,
// digits, "_", "-" and "." in components that start with no dot (/dev/pts/3,
// /dev/ttys003). So no component is "." or "..".
var ttyPathRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/dev(/[A-Za-z0-9_-][A-Za-z0-9_.-]*)+$`) })

// malformedRow is the error of a row that does not parse, quoting at most
// its first 200 bytes.
func malformedRow(row, why string) error {
	const quote = 200
	if len(row) > quote {
		return fmt.Errorf("tmux returned a malformed pane row %q (%d bytes more): %s", row[:quote], len(row)-quote, why)
	}
	return fmt.Errorf("tmux returned a malformed pane row %q: %s", row, why)
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

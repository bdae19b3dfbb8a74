package acp

import (
	"fmt"
	"strings"
)

// ScreenCapture is what `panectl watch` captures of a pane for the first
// output snapshot: capture-pane -e text (one physical row per line, each
// ending in "\n", colour and attribute escapes kept) and the cursor.
type ScreenCapture struct {
	// Rows are the retained history rows followed by the visible rows of
	// the normal screen (capture-pane -e -S - -E -). When Alternate is set,
	// they are the history rows followed by the saved normal screen.
	Rows             string
	CursorX, CursorY int // cursor cell on the visible screen, 0-based
	// Alternate: the pane shows the alternate screen, whose visible rows are
	// AltRows; CursorX/CursorY are the alternate screen's cursor and
	// SavedY the normal screen's cursor row.
	Alternate bool
	AltRows   string
	SavedY    int
}

// Bytes returns the snapshot as bytes a terminal of the pane's size replays
// to show the same history, screen and cursor: the rows joined with CR LF
// (not capture-pane -J: a full-width row followed by CR LF leaves the
// terminal's pending wrap and moves to the next row, so wrapped lines replay
// as the same physical rows, and the row count, hence the scrolling into
// history, is exact), then an SGR reset and a cursor position (CUP). For the
// alternate screen, the normal screen is replayed first, then the switch to
// the alternate screen (CSI ? 1049 h) and its rows, so that a consumer
// returns to the normal screen when the program leaves it. Terminal modes
// (scroll regions, keypad and mouse modes, the current SGR state at the
// cursor) are not captured.
func (s ScreenCapture) Bytes() []byte {
	var b strings.Builder
	writeRows(&b, s.Rows)
	if s.Alternate {
		fmt.Fprintf(&b, "\x1b[0m\x1b[%d;1H\x1b[?1049h\x1b[H", s.SavedY+1)
		writeRows(&b, s.AltRows)
	}
	fmt.Fprintf(&b, "\x1b[0m\x1b[%d;%dH", s.CursorY+1, s.CursorX+1)
	return []byte(b.String())
}

func writeRows(b *strings.Builder, text string) {
	if text == "" {
		return
	}
	for i, row := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if i > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString(row)
	}
}

// signalNames are the POSIX names of the signals a pane's process may die
// of, by their Linux numbers (tmux reports pane_dead_signal as a number).
var signalNames = map[int]string{
	1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS",
	8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE",
	14: "SIGALRM", 15: "SIGTERM", 16: "SIGSTKFLT", 17: "SIGCHLD", 18: "SIGCONT", 19: "SIGSTOP",
	20: "SIGTSTP", 21: "SIGTTIN", 22: "SIGTTOU", 23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ",
	26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO", 30: "SIGPWR", 31: "SIGSYS",
}

// SignalName returns the POSIX name of a Linux signal number ("SIGTERM"),
// or "SIG" and the number for one without a name.
func SignalName(n int) string {
	if s, ok := signalNames[n]; ok {
		return s
	}
	return fmt.Sprintf("SIG%d", n)
}

// Event types of `panectl watch --format events`.
const (
	EventSnapshot = "snapshot" // first: the full state, output as a replayable snapshot
	EventOutput   = "output"   // new output bytes
	EventCwd      = "cwd"      // the working directory changed
	EventSize     = "size"     // the pane was resized
	EventCommand  = "command"  // the foreground command changed
	EventMeta     = "meta"     // panectl metadata changed (key: value, null removes)
	EventExit     = "exit"     // the pane's process exited (last event)
)

// WatchEvent is one line of `panectl watch --format events`: panectl's own
// JSON Lines form of the ACP stream, discriminated by Type. Data is base64
// (output bytes may end inside a UTF-8 character or escape sequence). A
// snapshot carries every field known; an exit event carries exit_code, or
// signal, or neither when the status could not be read (the pane was killed).
type WatchEvent struct {
	Type     string  `json:"type"`
	PaneID   string  `json:"pane_id"`
	Data     *[]byte `json:"data,omitempty"`
	Command  *string `json:"command,omitempty"`
	Cwd      *string `json:"cwd,omitempty"`
	Cols     int     `json:"cols,omitempty"`
	Rows     int     `json:"rows,omitempty"`
	ExitCode *int64  `json:"exit_code,omitempty"`
	Signal   *string `json:"signal,omitempty"`
	Meta     ACPMeta `json:"meta,omitempty"`
}

// WatchEvents converts one session update of the watch stream to events:
// a terminal_update carrying an output snapshot becomes one snapshot event;
// any other terminal_update one event per field it sets (cwd, size,
// command, output as a snapshot, meta, exit last); a chunk one output event.
func WatchEvents(paneID string, u SessionUpdate) []WatchEvent {
	switch u := u.(type) {
	case TerminalOutputChunk:
		d := []byte(u.Data)
		return []WatchEvent{{Type: EventOutput, PaneID: paneID, Data: &d}}
	case TerminalUpdate:
		if o, ok := u.Output.Get(); ok && u.Cwd.IsSet() {
			e := WatchEvent{Type: EventSnapshot, PaneID: paneID}
			d := []byte(o.Data)
			e.Data = &d
			if v, ok := u.Command.Get(); ok {
				e.Command = &v
			}
			if v, ok := u.Cwd.Get(); ok {
				e.Cwd = &v
			}
			if v, ok := u.Size.Get(); ok {
				e.Cols, e.Rows = int(v.Cols), int(v.Rows)
			}
			if m, ok := u.Meta.Get(); ok {
				e.Meta = m
			}
			return []WatchEvent{e}
		}
		var out []WatchEvent
		if o, ok := u.Output.Get(); ok {
			d := []byte(o.Data)
			out = append(out, WatchEvent{Type: EventSnapshot, PaneID: paneID, Data: &d})
		}
		if v, ok := u.Cwd.Get(); ok {
			out = append(out, WatchEvent{Type: EventCwd, PaneID: paneID, Cwd: &v})
		}
		if v, ok := u.Size.Get(); ok {
			out = append(out, WatchEvent{Type: EventSize, PaneID: paneID, Cols: int(v.Cols), Rows: int(v.Rows)})
		}
		if v, ok := u.Command.Get(); ok {
			out = append(out, WatchEvent{Type: EventCommand, PaneID: paneID, Command: &v})
		}
		if m, ok := u.Meta.Get(); ok {
			out = append(out, WatchEvent{Type: EventMeta, PaneID: paneID, Meta: m})
		}
		if v, ok := u.ExitStatus.Get(); ok {
			out = append(out, WatchEvent{Type: EventExit, PaneID: paneID, ExitCode: v.ExitCode, Signal: v.Signal})
		}
		return out
	}
	return nil
}

package schema

import (
	"encoding/json"
	"fmt"
)

// StringList is a list of strings that also accepts a single JSON string
// ("x" means ["x"]), as the patterns and stop fields do.
type StringList []string

// UnmarshalJSON accepts a string or an array of strings.
func (l *StringList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*l = StringList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("want a string or an array of strings")
	}
	*l = many
	return nil
}

// PaneSummary is one pane as list_panes and new_pane report it.
type PaneSummary struct {
	PaneID      string `json:"pane_id" jsonschema:"the pane id, %N"`
	SessionID   string `json:"session_id" jsonschema:"the session id, $N"`
	SessionName string `json:"session_name" jsonschema:"the session name"`
	WindowID    string `json:"window_id" jsonschema:"the window id, @N"`
	Command     string `json:"command" jsonschema:"the foreground command (pane_current_command; a background task's pane: the task's foreground program, not panectl's supervisor)"`
	PID         int    `json:"pid" jsonschema:"the pane's first process (pane_pid)"`
	CWD         string `json:"cwd" jsonschema:"the foreground process's working directory (pane_current_path)"`
	Width       int    `json:"width" jsonschema:"width in cells"`
	Height      int    `json:"height" jsonschema:"height in rows"`
	Dead        bool   `json:"dead" jsonschema:"the pane's process has exited (remain-on-exit keeps the pane)"`
	Title       string `json:"title" jsonschema:"the pane title (pane_title), set by the program with OSC 0/2"`
}

// ListPanesInput is the input of list_panes.
type ListPanesInput struct{}

// ListPanesOutput is the output of list_panes.
type ListPanesOutput struct {
	Panes []PaneSummary `json:"panes" jsonschema:"every pane of the server whose description tmux printed well-formed"`
	Note  string        `json:"note,omitempty" jsonschema:"the panes left out, each with why its description did not parse"`
}

// NewPaneInput is the input of new_pane.
type NewPaneInput struct {
	Name         string     `json:"name,omitempty" jsonschema:"session name (exact); default: tmux picks one" limits:"minLength=1"`
	WindowIn     string     `json:"window_in,omitempty" jsonschema:"create a window in this existing session instead of a new session" limits:"minLength=1"`
	CWD          string     `json:"cwd,omitempty" jsonschema:"working directory of the new pane" limits:"minLength=1"`
	Size         string     `json:"size,omitempty" jsonschema:"size as COLSxROWS, e.g. 120x40 (new sessions only)" limits:"minLength=1"`
	HistoryLimit int        `json:"history_limit,omitempty" jsonschema:"history-limit of this pane, in rows; 0: the server's default" limits:"history_limit"`
	Env          StringList `json:"env,omitempty" jsonschema:"environment variables as K=V"`
	Command      []string   `json:"command,omitempty" jsonschema:"command and arguments to run instead of the default shell"`
	Journal      bool       `json:"journal,omitempty" jsonschema:"keep everything the pane's program writes in a journal file (bounded: the newest 64 MiB), independent of history-limit; capture and status then read it, losing no line"`
}

// NewPaneOutput is the output of new_pane.
type NewPaneOutput struct {
	PaneSummary
	Cursor  string `json:"cursor" jsonschema:"cursor at the start of the new pane's output"`
	Journal string `json:"journal,omitempty" jsonschema:"with journal: the directory of the pane's journal"`
}

// PaneInput names one pane: the input of kill_pane and cursor.
type PaneInput struct {
	PaneID string `json:"pane_id" jsonschema:"pane id (%N) or a target that names exactly one pane"`
}

// KillPaneOutput is the output of kill_pane.
type KillPaneOutput struct {
	PaneID string `json:"pane_id" jsonschema:"the pane that was killed"`
	Killed bool   `json:"killed" jsonschema:"always true on success"`
}

// CursorOutput is the output of cursor.
type CursorOutput struct {
	PaneID string `json:"pane_id" jsonschema:"the pane"`
	Cursor string `json:"cursor" jsonschema:"opaque cursor at the current end of the pane's output"`
}

// SendTextInput is the input of send_text.
type SendTextInput struct {
	PaneID    string   `json:"pane_id" jsonschema:"pane id (%N) or a target that names exactly one pane"`
	Text      string   `json:"text" jsonschema:"literal text to type; tmux key names are not interpreted; text with newlines is delivered as one bracketed paste" limits:"text"`
	Submit    bool     `json:"submit,omitempty" jsonschema:"press Enter once the program has taken the text (a keystroke of its own, after the echo or a short settle, so agent composers do not take it as a pasted newline), then verify that the text was submitted (submitted); holds the pane's action lock, so concurrent runs and submissions on the pane are served in turn (one that waited for the lock types only when the pane is still as it was, same foreground program, terminal mode and shell prompt state, else refused, exit 3: a run whose command read a line and ended meanwhile leaves the shell at its prompt; answer a command a run is running with send_text without submit, then send_specials Enter, which take no lock); a program showing a dialog (its recognizer says awaiting_approval) is refused: nothing is typed, error refused (exit 3), since the text and its Enter would answer the dialog"`
	WhenReady bool     `json:"when_ready,omitempty" jsonschema:"type only once the pane awaits input by its recognizer (quiescent awaiting_input); awaiting_approval or unknown: type nothing, exit 3; not ready before the timeout: type nothing, exit 124"`
	Timeout   *float64 `json:"timeout,omitempty" jsonschema:"seconds that when_ready and the wait for the pane's action lock may take" limits:"timeout"`
}

// SendOutput is the output of send_text, send_specials and send_ascii.
type SendOutput struct {
	PaneID    string `json:"pane_id" jsonschema:"the pane"`
	Cursor    string `json:"cursor" jsonschema:"cursor from just before typing: pass it to wait_for_text or capture to read what the input caused"`
	Bytes     int    `json:"bytes" jsonschema:"bytes (or keys) sent"`
	Submitted *bool  `json:"submitted,omitempty" jsonschema:"with submit: true when the submission took effect (a shell's cursor left the input line; a program's input line no longer holds the text, or it turned busy); false when the text still sits unsent after a second Enter, or when it never showed on the input line so that the submission could not be verified (note says which)"`
	Note      string `json:"note,omitempty" jsonschema:"caveats: copy mode left to type, how the submission was judged"`
}

// SendSpecialsInput is the input of send_specials.
type SendSpecialsInput struct {
	PaneID    string     `json:"pane_id" jsonschema:"pane id (%N) or a target that names exactly one pane"`
	Keys      StringList `json:"keys" jsonschema:"key names: Enter, Escape, Tab, BTab, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Delete, Insert, F1..F12, C-a..C-z, M-<char>, Space" limits:"minItems=1"`
	WhenReady bool       `json:"when_ready,omitempty" jsonschema:"press the keys only once the pane awaits input by its recognizer (quiescent awaiting_input); awaiting_approval or unknown: nothing is sent, exit 3; not ready before the timeout: exit 124"`
	Timeout   *float64   `json:"timeout,omitempty" jsonschema:"seconds that when_ready may wait" limits:"timeout"`
}

// SendASCIIInput is the input of send_ascii.
type SendASCIIInput struct {
	PaneID    string     `json:"pane_id" jsonschema:"pane id (%N) or a target that names exactly one pane"`
	Codes     []int      `json:"codes,omitempty" jsonschema:"bytes as decimal numbers" limits:"byte"`
	Hex       StringList `json:"hex,omitempty" jsonschema:"bytes as two hex digits each, e.g. c3 a9"`
	WhenReady bool       `json:"when_ready,omitempty" jsonschema:"send only once the pane awaits input by its recognizer (quiescent awaiting_input); awaiting_approval or unknown: nothing is sent, exit 3; not ready before the timeout: exit 124"`
	Timeout   *float64   `json:"timeout,omitempty" jsonschema:"seconds that when_ready may wait" limits:"timeout"`
}

// CaptureInput is the input of capture.
type CaptureInput struct {
	PaneID   string `json:"pane_id" jsonschema:"pane id (%N) or a target that names exactly one pane"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"read what came after this cursor; 'screen' (default): the visible screen; 'history': from the oldest retained line" limits:"minLength=1"`
	MaxLines int    `json:"max_lines,omitempty" jsonschema:"keep the newest N lines" limits:"max_lines"`
	ANSI     bool   `json:"ansi,omitempty" jsonschema:"keep colour escapes"`
}

// CaptureOutput is the output of capture.
type CaptureOutput struct {
	PaneID       string   `json:"pane_id" jsonschema:"the pane"`
	Cursor       string   `json:"cursor" jsonschema:"cursor after these lines"`
	LinesDropped int      `json:"lines_dropped" jsonschema:"lines after the cursor that tmux trimmed from history before they were read (a lower bound when note says so)"`
	Truncated    bool     `json:"truncated" jsonschema:"more than max_lines lines were available; the newest were kept"`
	Reset        bool     `json:"reset" jsonschema:"history was cleared since the cursor; output is what is there now"`
	Note         string   `json:"note,omitempty" jsonschema:"caveats, e.g. why lines_dropped is a lower bound"`
	Output       []string `json:"output" jsonschema:"logical lines after the cursor: wrapped rows joined, trailing whitespace trimmed, ANSI stripped"`
}

// WaitForTextInput is the input of wait_for_text.
type WaitForTextInput struct {
	PaneID string `json:"pane_id,omitempty" jsonschema:"pane id (%N) or a target that names exactly one pane; or name several panes with pane_ids, session or all_panes"`
	Panes
	Patterns   StringList `json:"patterns" jsonschema:"pattern or patterns, plain substrings unless regex" limits:"patterns"`
	Regex      bool       `json:"regex,omitempty" jsonschema:"patterns are regexp2 (Perl/.NET) expressions matched per logical line"`
	IgnoreCase bool       `json:"ignore_case,omitempty" jsonschema:"match case-insensitively"`
	Stop       StringList `json:"stop,omitempty" jsonschema:"stop pattern or patterns: a match ends the wait with outcome stopped (exit 3)" limits:"stop"`
	Timeout    *float64   `json:"timeout,omitempty" jsonschema:"seconds to wait (a number), not rejected when out of range; the value used is reported as effective_timeout" limits:"timeout"`
	Cursor     string     `json:"cursor,omitempty" jsonschema:"match only output after this cursor (default: when the wait starts); 'screen' also accepts what is visible" limits:"minLength=1"`
	MaxLines   int        `json:"max_lines,omitempty" jsonschema:"keep the newest N lines of output" limits:"max_lines"`
}

// VersionOutput is the output of version.
type VersionOutput struct {
	Version   string `json:"version" jsonschema:"panectl version"`
	Commit    string `json:"commit,omitempty" jsonschema:"VCS revision"`
	Date      string `json:"date,omitempty" jsonschema:"build date"`
	GoVersion string `json:"go_version" jsonschema:"Go toolchain"`
}

// DemoOutput is the output of demo.
type DemoOutput struct {
	Socket  string            `json:"socket" jsonschema:"the private tmux server's socket (removed afterwards)"`
	Command string            `json:"command" jsonschema:"the command typed into the shell pane"`
	Wait    WaitForTextOutput `json:"wait" jsonschema:"the wait_for_text result"`
	Outcome Outcome           `json:"outcome" jsonschema:"the wait's outcome"`
	Cleanup bool              `json:"cleanup" jsonschema:"the server was killed and its socket removed"`
}

package schema

// ScreenInput is the input of screen.
type ScreenInput struct {
	PaneID string `json:"pane_id" jsonschema:"pane id (%N) or a target that names exactly one pane"`
	Lines  int    `json:"lines,omitempty" jsonschema:"return only the last N rows (after trailing blank rows are trimmed); 0: all" limits:"rows"`
	Diff   bool   `json:"diff,omitempty" jsonschema:"return only the rows changed since this pane's previous screen (changed_rows); the full frame on the first look or when most rows changed"`
	ANSI   bool   `json:"ansi,omitempty" jsonschema:"keep colour escapes in the rows"`
}

// ChangedRow is one row of a screen diff.
type ChangedRow struct {
	Row  int    `json:"row" jsonschema:"row number, 0 = top of the pane"`
	Text string `json:"text" jsonschema:"the row's text now (empty when it became blank)"`
}

// ScreenOutput is the output of screen.
type ScreenOutput struct {
	PaneID      string       `json:"pane_id" jsonschema:"the pane"`
	FirstRow    int          `json:"first_row,omitempty" jsonschema:"row number of rows[0] when lines cut off rows at the top"`
	CursorX     int          `json:"cursor_x" jsonschema:"cursor column, 0-based"`
	CursorY     int          `json:"cursor_y" jsonschema:"cursor row, 0-based from the top of the pane"`
	Width       int          `json:"width" jsonschema:"pane width in cells"`
	Height      int          `json:"height" jsonschema:"pane height in rows"`
	AlternateOn bool         `json:"alternate_on" jsonschema:"a full-screen program uses the alternate screen"`
	Title       string       `json:"title" jsonschema:"the pane title"`
	Full        bool         `json:"full,omitempty" jsonschema:"diff: the whole frame is returned in rows (first look, respawn, resize, or most rows changed)"`
	Unchanged   bool         `json:"unchanged,omitempty" jsonschema:"diff: nothing changed since the previous screen"`
	Scrolled    int          `json:"scrolled,omitempty" jsonschema:"diff: the previous frame moved up by this many rows (the screen scrolled) before changed_rows apply"`
	Stable      bool         `json:"stable" jsonschema:"two captures 50 ms apart agreed; false when the program kept redrawing for 1 s (see note)"`
	Note        string       `json:"note,omitempty" jsonschema:"caveats"`
	Rows        []string     `json:"rows" jsonschema:"the visible rows as displayed, ANSI stripped unless ansi, trailing blank rows trimmed; with diff only when full (else empty)"`
	ChangedRows []ChangedRow `json:"changed_rows,omitempty" jsonschema:"diff: the rows whose text changed, with their new text"`
}

// StatusInput is the input of status_check.
type StatusInput struct {
	PaneID          string `json:"pane_id" jsonschema:"pane id (%N) or a target that names exactly one pane"`
	Verbose         bool   `json:"verbose,omitempty" jsonschema:"return the visible screen's lines whether or not anything changed"`
	ScrollbackLines int    `json:"scrollback_lines,omitempty" jsonschema:"prepend up to N lines of history before the output" limits:"rows"`
}

// StatusOutput is the output of status_check.
type StatusOutput struct {
	PaneID         string   `json:"pane_id" jsonschema:"the pane"`
	Changed        bool     `json:"changed" jsonschema:"new output, a new foreground command or the process exited since the previous status"`
	RunningCommand string   `json:"running_command" jsonschema:"the pane's foreground command (pane_current_command; a background task's pane: the task's foreground program, not panectl's supervisor, and once the task has ended the task's command)"`
	Dead           bool     `json:"dead" jsonschema:"the pane's process has exited (remain-on-exit keeps the pane)"`
	ExitStatus     *int     `json:"exit_status,omitempty" jsonschema:"the exit status of the pane's process, when dead (a background task's: its command's own, absent when a signal ended it)"`
	Cursor         string   `json:"cursor" jsonschema:"cursor after the output read"`
	LinesDropped   int      `json:"lines_dropped,omitempty" jsonschema:"lines trimmed from history before they were read"`
	Truncated      bool     `json:"truncated,omitempty" jsonschema:"more than 200 new lines; the newest were kept"`
	Note           string   `json:"note,omitempty" jsonschema:"caveats"`
	Output         []string `json:"output" jsonschema:"new logical lines since the previous status of this pane (the visible screen on the first look or with verbose; a background task's pane: its journal, from its start on the first look and whole with verbose, never tmux's dead-pane banner); empty when nothing changed"`
}

// WaitForQuietInput is the input of wait_for_quiet.
type WaitForQuietInput struct {
	PaneID string `json:"pane_id,omitempty" jsonschema:"pane id (%N) or a target that names exactly one pane; or name several panes with pane_ids, session or all_panes"`
	Panes
	QuietMS int      `json:"quiet_ms,omitempty" jsonschema:"the screen must stay unchanged this many milliseconds" limits:"quiet_ms"`
	Timeout *float64 `json:"timeout,omitempty" jsonschema:"seconds to wait" limits:"timeout"`
}

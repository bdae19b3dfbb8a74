package schema

// RunInput is the input of run_shell_command.
type RunInput struct {
	PaneID     string   `json:"pane_id" jsonschema:"pane id (%N), a target that names exactly one pane, or a task id; the pane's foreground program must be a shell"`
	Command    string   `json:"command" jsonschema:"the shell command, in the pane shell's syntax; one top-level statement unless allow_multi"`
	Timeout    *float64 `json:"timeout,omitempty" jsonschema:"seconds to wait for the command; on timeout C-c is pressed (foreground runs), or the task's time limit (background runs)" limits:"run_timeout"`
	AllowMulti bool     `json:"allow_multi,omitempty" jsonschema:"accept several top-level statements (a; b); the exit code is the last one's"`
	MaxLines   int      `json:"max_lines,omitempty" jsonschema:"keep the newest N lines of output" limits:"max_lines"`
	Background bool     `json:"background,omitempty" jsonschema:"run in a new pane of the detached session panectl-tasks and return a task id at once"`
	WhenReady  bool     `json:"when_ready,omitempty" jsonschema:"type the command only once the pane awaits input by its recognizer (quiescent awaiting_input); awaiting_approval or unknown: nothing is typed, exit 3; not ready before the timeout: exit 124"`
	ClearLine  bool     `json:"clear_line,omitempty" jsonschema:"kill text already on the shell's input line first (else such text refuses the run, exit 3, naming it)"`
}

// RunOutput is the output of run_shell_command. A foreground run fills
// exit_code, output, truncated, seconds, cursor and outcome; a background
// run fills task_id, session_id and status. Small fields come first, and
// command and output last, so a client that cuts a long result keeps them.
type RunOutput struct {
	PaneID    string  `json:"pane_id" jsonschema:"the pane the command ran in (the task's pane for a background run)"`
	Outcome   Outcome `json:"outcome,omitempty" limits:"run_outcome" jsonschema:"completed (panectl exits with exit_code), timeout (exit 124; C-c was pressed), exited (the shell exited, exit 5), interrupted (an interrupt from anyone, e.g. C-c pressed in the pane or SIGINT to the command, or panectl itself was interrupted: exit 130)"`
	ExitCode  *int    `json:"exit_code" jsonschema:"the command's exit status, or the status the shell reports after an interrupt; null for timeout and exited (and for a background run), or when an interrupted shell did not report one"`
	Truncated bool    `json:"truncated" jsonschema:"more than max_lines lines (the newest were kept), or the start of the output left the pane's history"`
	Cursor    string  `json:"cursor,omitempty" jsonschema:"cursor after the command's output"`
	Seconds   float64 `json:"seconds" jsonschema:"how long the run took, in seconds"`
	// EffectiveTimeout is a pointer: a background run without a time
	// limit has none to report.
	EffectiveTimeout *float64 `json:"effective_timeout,omitempty" jsonschema:"the timeout used, in seconds; for a background run the task's time limit, absent when it has none" limits:"clamp"`
	Attempts         int      `json:"attempts,omitempty" jsonschema:"times the command was typed; more than 1 when the shell threw typed input away"`
	Note             string   `json:"note,omitempty" jsonschema:"caveats"`
	TaskID           string   `json:"task_id,omitempty" jsonschema:"background runs: the task id (tN), accepted wherever a pane is"`
	SessionID        string   `json:"session_id,omitempty" jsonschema:"background runs: the session of the task pane"`
	Status           string   `json:"status,omitempty" jsonschema:"background runs: running"`
	Command          string   `json:"command" jsonschema:"the command as given"`
	Output           []string `json:"output" jsonschema:"the command's own output lines: no echo, no prompt, no marker text (empty for a background run)"`
}

// KillTaskInput is the input of kill_task: a task to stop, or prune, or both.
type KillTaskInput struct {
	TaskID string `json:"task_id,omitempty" jsonschema:"a task id (tN) from run_shell_command with background; required unless prune"`
	Prune  bool   `json:"prune,omitempty" jsonschema:"remove every task that has ended (its pane, record and journal), the journals of journaled panes that are gone, and the state of tmux servers that no longer run (after stopping task_id, if given)"`
}

// WaitTaskInput is the input of wait_task: a task_id, or any.
type WaitTaskInput struct {
	TaskID  string   `json:"task_id,omitempty" jsonschema:"a task id (tN) from run_shell_command with background; required unless any"`
	Any     bool     `json:"any,omitempty" jsonschema:"instead of task_id: a task of the server (whoever started it) that has ended and that no wait with any returned yet, the one that ended first, at once; else the next to end (each ended task is returned once)"`
	Timeout *float64 `json:"timeout,omitempty" jsonschema:"seconds to wait" limits:"timeout"`
}

// CompletionFrame is a background task's state: while it runs, and the
// frame printed when it ends (frame_type bash_completed).
type CompletionFrame struct {
	FrameType        string  `json:"frame_type" jsonschema:"bash_completed once the task ended, task_running while it runs" limits:"enum=bash_completed|task_running"`
	TaskID           string  `json:"task_id" jsonschema:"the task id"`
	PaneID           string  `json:"pane_id" jsonschema:"the task's pane"`
	SessionID        string  `json:"session_id" jsonschema:"the task pane's session"`
	Status           string  `json:"status" jsonschema:"running, completed (exit 0), failed (non-zero exit), killed (by task kill or a signal), timed_out (its time limit passed and it was stopped)" limits:"enum=running|completed|failed|killed|timed_out"`
	ExitCode         *int    `json:"exit_code" jsonschema:"the exit status; null while running or when killed by a signal"`
	Signal           int     `json:"signal,omitempty" jsonschema:"the signal that ended it, when one did"`
	Command          string  `json:"command" jsonschema:"the command"`
	OutputPreview    string  `json:"output_preview" jsonschema:"the tail of the command's own output (from its journal: ANSI removed, carriage-return redraws collapsed), at most 300 bytes, valid UTF-8, cut on a character boundary"`
	OutputTruncated  bool    `json:"output_truncated" jsonschema:"the preview is not the whole output (or the journal dropped its oldest part)"`
	OriginalTokens   *int    `json:"original_tokens,omitempty" jsonschema:"o200k_base tokens of the whole output as written (its journal, ANSI escapes included); omitted when tokens_skipped"`
	CompressedTokens *int    `json:"compressed_tokens,omitempty" jsonschema:"o200k_base tokens after compression (ANSI removed, carriage-return redraws collapsed, identical line runs folded); omitted when tokens_skipped"`
	TokensSkipped    bool    `json:"tokens_skipped" jsonschema:"the output exceeds 128 KiB and was not tokenized"`
	Seconds          float64 `json:"seconds" jsonschema:"seconds since the task started (until it ended, when known)"`
}

// ListTasksInput is the input of list_tasks: none. Pruning is kill_task's,
// so that listing stays read-only.
type ListTasksInput struct{}

// ListTasksOutput is the output of list_tasks.
type ListTasksOutput struct {
	Tasks []CompletionFrame `json:"tasks" jsonschema:"every background task of the server, oldest first, with its frame (tasks whose pane is gone included)"`
	Pruned
}

// Pruned is what a prune removed (kill_task with prune; the CLI's tasks --prune).
type Pruned struct {
	Pruned []string `json:"pruned,omitempty" jsonschema:"with prune: the ids of the tasks removed"`
	// PrunedServers: how many state directories of dead servers went.
	PrunedServers int `json:"pruned_servers,omitempty" jsonschema:"with prune: how many state directories (task records and journals) of tmux servers of this machine that no longer run were removed"`
}

// WaitTaskOutput is the output of wait_task: the completion frame, and the
// outcome of the wait. With any, a wait that no task ended in (timeout, or
// the server went away with no task running) has no frame: its fields are
// absent (CompletionFrame nil).
type WaitTaskOutput struct {
	*CompletionFrame
	Outcome          Outcome `json:"outcome" limits:"task_outcome" jsonschema:"ended (exit 0), timeout (exit 124; the task keeps running), or exited (exit 5: the tmux server went away during the wait; the frame is the task as its supervisor recorded it, killed)"`
	EffectiveTimeout float64 `json:"effective_timeout" jsonschema:"the timeout used, in seconds"`
}

// KillTaskOutput is the output of kill_task. Without task_id (prune
// only) it has no frame: its fields are absent (CompletionFrame nil).
type KillTaskOutput struct {
	*CompletionFrame
	Signals []string `json:"signals,omitempty" jsonschema:"with task_id: signals sent, in order (SIGINT, then SIGTERM and SIGKILL after grace periods)"`
	Pruned
}

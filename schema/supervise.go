package schema

// AgentsInput is the input of `panectl agents` (CLI only; SPEC.md section 13).
type AgentsInput struct {
	All     bool     `json:"all,omitempty" jsonschema:"every pane, not only those a recognizer knows"`
	Panes   []string `json:"pane_ids,omitempty" jsonschema:"only these panes (%N)"`
	Session string   `json:"session,omitempty" jsonschema:"only the panes of this session (its exact name or $N)"`
	QuietMS int      `json:"quiet_ms,omitempty" jsonschema:"quiet window in milliseconds" limits:"quiet_ms"`
}

// Agent is one pane as `panectl agents` reports it.
type Agent struct {
	PaneID      string   `json:"pane_id" jsonschema:"the pane"`
	SessionName string   `json:"session_name" jsonschema:"its session"`
	Recognizer  string   `json:"recognizer" jsonschema:"the recognizer auto picked; generic when none knows the program"`
	State       State    `json:"state" jsonschema:"busy, awaiting_input, awaiting_approval or unknown" limits:"state"`
	Settled     bool     `json:"settled" jsonschema:"the state held for the quiet window (as wait_for_turn decides); false: the last look's state"`
	Seconds     float64  `json:"seconds" jsonschema:"seconds this process has seen the pane in that state"`
	Command     string   `json:"command" jsonschema:"the foreground command (pane_current_command)"`
	Title       string   `json:"title" jsonschema:"the pane title"`
	CWD         string   `json:"cwd" jsonschema:"the pane's current directory"`
	Line        string   `json:"line" jsonschema:"the screen's last row with a letter or digit"`
	Evidence    Evidence `json:"evidence" jsonschema:"the rule, region and line behind the state"`
	Note        string   `json:"note,omitempty" jsonschema:"how the pane is followed, when worth saying"`
}

// AgentsOutput is the output of `panectl agents --json`.
type AgentsOutput struct {
	Agents []Agent `json:"agents" jsonschema:"the panes, by session, window and pane index"`
	Note   string  `json:"note,omitempty" jsonschema:"caveats"`
}

// EventsInput is the input of `panectl events` (CLI only; SPEC.md section 13).
type EventsInput struct {
	Panes   []string `json:"pane_ids,omitempty" jsonschema:"only these panes (%N)"`
	Session string   `json:"session,omitempty" jsonschema:"only the panes of this session (its exact name or $N)"`
	QuietMS int      `json:"quiet_ms,omitempty" jsonschema:"quiet window in milliseconds" limits:"quiet_ms"`
	Timeout *float64 `json:"timeout,omitempty" jsonschema:"seconds to follow at most; absent: until interrupted" limits:"clamp"`
}

// Event is one line of `panectl events`: a change on the server.
type Event struct {
	Type        string           `json:"type" jsonschema:"pane_created, pane_closed, state_changed, task_ended or pane_exited" limits:"enum=pane_created|pane_closed|state_changed|task_ended|pane_exited"`
	Time        string           `json:"time" jsonschema:"when it was seen, RFC 3339 with milliseconds"`
	PaneID      string           `json:"pane_id" jsonschema:"the pane"`
	SessionName string           `json:"session_name,omitempty" jsonschema:"its session"`
	From        State            `json:"from,omitempty" jsonschema:"state_changed: the state before"`
	To          State            `json:"to,omitempty" jsonschema:"state_changed: the new state"`
	Recognizer  string           `json:"recognizer,omitempty" jsonschema:"state_changed: the recognizer auto picked"`
	Evidence    *Evidence        `json:"evidence,omitempty" jsonschema:"state_changed: the rule, region and line behind the new state"`
	ExitStatus  *int             `json:"exit_status,omitempty" jsonschema:"pane_exited: the program's exit status"`
	Signal      int              `json:"signal,omitempty" jsonschema:"pane_exited: the signal that ended the program, if one did"`
	Task        *CompletionFrame `json:"task,omitempty" jsonschema:"task_ended: the task's completion frame"`
}

package schema

// WatchInput is the input of `panectl watch` (CLI only: not a tool, since
// it streams; SPEC.md sections 3 and 10).
type WatchInput struct {
	PaneID     string   `json:"pane_id" jsonschema:"the pane to watch, %N"`
	Format     string   `json:"format" jsonschema:"acp (ACP v2 session/update notifications) or events (panectl JSON Lines)"`
	SessionID  string   `json:"session_id,omitempty" jsonschema:"ACP sessionId; default: the pane's session id"`
	TerminalID string   `json:"terminal_id,omitempty" jsonschema:"ACP terminalId; default: the pane id"`
	Timeout    *float64 `json:"timeout,omitempty" jsonschema:"seconds to watch at most; 0 looks once (the first update, and the exit update if the process has already exited), as for every wait; absent: until the pane's process exits" limits:"clamp"`
}

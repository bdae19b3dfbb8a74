package schema

// Panes picks the panes of a wait over several panes (SPEC.md section 13):
// pane ids, a session's panes, or every pane of the server. Any of them
// replaces pane_id. The wait then ends when one pane decides, or with All
// when each has; its output is the deciding pane's result.
type Panes struct {
	PaneIDs  StringList `json:"pane_ids,omitempty" jsonschema:"wait on these panes (ids %N or targets that each name one pane) instead of pane_id" limits:"pane_ids"`
	Session  string     `json:"session,omitempty" jsonschema:"wait on every live pane of this session (its exact name or $N id)" limits:"minLength=1"`
	AllPanes bool       `json:"all_panes,omitempty" jsonschema:"wait on every live pane of the server"`
	All      bool       `json:"all,omitempty" jsonschema:"wait until every pane has decided and return each result in results; exit 0 only if every pane met the condition, else the code of the first pane (in order) that did not, whose result is the top-level one"`
}

// Several reports whether p asks for the form over several panes.
func (p Panes) Several() bool {
	return len(p.PaneIDs) > 0 || p.Session != "" || p.AllPanes || p.All
}

// WaitForTextResult is one pane's result of wait_for_text.
type WaitForTextResult struct {
	PaneID           string   `json:"pane_id" jsonschema:"the pane (of several: the one this result is of)"`
	Outcome          Outcome  `json:"outcome" jsonschema:"matched (exit 0), stopped (exit 3), timeout (exit 124) or exited (exit 5)" limits:"text_outcome"`
	Truncated        bool     `json:"truncated" jsonschema:"more than max_lines lines; the newest were kept"`
	LinesDropped     int      `json:"lines_dropped" jsonschema:"lines trimmed from history before they were read"`
	Cursor           string   `json:"cursor" jsonschema:"cursor after the matched line, else after the output read: a wait from it sees what came next"`
	Seconds          float64  `json:"seconds" jsonschema:"how long the wait took, in seconds"`
	EffectiveTimeout float64  `json:"effective_timeout" jsonschema:"the timeout used, in seconds"`
	Matched          string   `json:"matched,omitempty" jsonschema:"the pattern that matched"`
	MatchedLine      string   `json:"matched_line,omitempty" jsonschema:"the line it matched"`
	Note             string   `json:"note,omitempty" jsonschema:"caveats: discounted echo lines, polling fallback, dropped lines"`
	Output           []string `json:"output" jsonschema:"logical lines from the cursor to the match (or to the end)"`
}

// WaitForTextOutput is the output of wait_for_text: one pane's result,
// and with all every pane's.
type WaitForTextOutput struct {
	WaitForTextResult
	Results []WaitForTextResult `json:"results,omitempty" jsonschema:"with all: every pane's result, in the order of the panes"`
}

// WaitForQuietResult is one pane's result of wait_for_quiet.
type WaitForQuietResult struct {
	PaneID           string   `json:"pane_id" jsonschema:"the pane (of several: the one this result is of)"`
	Outcome          Outcome  `json:"outcome" limits:"quiet_outcome" jsonschema:"quiet (exit 0), timeout (exit 124) or exited (exit 5)"`
	Seconds          float64  `json:"seconds" jsonschema:"how long the wait took, in seconds"`
	EffectiveTimeout float64  `json:"effective_timeout" jsonschema:"the timeout used, in seconds"`
	QuietMS          int      `json:"quiet_ms" jsonschema:"the quiet window used, in milliseconds"`
	Note             string   `json:"note,omitempty" jsonschema:"caveats"`
	Screen           []string `json:"screen" jsonschema:"the last screen seen: rows as displayed, trailing blank rows trimmed"`
}

// WaitForQuietOutput is the output of wait_for_quiet: one pane's result,
// and with all every pane's.
type WaitForQuietOutput struct {
	WaitForQuietResult
	Results []WaitForQuietResult `json:"results,omitempty" jsonschema:"with all: every pane's result, in the order of the panes"`
}

// WaitForTurnResult is one pane's result of wait_for_turn.
type WaitForTurnResult struct {
	PaneID           string   `json:"pane_id" jsonschema:"the pane (of several: the one this result is of)"`
	State            State    `json:"state" jsonschema:"busy, awaiting_input, awaiting_approval or unknown" limits:"state"`
	Outcome          Outcome  `json:"outcome" limits:"turn_outcome" jsonschema:"turn_ended (exit 0 when state is awaiting_input, else 3), busy (exit 3), timeout (exit 124) or exited (exit 5)"`
	Recognizer       string   `json:"recognizer" jsonschema:"the recognizer id used (auto resolved)"`
	Evidence         Evidence `json:"evidence" jsonschema:"the rule, region and line behind the state"`
	Seconds          float64  `json:"seconds" jsonschema:"how long the wait took, in seconds"`
	EffectiveTimeout float64  `json:"effective_timeout" jsonschema:"the timeout used, in seconds"`
	Note             string   `json:"note,omitempty" jsonschema:"caveats"`
	Screen           []string `json:"screen" jsonschema:"the last rows of the screen"`
}

// WaitForTurnOutput is the output of wait_for_turn: one pane's result,
// and with all every pane's.
type WaitForTurnOutput struct {
	WaitForTurnResult
	Results []WaitForTurnResult `json:"results,omitempty" jsonschema:"with all: every pane's result, in the order of the panes"`
}

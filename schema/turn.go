package schema

import "strings"

// Evidence says why a turn state was chosen.
type Evidence struct {
	Rule   string `json:"rule" jsonschema:"the manifest rule that matched (empty for a fallback)"`
	Region string `json:"region" jsonschema:"the region it looked at: bottom:N, input_box, title, command, cursor_line..."`
	Line   string `json:"line" jsonschema:"the row (or title, or command) that matched"`
	// LookedFor is set when no rule matched (the recognizer's fallback).
	LookedFor []string `json:"looked_for,omitempty" jsonschema:"when no rule matched: the rules that were tried, in order"`
}

// Option is one option of a dialog, as the recognizer read it.
type Option struct {
	Key      string `json:"key" jsonschema:"the number drawn before the option, or its position from 1 when the options carry no numbers"`
	Text     string `json:"text" jsonschema:"the option's text, without its number and highlight mark (its first row when it wraps)"`
	Selected bool   `json:"selected,omitempty" jsonschema:"the dialog highlights this option: Enter would pick it"`
}

// ListOptions says options as "1. Yes (highlighted); 2. No", for
// messages.
func ListOptions(opts []Option) string {
	if len(opts) == 0 {
		return "none that panectl can read"
	}
	parts := make([]string, len(opts))
	for i, o := range opts {
		parts[i] = o.Key + ". " + o.Text
		if o.Selected {
			parts[i] += " (highlighted)"
		}
	}
	return strings.Join(parts, "; ")
}

// RecognizeInput is the input of recognize. Over call and MCP a saved screen
// is given as text (Screen); the CLI's --file reads one (File, which is not
// part of the tool's input: the server reads no paths for a client).
type RecognizeInput struct {
	PaneID     string `json:"pane_id,omitempty" jsonschema:"pane id (%N) or a target that names exactly one pane; not with screen"`
	Recognizer string `json:"recognizer,omitempty" jsonschema:"auto (default), a recognizer id or alias: generic, shell, python, node, claude, codex, gemini, qwen, antigravity, cursor, opencode, copilot, grok, amp, droid, kimi, pi" limits:"minLength=1"`
	Screen     string `json:"screen,omitempty" jsonschema:"classify this saved screen instead of a pane: capture-pane -p text, rows separated by newlines (ANSI sequences are stripped)" limits:"text"`
	File       string `json:"-"`
	Title      string `json:"title,omitempty" jsonschema:"with screen: the pane title it had"`
	Command    string `json:"command,omitempty" jsonschema:"with screen: the foreground command it had (pane_current_command)"`
}

// RecognizeOutput is the output of recognize.
type RecognizeOutput struct {
	PaneID     string   `json:"pane_id,omitempty" jsonschema:"the pane (absent for a file)"`
	State      State    `json:"state" jsonschema:"busy, awaiting_input, awaiting_approval or unknown" limits:"state"`
	Recognizer string   `json:"recognizer" jsonschema:"the recognizer id used (auto resolved)"`
	Evidence   Evidence `json:"evidence" jsonschema:"the rule, region and line behind the state"`
	NeedsQuiet bool     `json:"needs_quiet" jsonschema:"the state is to be trusted only once the screen has been quiet (wait_for_turn does that)"`
	Options    []Option `json:"options,omitempty" jsonschema:"awaiting_approval: the options of the dialog, in screen order (absent when none can be read); answer picks one"`
	Note       string   `json:"note,omitempty" jsonschema:"caveats"`
}

// WaitForTurnInput is the input of wait_for_turn.
type WaitForTurnInput struct {
	PaneID string `json:"pane_id,omitempty" jsonschema:"pane id (%N) or a target that names exactly one pane; or name several panes with pane_ids, session or all_panes"`
	Panes
	Recognizer      string     `json:"recognizer,omitempty" jsonschema:"auto (default), a recognizer id or alias" limits:"minLength=1"`
	QuietMS         int        `json:"quiet_ms,omitempty" jsonschema:"quiet window in milliseconds" limits:"quiet_ms"`
	Timeout         *float64   `json:"timeout,omitempty" jsonschema:"seconds to wait" limits:"timeout"`
	Lines           int        `json:"lines,omitempty" jsonschema:"rows of the screen to return, from the bottom" limits:"turn_lines"`
	WaitThroughBusy bool       `json:"wait_through_busy,omitempty" jsonschema:"keep waiting while the program is busy, until its turn ends or the timeout"`
	States          StringList `json:"states,omitempty" jsonschema:"end only in one of these states: busy, awaiting_input, awaiting_approval, unknown; other states are waited through (default: the turn ending in awaiting_input, awaiting_approval or unknown; with one pane also busy, unless wait_through_busy)" limits:"state"`
}

// AnswerInput is the input of answer.
type AnswerInput struct {
	PaneID     string   `json:"pane_id" jsonschema:"pane id (%N) or a target that names exactly one pane"`
	Choice     string   `json:"choice" jsonschema:"the option to pick: yes (the first affirmative option that is not always), always (don't ask again, always, this session, remember), no (the refusing option), or an option's key (1, 2, ...)" limits:"minLength=1"`
	Recognizer string   `json:"recognizer,omitempty" jsonschema:"auto (default), a recognizer id or alias" limits:"minLength=1"`
	QuietMS    int      `json:"quiet_ms,omitempty" jsonschema:"quiet window in milliseconds for the state after the answer" limits:"quiet_ms"`
	Timeout    *float64 `json:"timeout,omitempty" jsonschema:"seconds the answer may take in all: the pane's action lock, the dialog, the new state" limits:"timeout"`
	Lines      int      `json:"lines,omitempty" jsonschema:"rows of the screen to return, from the bottom" limits:"turn_lines"`
}

// AnswerOutput is the output of answer.
type AnswerOutput struct {
	PaneID           string   `json:"pane_id" jsonschema:"the pane"`
	Outcome          Outcome  `json:"outcome" limits:"answer_outcome" jsonschema:"answered (exit 0): the dialog went away; dialog_stayed (exit 3): it was still shown after Enter; timeout (exit 124); exited (exit 5)"`
	Option           Option   `json:"option" jsonschema:"the option picked, as the dialog showed it"`
	State            State    `json:"state" jsonschema:"the state after the answer: busy, awaiting_input, awaiting_approval (another dialog, or the same one when dialog_stayed) or unknown" limits:"state"`
	Recognizer       string   `json:"recognizer" jsonschema:"the recognizer id used (auto resolved)"`
	Evidence         Evidence `json:"evidence" jsonschema:"the rule, region and line behind the new state"`
	Seconds          float64  `json:"seconds" jsonschema:"how long the answer took, in seconds"`
	EffectiveTimeout float64  `json:"effective_timeout" jsonschema:"the timeout used, in seconds"`
	Note             string   `json:"note,omitempty" jsonschema:"caveats"`
	Options          []Option `json:"options" jsonschema:"the dialog's options before the answer"`
	Screen           []string `json:"screen" jsonschema:"the last rows of the screen after the answer"`
}

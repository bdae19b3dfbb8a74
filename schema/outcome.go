package schema

// Outcomer is implemented by the outputs of waits, which carry an outcome
// (matched, stopped, timeout, exited, ...). The CLI, `panectl call` and the
// MCP server map it to the exit code (cmd.outcomeExit). Every output type
// with an `outcome` property must implement it (a test checks).
type Outcomer interface {
	OutcomeOf() Outcome
}

// Outcome is how a wait or a run ended. Each output allows some of them
// (its enum, from the bounds in limits.go).
type Outcome string

// The outcomes.
const (
	OutcomeMatched     Outcome = "matched"     // wait_for_text: a pattern matched
	OutcomeStopped     Outcome = "stopped"     // wait_for_text: a stop pattern matched
	OutcomeTimeout     Outcome = "timeout"     // the timeout passed
	OutcomeExited      Outcome = "exited"      // the pane's process exited, or the server went away
	OutcomeQuiet       Outcome = "quiet"       // wait_for_quiet: the screen stayed still
	OutcomeTurnEnded   Outcome = "turn_ended"  // wait_for_turn: the program ended its turn
	OutcomeBusy        Outcome = "busy"        // wait_for_turn: the program is confirmed busy
	OutcomeCompleted   Outcome = "completed"   // run: the command ended
	OutcomeInterrupted Outcome = "interrupted" // run: an interrupt ended the command
	OutcomeEnded       Outcome = "ended"       // wait_task: the task ended
	OutcomeAnswered    Outcome = "answered"    // answer: the dialog went away
	// OutcomeDialogStayed: answer pressed Enter and the dialog stayed.
	OutcomeDialogStayed Outcome = "dialog_stayed"
)

// State is the turn state of the program in a pane (SPEC.md section 7).
type State string

// The turn states.
const (
	StateBusy             State = "busy"
	StateAwaitingInput    State = "awaiting_input"
	StateAwaitingApproval State = "awaiting_approval"
	StateUnknown          State = "unknown"
)

// OutcomeOf implements Outcomer.
func (o WaitForTextOutput) OutcomeOf() Outcome { return o.Outcome }

// OutcomeOf implements Outcomer.
func (o WaitForQuietOutput) OutcomeOf() Outcome { return o.Outcome }

// OutcomeOf implements Outcomer.
func (o WaitForTurnOutput) OutcomeOf() Outcome { return o.Outcome }

// OutcomeOf implements Outcomer. A completed run exits with the command's
// own status, which the CLI and call take from ExitCode.
func (o RunOutput) OutcomeOf() Outcome { return o.Outcome }

// OutcomeOf implements Outcomer.
func (o WaitTaskOutput) OutcomeOf() Outcome { return o.Outcome }

// OutcomeOf implements Outcomer.
func (o AnswerOutput) OutcomeOf() Outcome { return o.Outcome }

// JoinNotes joins two notes of an output (its note field) with "; ".
func JoinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

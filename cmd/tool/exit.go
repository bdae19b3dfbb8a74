package tool

import (
	"fmt"
	"strings"

	"github.com/panectl/panectl/schema"
)

// Exit codes (SPEC.md section 2). This file is the only place errors become
// exit codes.
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2
	ExitStopped     = 3
	ExitNotFound    = 4
	ExitPaneExited  = 5
	ExitTimeout     = 124
	ExitInterrupted = 130
)

// UsageError is invalid input: exit 2.
type UsageError struct{ err error }

func (e *UsageError) Error() string { return e.err.Error() }

func (e *UsageError) Unwrap() error { return e.err }

func Usage(err error) error { return &UsageError{err} }

func Usagef(format string, a ...any) error { return &UsageError{fmt.Errorf(format, a...)} }

// ExitError ends a command with a code after its output was printed (a wait
// that timed out, a run that returned its command's status).
type ExitError struct {
	Code int
	Msg  string
}

func (e *ExitError) Error() string { return e.Msg }

// OutcomeExit maps a wait outcome to its exit code.
func OutcomeExit(outcome schema.Outcome) error {
	switch outcome {
	case schema.OutcomeMatched, "", schema.OutcomeQuiet, schema.OutcomeTurnEnded, schema.OutcomeBusy,
		schema.OutcomeCompleted, schema.OutcomeEnded, schema.OutcomeAnswered:
		return nil
	case schema.OutcomeDialogStayed:
		return &ExitError{Code: ExitStopped, Msg: "the dialog was still shown after Enter"}
	case schema.OutcomeStopped:
		return &ExitError{Code: ExitStopped, Msg: "a stop pattern matched"}
	case schema.OutcomeTimeout:
		return &ExitError{Code: ExitTimeout, Msg: "timed out"}
	case schema.OutcomeExited:
		return &ExitError{Code: ExitPaneExited, Msg: "the pane exited"}
	}
	return nil
}

// TurnExit maps a wait-for-turn result to its exit code: 0 only for a turn
// that ended in awaiting_input, so `wait-for-turn P && send-text P ...` is
// safe; 3 for awaiting_approval, busy (the early return) or unknown; 124
// timeout; 5 exited.
func TurnExit(out schema.WaitForTurnOutput) error { return turnExit(out.WaitForTurnResult) }

// turnExit is TurnExit for one pane's result.
func turnExit(out schema.WaitForTurnResult) error {
	switch out.Outcome {
	case schema.OutcomeTimeout, schema.OutcomeExited:
		return OutcomeExit(out.Outcome)
	}
	if out.State == "awaiting_input" {
		return nil
	}
	return &ExitError{Code: ExitStopped, Msg: fmt.Sprintf("the program is %s, not awaiting input", strings.ReplaceAll(string(out.State), "_", " "))}
}

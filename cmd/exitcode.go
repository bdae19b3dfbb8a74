package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter"
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

// usageError is invalid input: exit 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErr(err error) error { return &usageError{err} }

func usageErrorf(format string, a ...any) error { return &usageError{fmt.Errorf(format, a...)} }

// exitError ends a command with a code after its output was printed (a wait
// that timed out, a run that returned its command's status).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

var errInterrupted = errors.New("interrupted")

// outcomeExit maps a wait outcome to its exit code.
func outcomeExit(outcome string) error {
	switch outcome {
	case waiter.OutcomeMatched, "", waiter.OutcomeQuiet, waiter.OutcomeTurnEnded, waiter.OutcomeBusy,
		waiter.OutcomeCompleted, waiter.OutcomeEnded:
		return nil
	case waiter.OutcomeStopped:
		return &exitError{ExitStopped, "a stop pattern matched"}
	case waiter.OutcomeTimeout:
		return &exitError{ExitTimeout, "timed out"}
	case waiter.OutcomeExited:
		return &exitError{ExitPaneExited, "the pane exited"}
	}
	return nil
}

// turnExit maps a wait-for-turn result to its exit code: 0 only for a turn
// that ended in awaiting_input, so `wait-for-turn P && send-text P ...` is
// safe; 3 for awaiting_approval, busy (the early return) or unknown; 124
// timeout; 5 exited.
func turnExit(out schema.WaitForTurnOutput) error {
	switch out.Outcome {
	case waiter.OutcomeTimeout, waiter.OutcomeExited:
		return outcomeExit(out.Outcome)
	}
	if out.State == "awaiting_input" {
		return nil
	}
	return &exitError{ExitStopped, fmt.Sprintf("the program is %s, not awaiting input", strings.ReplaceAll(out.State, "_", " "))}
}

// codeOf maps an error to (exit code, error code name).
func codeOf(err error) (int, string) {
	var ee *exitError
	var ue *usageError
	switch {
	case errors.As(err, &ee):
		return ee.code, codeName(ee.code)
	case errors.Is(err, errInterrupted), errors.Is(err, context.Canceled):
		return ExitInterrupted, "interrupted"
	case errors.As(err, &ue), errors.Is(err, pane.ErrBadCursor), errors.Is(err, waiter.ErrInvalidPattern),
		errors.Is(err, tmux.ErrAmbiguousTarget), errors.Is(err, tmux.ErrNotSocket), errors.Is(err, tmux.ErrSocketPath), errors.Is(err, waiter.ErrInvalid):
		return ExitUsage, "usage"
	case errors.Is(err, tmux.ErrNotResponding):
		return ExitFailure, "not_responding"
	case errors.Is(err, waiter.ErrRefused):
		return ExitStopped, "refused"
	case errors.Is(err, tmux.ErrPaneExited):
		return ExitPaneExited, "exited"
	case errors.Is(err, task.ErrNoTask):
		return ExitNotFound, "not_found"
	case errors.Is(err, tmux.ErrNoServer):
		return ExitNotFound, "no_server"
	case errors.Is(err, tmux.ErrPaneNotFound):
		return ExitNotFound, "not_found"
	case errors.Is(err, context.DeadlineExceeded):
		return ExitTimeout, "timeout"
	}
	if isCobraUsage(err) {
		return ExitUsage, "usage"
	}
	return ExitFailure, "failure"
}

func codeName(code int) string {
	switch code {
	case ExitStopped:
		return "stopped"
	case ExitNotFound:
		return "not_found"
	case ExitPaneExited:
		return "exited"
	case ExitTimeout:
		return "timeout"
	case ExitUsage:
		return "usage"
	case ExitInterrupted:
		return "interrupted"
	}
	return "failure"
}

// isCobraUsage recognises Cobra's own argument errors (unknown command,
// wrong number of arguments), which are not typed.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, s := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "requires at most", "invalid argument", "flag needs an argument"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// Fail prints err (as text, or JSON with --json) and returns its exit code.
func (f *Factory) Fail(err error) int {
	if err == nil {
		return ExitOK
	}
	obj := errorObject(err)
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		// an outcome (timeout, stopped, exited, the command's own
		// status): the output already said it; it is not an error
	case f.JSON:
		b, _ := json.Marshal(obj)
		fmt.Fprintln(f.IO.ErrOut, string(b))
	default:
		fmt.Fprintf(f.IO.ErrOut, "panectl: %v\n", err)
	}
	return obj.Error.ExitCode
}

// errorObject is the JSON error object of err (schema.ErrorOutput), as
// --json prints it on stderr and MCP returns it with isError.
func errorObject(err error) schema.ErrorOutput {
	code, name := codeOf(err)
	return schema.ErrorOutput{Error: schema.ErrorDetail{Code: name, Message: err.Error(), ExitCode: code}}
}

package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter"
)

var errInterrupted = errors.New("interrupted")

// codeOf maps an error to (exit code, error code name).
func codeOf(err error) (int, string) {
	var ee *tool.ExitError
	var ue *tool.UsageError
	switch {
	case errors.As(err, &ee):
		return ee.Code, codeName(ee.Code)
	case errors.Is(err, errInterrupted), errors.Is(err, context.Canceled):
		return tool.ExitInterrupted, "interrupted"
	case errors.As(err, &ue), errors.Is(err, pane.ErrBadCursor), errors.Is(err, waiter.ErrInvalidPattern),
		errors.Is(err, tmux.ErrAmbiguousTarget), errors.Is(err, tmux.ErrNotSocket), errors.Is(err, tmux.ErrSocketPath), errors.Is(err, waiter.ErrInvalid):
		return tool.ExitUsage, "usage"
	case errors.Is(err, tmux.ErrNotResponding):
		return tool.ExitFailure, "not_responding"
	case errors.Is(err, waiter.ErrRefused), errors.Is(err, task.ErrTooMany):
		return tool.ExitStopped, "refused"
	case errors.Is(err, tmux.ErrPaneExited):
		return tool.ExitPaneExited, "exited"
	case errors.Is(err, task.ErrNoTask):
		return tool.ExitNotFound, "not_found"
	case errors.Is(err, tmux.ErrNoServer):
		return tool.ExitNotFound, "no_server"
	case errors.Is(err, tmux.ErrPaneNotFound):
		return tool.ExitNotFound, "not_found"
	case errors.Is(err, context.DeadlineExceeded):
		return tool.ExitTimeout, "timeout"
	}
	if isCobraUsage(err) {
		return tool.ExitUsage, "usage"
	}
	return tool.ExitFailure, "failure"
}

func codeName(code int) string {
	switch code {
	case tool.ExitStopped:
		return "stopped"
	case tool.ExitNotFound:
		return "not_found"
	case tool.ExitPaneExited:
		return "exited"
	case tool.ExitTimeout:
		return "timeout"
	case tool.ExitUsage:
		return "usage"
	case tool.ExitInterrupted:
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
		return tool.ExitOK
	}
	obj := errorObject(err)
	var ee *tool.ExitError
	switch {
	case errors.As(err, &ee):
		// an outcome (timeout, stopped, exited, the command's own
		// status): the output already said it; it is not an error
	case f.JSON:
		b, _ := marshal(obj)
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

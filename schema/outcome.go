package schema

// Outcomer is implemented by the outputs of waits, which carry an outcome
// (matched, stopped, timeout, exited, ...). The CLI, `panectl call` and the
// MCP server map it to the exit code (cmd.outcomeExit). Every output type
// with an `outcome` property must implement it (a test checks).
type Outcomer interface {
	OutcomeOf() string
}

// OutcomeOf implements Outcomer.
func (o WaitForTextOutput) OutcomeOf() string { return o.Outcome }

// OutcomeOf implements Outcomer.
func (o WaitForQuietOutput) OutcomeOf() string { return o.Outcome }

// OutcomeOf implements Outcomer.
func (o WaitForTurnOutput) OutcomeOf() string { return o.Outcome }

// OutcomeOf implements Outcomer. A completed run exits with the command's
// own status, which the CLI and call take from ExitCode.
func (o RunOutput) OutcomeOf() string { return o.Outcome }

// OutcomeOf implements Outcomer.
func (o WaitTaskOutput) OutcomeOf() string { return o.Outcome }

package schema

// ErrorOutput is the error object of every tool: printed on stderr with
// --json (and by `panectl call`), and carried as the text of an MCP result
// with isError.
type ErrorOutput struct {
	Error ErrorDetail `json:"error" jsonschema:"what went wrong"`
}

// ErrorDetail is the body of ErrorOutput.
type ErrorDetail struct {
	Code     string `json:"code" jsonschema:"the error kind: usage, failure, no_server, not_found, stopped, exited, timeout, interrupted, ..."`
	Message  string `json:"message" jsonschema:"the reason, for people"`
	ExitCode int    `json:"exit_code" jsonschema:"the exit code of the CLI command (see: panectl help exit-codes)" limits:"byte"`
}

// errorTool gives the error object a schema and a validator like a tool's.
var errorTool = Tool{Name: "error", Input: &struct{}{}, Output: &ErrorOutput{}}

// ErrorTool is the pseudo-tool whose output is the error object.
func ErrorTool() Tool { return errorTool }

// ValidateError checks a JSON error object against the error schema.
func ValidateError(data []byte) error { return ValidateOutput(errorTool, data) }

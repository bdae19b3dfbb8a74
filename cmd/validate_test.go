package cmd_test

import (
	"strings"

	"github.com/panectl/panectl/internal/schematest"

	"github.com/panectl/panectl/schema"
	"github.com/rogpeppe/go-internal/testscript"
)

// validate TOOL: every line of the last stdout (one JSON object, or JSON
// Lines for streams) validates against TOOL's published output schema.
// validate error: the last stderr line validates as the error object
// (schema.ErrorOutput). Validation uses santhosh-tekuri/jsonschema, a
// validator independent of the generator.
func cmdValidate(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: validate TOOL|error")
	}
	if args[0] == "error" {
		lines := strings.Split(strings.TrimSpace(ts.ReadFile("stderr")), "\n")
		last := lines[len(lines)-1]
		err := schematest.ValidateError([]byte(last))
		if (err != nil) != neg {
			ts.Fatalf("stderr %q: %v", last, err)
		}
		return
	}
	tool, ok := schema.Lookup(args[0])
	if !ok {
		ts.Fatalf("validate: unknown tool %q", args[0])
	}
	out := strings.TrimSpace(ts.ReadFile("stdout"))
	if out == "" {
		ts.Fatalf("validate %s: stdout is empty", args[0])
	}
	for _, line := range strings.Split(out, "\n") {
		err := schematest.ValidateOutput(tool, []byte(line))
		if (err != nil) != neg {
			ts.Fatalf("validate %s: %v\n%s", args[0], err, line)
		}
	}
}

// Package schema holds one Go type per panectl tool input and output (the
// tool names of SPEC.md section 3). The same types fill the Cobra flags,
// print --json output, validate `panectl call` input, and describe the MCP
// tools; JSON Schemas are generated from them.
package schema

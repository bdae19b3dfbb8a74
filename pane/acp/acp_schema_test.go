package acp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The published ACP v2 schema (testdata/acp-v2/schema.json, Apache-2.0) is
// loaded under a made-up base URL; strictOverlay sits next to it.
const (
	acpSchemaURL    = "https://panectl.invalid/acp-v2/schema.json"
	acpStrictURL    = "https://panectl.invalid/acp-v2/strict.json"
	acpStrictSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$comment": "Tightens, never loosens, the published schema for panectl's own output. The ACP objects are open (no additionalProperties: false) and SessionUpdate ends in a catch-all 'other' variant, so a misspelled member name or discriminator would still validate against schema.json; here every member must be one the schema declares and the discriminator must be a terminal kind.",
  "$defs": {
    "notification": {
      "$ref": "schema.json",
      "properties": {
        "jsonrpc": {"const": "2.0"},
        "method": {"const": "session/update"},
        "params": {"$ref": "#/$defs/params"}
      },
      "required": ["jsonrpc", "method", "params"],
      "unevaluatedProperties": false
    },
    "params": {
      "$ref": "schema.json#/$defs/UpdateSessionNotification",
      "properties": {
        "update": {"anyOf": [{"$ref": "#/$defs/terminalUpdate"}, {"$ref": "#/$defs/terminalOutputChunk"}]}
      },
      "unevaluatedProperties": false
    },
    "terminalUpdate": {
      "$ref": "schema.json#/$defs/TerminalUpdate",
      "properties": {
        "sessionUpdate": {"const": "terminal_update"},
        "output": {"anyOf": [{"type": "null"}, {"$ref": "schema.json#/$defs/TerminalOutput", "unevaluatedProperties": false}]},
        "exitStatus": {"anyOf": [{"type": "null"}, {"$ref": "schema.json#/$defs/TerminalExitStatus", "unevaluatedProperties": false}]},
        "size": {"anyOf": [{"type": "null"}, {"$ref": "schema.json#/$defs/TerminalSize", "unevaluatedProperties": false}]},
        "capabilities": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/capabilities"}]}
      },
      "required": ["sessionUpdate"],
      "unevaluatedProperties": false
    },
    "capabilities": {
      "$ref": "schema.json#/$defs/TerminalCapabilities",
      "properties": {
        "cancel": {"anyOf": [{"type": "null"}, {"$ref": "schema.json#/$defs/TerminalCancelCapabilities", "unevaluatedProperties": false}]}
      },
      "unevaluatedProperties": false
    },
    "terminalOutputChunk": {
      "$ref": "schema.json#/$defs/TerminalOutputChunk",
      "properties": {"sessionUpdate": {"const": "terminal_output_chunk"}},
      "required": ["sessionUpdate"],
      "unevaluatedProperties": false
    }
  }
}`
)

// acpSchemas are the compiled schemas each notification must satisfy:
//   - root: the whole published document, the JSON-RPC envelope included.
//     Alone it proves little: AgentNotification's params may be an
//     ExtNotification, whose schema is {} and accepts anything.
//   - params: $defs/UpdateSessionNotification, which covers "params" only
//     (sessionId, update, _meta), not jsonrpc/method. Its update must match a
//     SessionUpdate variant; the catch-all "other" variant excludes
//     terminal_update and terminal_output_chunk, so those two must match
//     their real definitions.
//   - strict: the overlay above, which forbids undeclared members.
type acpSchemas struct {
	root, params, strict *jsonschema.Schema
}

func compileACPSchemas(t testing.TB) acpSchemas {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertContent() // check contentEncoding: base64 on data
	c.AssertFormat()
	addResource(t, c, acpSchemaURL, filepath.Join("testdata", "acp-v2", "schema.json"))
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(acpStrictSchema))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource(acpStrictURL, doc); err != nil {
		t.Fatal(err)
	}
	compile := func(loc string) *jsonschema.Schema {
		s, err := c.Compile(loc)
		if err != nil {
			t.Fatalf("compile %s: %v", loc, err)
		}
		return s
	}
	return acpSchemas{
		root:   compile(acpSchemaURL),
		params: compile(acpSchemaURL + "#/$defs/UpdateSessionNotification"),
		strict: compile(acpStrictURL + "#/$defs/notification"),
	}
}

func addResource(t testing.TB, c *jsonschema.Compiler, url, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
}

// validate checks one marshalled notification against all three schemas and
// returns the first failure.
func (s acpSchemas) validate(line []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return err
	}
	if err := s.root.Validate(inst); err != nil {
		return err
	}
	params := inst.(map[string]any)["params"]
	if err := s.params.Validate(params); err != nil {
		return err
	}
	return s.strict.Validate(inst)
}

func TestACPNotificationsValidateAgainstSchema(t *testing.T) {
	schemas := compileACPSchemas(t)
	for i, n := range sampleNotifications(t) {
		b, err := json.Marshal(n)
		if err != nil {
			t.Fatalf("notification %d: %v", i, err)
		}
		if err := schemas.validate(b); err != nil {
			t.Errorf("notification %d does not validate: %s\n%v", i, b, err)
		}
	}
}

// The schemas must be able to fail: known-bad lines are rejected, and the
// published schema alone is shown to be too lenient for a misspelled name.
func TestACPSchemaRejects(t *testing.T) {
	schemas := compileACPSchemas(t)
	env := func(update string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":` + update + `}}`
	}
	tests := []struct {
		name         string
		line         string
		publishedToo bool // the published schema (root + params) rejects it as well
	}{
		{"missing terminalId", env(`{"sessionUpdate":"terminal_update","cwd":"/"}`), true},
		{"size cols 0", env(`{"sessionUpdate":"terminal_update","terminalId":"t","size":{"cols":0,"rows":1}}`), true},
		{"size without rows", env(`{"sessionUpdate":"terminal_update","terminalId":"t","size":{"cols":1}}`), true},
		{"command number", env(`{"sessionUpdate":"terminal_update","terminalId":"t","command":1}`), true},
		{"output without data", env(`{"sessionUpdate":"terminal_update","terminalId":"t","output":{}}`), true},
		{"exitCode fractional", env(`{"sessionUpdate":"terminal_update","terminalId":"t","exitStatus":{"exitCode":1.5}}`), true},
		{"chunk data not base64", env(`{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"%%%"}`), true},
		{"chunk missing data", env(`{"sessionUpdate":"terminal_output_chunk","terminalId":"t"}`), true},
		{"missing sessionId", `{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":""}}}`, true},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":""}}}`, true},
		// Accepted by the published schema, caught by the strict overlay:
		{"misspelled member", env(`{"sessionUpdate":"terminal_update","terminalId":"t","exit_status":{"exitCode":0}}`), false},
		{"misspelled nested member", env(`{"sessionUpdate":"terminal_update","terminalId":"t","size":{"cols":1,"rows":1,"colums":2}}`), false},
		{"misspelled discriminator", env(`{"sessionUpdate":"terminal_updates","terminalId":"t"}`), false},
		{"wrong method", `{"jsonrpc":"2.0","method":"session/updates","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":""}}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			if err := schemas.strict.Validate(inst); err == nil {
				t.Errorf("strict schema accepted %s", tt.line)
			}
			params := inst.(map[string]any)["params"]
			published := schemas.root.Validate(inst) != nil || schemas.params.Validate(params) != nil
			if published != tt.publishedToo {
				t.Errorf("published schema rejects = %v, want %v for %s", published, tt.publishedToo, tt.line)
			}
		})
	}
}

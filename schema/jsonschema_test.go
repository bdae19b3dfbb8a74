package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/schemas.golden.json")

// TestSchemasGolden pins the generated schemas of every tool: a change to a
// type, a tag or the generator shows up as a diff (go test ./schema -update
// rewrites it after review).
func TestSchemasGolden(t *testing.T) {
	var doc []map[string]any
	for _, tool := range Tools() {
		s, err := SchemasOf(tool)
		if err != nil {
			t.Fatal(err)
		}
		doc = append(doc, map[string]any{"name": tool.Name, "inputSchema": s.Input, "outputSchema": s.Output})
	}
	got, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "schemas.golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./schema -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("generated schemas differ from %s; review and run go test ./schema -update", path)
	}
}

// TestSchemasInvariants checks what every tool's schemas promise, for tools
// added later too.
func TestSchemasInvariants(t *testing.T) {
	names := map[string]bool{}
	for _, tool := range Tools() {
		if names[tool.Name] {
			t.Errorf("tool %s listed twice", tool.Name)
		}
		names[tool.Name] = true
		if tool.Title == "" || tool.Description == "" {
			t.Errorf("tool %s: title and description are required", tool.Name)
		}
		s, err := SchemasOf(tool)
		if err != nil {
			t.Fatal(err)
		}
		for what, sch := range map[string]any{"input": s.Input, "output": s.Output} {
			b, _ := json.Marshal(sch)
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if m["type"] != "object" || m["$schema"] != Draft {
				t.Errorf("%s %s: want an object schema of draft 2020-12, got type %v $schema %v", tool.Name, what, m["type"], m["$schema"])
			}
			walkObjects(m, func(path string, obj map[string]any) {
				if obj["additionalProperties"] != false {
					t.Errorf("%s %s %s: additionalProperties is not false", tool.Name, what, path)
				}
				props, _ := obj["properties"].(map[string]any)
				for k, p := range props {
					if d, _ := p.(map[string]any)["description"].(string); d == "" {
						t.Errorf("%s %s %s.%s: no description", tool.Name, what, path, k)
					}
				}
			})
		}
		// Outputs with an outcome map it to the exit code.
		if _, ok := s.Output.Properties["outcome"]; ok {
			if _, ok := tool.Output.(Outcomer); !ok {
				t.Errorf("tool %s: its output has an outcome but %T does not implement Outcomer", tool.Name, tool.Output)
			}
		}
		// pane_id, when there is one, is required (unless a saved screen
		// can stand in for the pane, as with recognize, or other panes, as
		// with the waits over several panes).
		_, hasFile := s.Input.Properties["screen"]
		_, hasPanes := s.Input.Properties["pane_ids"]
		if _, ok := s.Input.Properties["pane_id"]; ok && !hasFile && !hasPanes && !slices.Contains(s.Input.Required, "pane_id") {
			t.Errorf("tool %s: pane_id is not required", tool.Name)
		}
	}
}

func walkObjects(v any, f func(path string, obj map[string]any)) {
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["type"] == "object" || x["properties"] != nil {
				f(path, x)
			}
			for k, c := range x {
				walk(path+"/"+k, c)
			}
		case []any:
			for _, c := range x {
				walk(path, c)
			}
		}
	}
	walk("", v)
}

func TestValidateInput(t *testing.T) {
	wait, _ := Lookup("wait_for_text")
	capture, _ := Lookup("capture")
	ascii, _ := Lookup("send_ascii")
	long := string(bytes.Repeat([]byte("x"), 4097))
	many, _ := json.Marshal(slices.Repeat([]string{"x"}, 33))
	panes, _ := json.Marshal(slices.Repeat([]string{"%0"}, MaxWaitPanes+1))
	for _, c := range []struct {
		tool   Tool
		in     string
		fields []string // nil: valid
	}{
		{wait, `{"pane_id":"%0","patterns":"x"}`, nil},
		{wait, `{"pane_id":"%0","patterns":["x","y"],"stop":"z","timeout":99999}`, nil},
		{wait, `{"pane_id":"%0","patterns":"x","timeout":-5}`, nil},
		{wait, `{"pane_id":"%0","patterns":"x","bogus":1}`, []string{"bogus"}},
		{wait, `{"patterns":"x"}`, nil}, // the Go check asks for a pane
		{wait, `{"pane_ids":[],"patterns":"x"}`, []string{"pane_ids"}},
		{wait, `{"pane_ids":` + string(panes) + `,"patterns":"x"}`, []string{"pane_ids"}},
		{wait, `{"pane_id":"%0","patterns":5}`, []string{"patterns"}},
		{wait, `{"pane_id":"%0","patterns":[]}`, []string{"patterns"}},
		{wait, `{"pane_id":"%0","patterns":"` + long + `"}`, []string{"patterns"}},
		{wait, `{"pane_id":"%0","patterns":` + string(many) + `}`, []string{"patterns"}},
		{wait, `{"pane_id":"%0","patterns":"x","timeout":"soon"}`, []string{"timeout"}},
		{capture, `{"pane_id":"%0","max_lines":10001}`, []string{"max_lines"}},
		{capture, `{"pane_id":"%0","max_lines":0}`, []string{"max_lines"}},
		{capture, `{"pane_id":"%0","max_lines":10000}`, nil},
		{ascii, `{"pane_id":"%0","codes":[3,256]}`, []string{"codes"}}, // jsonschema-go names the array, not the item
	} {
		err := ValidateInput(c.tool, []byte(c.in))
		var ve *ValidationError
		switch {
		case c.fields == nil && err != nil:
			t.Errorf("%s %.80s: unexpected error %v", c.tool.Name, c.in, err)
		case c.fields != nil && !errors.As(err, &ve):
			t.Errorf("%s %.80s: got %v, want a validation error naming %v", c.tool.Name, c.in, err, c.fields)
		case c.fields != nil && !reflect.DeepEqual(ve.Fields(), c.fields):
			t.Errorf("%s %.80s: fields %v, want %v (%v)", c.tool.Name, c.in, ve.Fields(), c.fields, err)
		}
	}
}

// A JSON null is named as null, not as Go's "<invalid reflect.Value>".
func TestValidateInputNull(t *testing.T) {
	capture, _ := Lookup("capture")
	for _, in := range []string{`null`, `{"pane_id":"%0","cursor":null}`} {
		err := ValidateInput(capture, []byte(in))
		if err == nil || strings.Contains(err.Error(), "reflect") || !strings.Contains(err.Error(), "null") {
			t.Errorf("%s: %v; want an error that names null", in, err)
		}
	}
}

// TestInputLimits pins the limits and defaults SPEC.md section 3 gives to
// the published input schemas (section 9: schemas carry defaults and
// limits), so `panectl call` and MCP clients see them, not only the run
// functions.
func TestInputLimits(t *testing.T) {
	for _, c := range []struct {
		tool, field string
		min, max    float64
		def         string // JSON, "" when none
	}{
		{"capture", "max_lines", 1, 10000, "200"},
		{"wait_for_text", "max_lines", 1, 10000, "200"},
		{"run_shell_command", "max_lines", 1, 10000, "200"},
		{"wait_for_quiet", "quiet_ms", 50, 60000, "600"},
		{"wait_for_turn", "quiet_ms", 50, 60000, "600"},
		{"wait_for_turn", "lines", 1, 10000, "40"},
		{"screen", "lines", 0, 10000, ""},
		{"status_check", "scrollback_lines", 0, 10000, ""},
	} {
		tool, ok := Lookup(c.tool)
		if !ok {
			t.Fatalf("no tool %s", c.tool)
		}
		s, err := SchemasOf(tool)
		if err != nil {
			t.Fatal(err)
		}
		p := s.Input.Properties[c.field]
		if p == nil || p.Minimum == nil || p.Maximum == nil || *p.Minimum != c.min || *p.Maximum != c.max {
			t.Errorf("%s.%s: want minimum %v, maximum %v; got %+v", c.tool, c.field, c.min, c.max, p)
			continue
		}
		if got := string(p.Default); got != c.def {
			t.Errorf("%s.%s: default %q, want %q", c.tool, c.field, got, c.def)
		}
	}
	for _, name := range []string{"wait_for_text", "wait_for_quiet", "wait_for_turn", "wait_task"} {
		tool, _ := Lookup(name)
		s, err := SchemasOf(tool)
		if err != nil {
			t.Fatal(err)
		}
		if p := s.Input.Properties["timeout"]; p == nil || string(p.Default) != "30" {
			t.Errorf("%s.timeout: want default 30", name)
		}
	}
}

// wait_task's frame is an optional group (an embedded *CompletionFrame):
// a wait with any that no task ended in has no frame at all; a frame is
// whole, and its frame_type and status are among their values.
func TestWaitTaskOptionalFrame(t *testing.T) {
	tool, _ := Lookup("wait_task")
	frame := `"frame_type":"bash_completed","task_id":"t1","pane_id":"%1","session_id":"$1","status":"killed","exit_code":9,"command":"x","output_preview":"","output_truncated":false,"tokens_skipped":false,"seconds":1`
	cases := []struct {
		out string
		ok  bool
	}{
		{`{"outcome":"timeout","effective_timeout":3}`, true},
		{`{` + frame + `,"outcome":"ended","effective_timeout":3}`, true},
		{`{"task_id":"t1","outcome":"ended","effective_timeout":3}`, false},
		{`{` + strings.Replace(frame, `"bash_completed"`, `""`, 1) + `,"outcome":"ended","effective_timeout":3}`, false},
		{`{` + strings.Replace(frame, `"killed"`, `""`, 1) + `,"outcome":"ended","effective_timeout":3}`, false},
	}
	for _, c := range cases {
		if err := ValidateOutput(tool, []byte(c.out)); (err == nil) != c.ok {
			t.Errorf("%s: validation error %v, want ok=%v", c.out, err, c.ok)
		}
	}
}

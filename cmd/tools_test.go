package cmd

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	panectltool "github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
)

// Every tool of schema.Tools has a body in cmd/tool.
func TestToolsHaveBodies(t *testing.T) {
	if u := panectltool.Unbound(); len(u) > 0 {
		t.Errorf("tools without a body in cmd/tool: %v", u)
	}
}

// Every tool's CLI command exists.
func TestToolsHaveCommands(t *testing.T) {
	root := NewRootCmd(NewFactory())
	for _, tool := range schema.Tools() {
		if tool.CLI == "" {
			continue
		}
		c, _, err := root.Find(strings.Fields(tool.CLI))
		if err != nil || c == root {
			t.Errorf("tool %s: no command %q", tool.Name, tool.CLI)
		}
	}
}

// noTmux makes every tool fail at the point it would start tmux, so input
// handling runs for real without a server.
func noTmux(t testing.TB) *Factory {
	t.Setenv("PANECTL_TMUX", "/nonexistent/panectl-test-tmux")
	f := NewFactory()
	f.SocketName = "panectl-test-none"
	return f.forCall()
}

func TestCallValidation(t *testing.T) {
	f := noTmux(t)
	for _, c := range []struct {
		tool, in string
		code     int
		want     string
	}{
		{"wait_for_text", `{"pane_id":"%0","patterns":"x","bogus":1}`, panectltool.ExitUsage, "bogus"},
		{"wait_for_text", `{"pane_id":"%0","patterns":7}`, panectltool.ExitUsage, "patterns"},
		{"wait_for_text", `{"pane_id":"%0"}`, panectltool.ExitUsage, "patterns"},
		{"capture", `{"pane_id":"%0","max_lines":10001}`, panectltool.ExitUsage, "max_lines"},
		{"capture", `{"pane_id":"%0"`, panectltool.ExitUsage, "not JSON"},
		{"wait_for_text", `{"pane_id":"%0","patterns":"x","timeout":1e400}`, panectltool.ExitUsage, "1e400 is out of range"},
		{"capture", `{} {}`, panectltool.ExitUsage, "data after"},
		{"capture", `[]`, panectltool.ExitUsage, "input"},
		{"nope", `{}`, panectltool.ExitUsage, "list_panes"},
		{"send_ascii", `{"pane_id":"%0","codes":[300]}`, panectltool.ExitUsage, "codes"},
		// every problem in one reply, in the tool's argument names
		{"run_shell_command", `{"pane_id":"%0","cmd":"ls"}`, panectltool.ExitUsage,
			"cmd: unknown field (did you mean command?); command: required field missing"},
		{"wait_for_text", `{"pane_id":4,"patterns":"x","timeout":"5"}`, panectltool.ExitUsage,
			"pane_id: 4 is of type integer, want string; timeout: 5 is of type string, want number"},
		// deep nesting is refused in one pass, before any decoder
		{"wait_for_text", `{"pane_id":"%0","patterns":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`, panectltool.ExitUsage, "nested deeper than 64 levels"},
		{"wait_for_text", `{"pane_id":"%0","patterns":"` + strings.Repeat("[", 100) + `"}`, panectltool.ExitFailure, "panectl-test-tmux"},
		// call stays strict: what MCP clients add is refused here
		{"list_panes", `{"wait_for_previous":true}`, panectltool.ExitUsage, "wait_for_previous: unknown field"},
		// valid input reaches the run function, which fails to start tmux
		{"capture", `{"pane_id":"%0"}`, panectltool.ExitFailure, "panectl-test-tmux"},
		{"list_panes", ``, panectltool.ExitFailure, "panectl-test-tmux"},
	} {
		out, err := callTool(context.Background(), f, c.tool, []byte(c.in))
		code, _ := codeOf(err)
		if out != nil || err == nil || code != c.code || !strings.Contains(err.Error(), c.want) {
			t.Errorf("call %s %s: out %v err %v (exit %d); want exit %d naming %q", c.tool, c.in, out, err, code, c.code, c.want)
		}
	}
}

// FuzzCall: arbitrary JSON input to every tool never panics, and input that
// validates against the schema decodes into the Go type (the schema and
// the type agree).
func FuzzCall(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"pane_id":"%0","patterns":"x","bogus":1}`, `{"pane_id":"%0","patterns":["a","b"],"stop":"c","timeout":1e308}`,
		`{"pane_id":"%0","max_lines":-1}`, `{"pane_id":"%0","codes":[1,2,255]}`, `{"pane_id":"%0","text":"\u0000"}`,
		`{"pane_id":"%0","timeout":null}`, `{"pane_id":"%0","patterns":[null]}`, `null`, `"x"`, `{"pane_id":1e999}`,
		`{"pane_id":"%0","keys":["Enter"],"env":null}`, `{"pane_id":"%0","max_lines":1.5}`,
	} {
		for i := range schema.Tools() {
			f.Add(uint8(i), []byte(s))
		}
	}
	tools := schema.Tools()
	fac := noTmux(f)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		tool := tools[int(which)%len(tools)]
		_, err := callTool(context.Background(), fac, tool.Name, data)
		if err == nil {
			return // cannot happen without tmux, but is not a bug
		}
		var ve *schema.ValidationError
		if schema.ValidateInput(tool, data) == nil {
			// valid input must get past decoding: the run function, not
			// the decoder, is what fails (no tmux, or its own checks).
			// The exception: a number the Go type cannot hold (1e700, an
			// integer beyond int64) is a usage error naming the field.
			if code, _ := codeOf(err); strings.Contains(err.Error(), "cannot unmarshal number") && code == panectltool.ExitUsage {
				return
			}
			// And bytes that are not UTF-8: JSON text must be UTF-8, the
			// schema check reads them as U+FFFD, the call refuses them.
			if !utf8.Valid(data) && strings.Contains(err.Error(), "not UTF-8") {
				return
			}
			if strings.Contains(err.Error(), "invalid input") || errors.As(err, &ve) {
				t.Fatalf("%s: input %q validates against the schema but was rejected: %v", tool.Name, data, err)
			}
		}
	})
}

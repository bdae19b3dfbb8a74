package cmd

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newCallCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "call TOOL JSON|-",
		Short: "Call a tool with JSON input (validated against its input schema) and print its JSON output",
		Long: `Call a tool by its name (see: panectl schema) with a JSON object as input,
given as an argument or, with -, on stdin. The input is validated against the
tool's input schema first: an unknown field, a wrong type or an out-of-range
value exits 2 naming the field. The output is exactly one JSON object (the
tool's output schema); errors are JSON on stderr. The exit code is the one the
CLI command would give (124 for a wait that timed out, and so on).`,
		Example: `  panectl call wait_for_text '{"pane_id":"%1","patterns":"\\$ $","regex":true,"timeout":10}'
  echo '{"pane_id":"%1","text":"make","submit":true}' | panectl call send_text -`,
		Args: cobra.ExactArgs(2),
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return toolNames(), cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			f.JSON = true // call speaks JSON: its errors are JSON on stderr too
			raw := []byte(args[1])
			if args[1] == "-" {
				b, err := io.ReadAll(io.LimitReader(f.IO.In, schema.MaxCallInput+1))
				if err != nil {
					return err
				}
				if len(b) > schema.MaxCallInput {
					return tool.Usagef("input is larger than %d bytes", schema.MaxCallInput)
				}
				raw = b
			}
			if len(bytes.TrimSpace(raw)) == 0 {
				return tool.Usagef("empty input: give a JSON object, e.g. '{}' or '{\"pane_id\":\"%%1\"}' (see: panectl schema %s --input)", args[0])
			}
			out, err := callTool(c.Context(), f, args[0], raw)
			if out == nil {
				return err
			}
			if perr := f.emit(out, nil); perr != nil {
				return perr
			}
			return err
		},
	}
}

// toolNames lists the tools callable by name.
func toolNames() []string {
	var names []string
	for _, t := range schema.Tools() {
		names = append(names, t.Name)
	}
	return names
}

// callTool runs a tool by name on JSON input (tool.Caller.Call), on
// the command's tool environment. It returns the output value and the
// error the CLI would exit with. It is shared by `panectl call` and
// `panectl mcp`.
func callTool(ctx context.Context, f *Factory, name string, raw []byte) (any, error) {
	t, err := tool.Lookup(name)
	if err != nil {
		return nil, err
	}
	return t.Call(ctx, &f.Env, raw)
}

// forCall is a Factory for one tool call of a long-lived process (mcp):
// the same server flags and tmux client (one `tmux -V`, shared kept
// control clients), no terminal streams.
func (f *Factory) forCall() *Factory {
	fc := &Factory{IO: IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}, JSON: true}
	fc.Share(&f.Env)
	return fc
}

package cmd

import (
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newSchemaCmd(f *Factory) *cobra.Command {
	var input, output bool
	cmd := &cobra.Command{
		Use:   "schema [TOOL|COMMAND] [--input|--output]",
		Short: "Print the tools' JSON Schemas (MCP tools/list shape), or one tool's input or output schema",
		Long: `Without TOOL, print {"tools":[{name, title, description, inputSchema,
outputSchema, annotations}]}: every tool, in the shape of MCP's tools/list.
With TOOL, print that entry; with --input or --output, that schema alone.
A CLI command names its tool too (wait-for-text is wait_for_text, task wait is
wait_task): its --json output validates against schema COMMAND --output.
Schemas are JSON Schema draft 2020-12 and reject unknown fields.`,
		Example: `  panectl schema | jq '.tools[].name'
  panectl schema wait_for_text --input
  panectl schema wait-for-text --output
  panectl schema task wait --output`,
		Args: cobra.MaximumNArgs(2),
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return toolNames(), cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			if input && output {
				return tool.Usagef("give --input or --output, not both")
			}
			if len(args) == 0 {
				if input || output {
					return tool.Usagef("--input and --output need a TOOL")
				}
				var doc struct {
					Tools []*mcp.Tool `json:"tools"`
				}
				for _, t := range schema.Tools() {
					mt, err := mcpTool(t)
					if err != nil {
						return err
					}
					doc.Tools = append(doc.Tools, mt)
				}
				return printJSON(f, doc)
			}
			t, err := lookupToolOrCommand(strings.Join(args, " "))
			if err != nil {
				return err
			}
			mt, err := mcpTool(t)
			if err != nil {
				return err
			}
			switch {
			case input:
				return printJSON(f, mt.InputSchema)
			case output:
				return printJSON(f, mt.OutputSchema)
			}
			return printJSON(f, mt)
		},
	}
	cmd.Flags().BoolVar(&input, "input", false, "print the input schema alone")
	cmd.Flags().BoolVar(&output, "output", false, "print the output schema alone")
	return cmd
}

// printJSON prints one indented JSON document (schemas are JSON with or
// without --json).
func printJSON(f *Factory, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = f.IO.Out.Write(append(b, '\n'))
	return err
}

// mcpTool describes a tool as MCP's tools/list does: the one shape of
// `panectl schema` and `panectl mcp`.
func mcpTool(t schema.Tool) (*mcp.Tool, error) {
	s, err := schema.SchemasOf(t)
	if err != nil {
		return nil, err
	}
	a := t.Annotations
	return &mcp.Tool{
		Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: s.Input, OutputSchema: s.Output,
		Annotations: &mcp.ToolAnnotations{
			Title:           t.Title,
			ReadOnlyHint:    a.ReadOnly,
			DestructiveHint: new(a.Destructive),
			IdempotentHint:  a.Idempotent,
			OpenWorldHint:   new(a.OpenWorld),
		},
	}, nil
}

// lookupToolOrCommand finds a tool by its name (wait_for_text) or by the
// CLI command that runs it (wait-for-text, task wait).
func lookupToolOrCommand(name string) (schema.Tool, error) {
	if t, ok := schema.Lookup(name); ok {
		return t, nil
	}
	var cmds []string
	for _, t := range schema.Tools() {
		if t.CLI == name {
			return t, nil
		}
		if t.CLI != "" {
			cmds = append(cmds, t.CLI)
		}
	}
	return schema.Tool{}, tool.Usagef("unknown tool or command %q; tools: %s; commands: %s", name, strings.Join(toolNames(), ", "), strings.Join(cmds, ", "))
}

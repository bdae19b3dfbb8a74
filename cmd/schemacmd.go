package cmd

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newSchemaCmd(f *Factory) *cobra.Command {
	var input, output bool
	cmd := &cobra.Command{
		Use:   "schema [TOOL] [--input|--output]",
		Short: "Print the tools' JSON Schemas (MCP tools/list shape), or one tool's input or output schema",
		Long: `Without TOOL, print {"tools":[{name, title, description, inputSchema,
outputSchema, annotations}]}: every tool, in the shape of MCP's tools/list.
With TOOL, print that entry; with --input or --output, that schema alone.
Schemas are JSON Schema draft 2020-12 and reject unknown fields.`,
		Example: `  panectl schema | jq '.tools[].name'
  panectl schema wait_for_text --input`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return toolNames(), cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			if input && output {
				return usageErrorf("give --input or --output, not both")
			}
			if len(args) == 0 {
				if input || output {
					return usageErrorf("--input and --output need a TOOL")
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
			t, err := lookupTool(args[0])
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

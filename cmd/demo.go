package cmd

import (
	"context"
	"fmt"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newDemoCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Run the main job on a private tmux server and print the JSON result",
		Long: `demo starts a private tmux server (its own socket in a temporary directory),
opens a shell pane, types a command, waits for the command's output while
discounting the echo of the typed line, prints the JSON result, and removes
the server and its socket. Exit 0 when the wait matched.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			out, err := runDemo(c.Context(), f)
			if err != nil {
				return err
			}
			f.JSON = true // the demo's result is always the JSON object
			if err := f.emit(out, nil); err != nil {
				return err
			}
			return tool.OutcomeExit(out.Outcome)
		},
	}
}

func runDemo(ctx context.Context, f *Factory) (schema.DemoOutput, error) {
	out, paneID, err := tool.Demo(ctx)
	if err == nil && !f.JSON {
		fmt.Fprintf(f.IO.ErrOut, "demo: typed %q into %s; the wait %s after %.2fs\n", out.Command, paneID, out.Wait.Outcome, out.Wait.Seconds)
	}
	return out, err
}

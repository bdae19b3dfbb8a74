package cmd

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newWatchCmd(f *Factory) *cobra.Command {
	var in schema.WatchInput
	cmd := &cobra.Command{
		Use:   "watch PANE --format acp|events",
		Short: "Stream a pane as ACP terminal updates or panectl events (JSON Lines) until it exits",
		Long: `Stream a pane's state as JSON Lines until the pane's process exits.
--format acp prints ACP v2 session/update notifications: a terminal_update
with the full state, terminal_output_chunk for new bytes, patches, and a
last terminal_update with exitStatus. --format events prints the same
stream as panectl's own events (snapshot, output, cwd, size, command,
exit).

To read the exit status, watch sets remain-on-exit on the pane while it
runs, and puts the pane's settings back however it ends. --timeout N ends
the watch with exit 124; 0 looks once. Ctrl-C is exit 130. watch is not a
tool of call or mcp: it streams.

See: panectl help watch`,
		Example: `  panectl watch %1 --format acp --session-id sess_1
  panectl watch %1 --format events --timeout 60 | jq -c 'select(.type != "output")'`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID = args[0]
			return runWatch(c.Context(), f, in)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&in.Format, "format", "", "acp or events (required)")
	fl.StringVar(&in.SessionID, "session-id", "", "ACP sessionId (default: the pane's session id)")
	fl.StringVar(&in.TerminalID, "terminal-id", "", "ACP terminalId (default: the pane id)")
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", "stop after this many seconds (exit 124); 0: look once; default: until the pane's process exits")
	return cmd
}

// runWatch streams the pane to stdout. It returns after the exit update
// (nil), or with the context's error (timeout: 124, interrupt: 130).
func runWatch(ctx context.Context, f *Factory, in schema.WatchInput) error {
	enc := json.NewEncoder(f.IO.Out)
	enc.SetEscapeHTML(false)
	res, err := tool.Watch(ctx, &f.Env, in, func(v any) error { return enc.Encode(v) })
	if res.Note != "" {
		fmt.Fprintf(f.IO.ErrOut, "note: %s\n", res.Note)
	}
	if res.TimedOut {
		fmt.Fprintf(f.IO.ErrOut, "timeout: the pane's process did not exit within %gs\n", *in.Timeout)
		return &tool.ExitError{Code: tool.ExitTimeout, Msg: "timed out"}
	}
	return err
}

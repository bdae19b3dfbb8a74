package cmd

import (
	"encoding/json"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newEventsCmd(f *Factory) *cobra.Command {
	var in schema.EventsInput
	cmd := &cobra.Command{
		Use:   "events [--pane P]... [--session S]",
		Short: "Print one JSON line per change on the server: panes created and closed, states, tasks, exits",
		Long: `Follow every pane of the server (or those --pane and --session pick) and
print one JSON line per change: pane_created, pane_closed, state_changed
(from, to, recognizer, evidence), task_ended (its completion frame) and
pane_exited (exit_status, for a pane kept by remain-on-exit). A state
changes once it settled as wait-for-turn settles it: awaiting_input after
--quiet-ms of quiet, a dialog after 0.4 s, busy once confirmed.

It runs until Ctrl-C (exit 130), --timeout (exit 124) or the server's end
(exit 4). events is not a tool of call or mcp: it streams.

See: panectl help supervise`,
		Example: `  panectl events
  panectl events --session work | jq -c 'select(.type == "state_changed" and .to == "awaiting_approval")'`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := explicitQuiet(c, in.QuietMS); err != nil {
				return err
			}
			enc := json.NewEncoder(f.IO.Out)
			enc.SetEscapeHTML(false)
			timedOut, err := tool.Events(c.Context(), &f.Env, in, func(e schema.Event) error { return enc.Encode(e) })
			if timedOut {
				return &tool.ExitError{Code: tool.ExitTimeout, Msg: "timed out"}
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&in.Panes, "pane", nil, "only this pane (repeatable)")
	fl.StringVar(&in.Session, "session", "", "only the panes of this session (exact name or $N)")
	fl.IntVar(&in.QuietMS, "quiet-ms", 0, "quiet window in milliseconds, "+schema.Bound("quiet_ms"))
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", "stop after this many seconds (exit 124); default: until interrupted")
	return cmd
}

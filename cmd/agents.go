package cmd

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/panectl/panectl/cmd/agentsview"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newAgentsCmd(f *Factory) *cobra.Command {
	var in schema.AgentsInput
	var watch bool
	cmd := &cobra.Command{
		Use:   "agents [--all] [--json | --watch]",
		Short: "List the panes whose program a recognizer knows, with state, seconds in it, title, cwd and last line",
		Long: `List every pane of the server whose program a recognizer knows (--all:
every pane) with its recognizer, turn state, seconds in that state, title,
current directory and the screen's last meaningful line. A state is
settled as wait-for-turn settles it, so agents waits up to the quiet window
and 2 s more for every pane to settle; a pane that keeps changing shows its
last look (settled: false in --json).

--json prints the list once. --watch keeps a live table on screen, redrawn
as states change: Up/Down (or k/j) move, Enter switches your tmux client to
the selected pane (switch-client), q or Ctrl-C quits.

See: panectl help supervise`,
		Example: `  panectl agents
  panectl agents --json | jq -r '.agents[] | select(.state == "awaiting_approval") | .pane_id'
  panectl agents --watch`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := explicitQuiet(c, in.QuietMS); err != nil {
				return err
			}
			if watch {
				if f.JSON {
					return tool.Usagef("--watch is a live table for a person: it does not go with --json")
				}
				return runAgentsWatch(c.Context(), f, in)
			}
			out, err := tool.Agents(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) {
				printAgents(w, out.Agents)
				if out.Note != "" {
					fmt.Fprintf(f.IO.ErrOut, "note: %s\n", out.Note)
				}
			})
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&in.All, "all", false, "every pane, not only those a recognizer knows")
	fl.BoolVarP(&watch, "watch", "w", false, "keep a live table on screen (a terminal is needed)")
	fl.StringArrayVar(&in.Panes, "pane", nil, "only this pane (repeatable)")
	fl.StringVar(&in.Session, "session", "", "only the panes of this session (exact name or $N)")
	fl.IntVar(&in.QuietMS, "quiet-ms", 0, "quiet window in milliseconds, "+schema.Bound("quiet_ms"))
	return cmd
}

// printAgents prints the agents as a table for people.
func printAgents(w io.Writer, agents []schema.Agent) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PANE\tSESSION\tRECOGNIZER\tSTATE\tSECS\tTITLE\tCWD\tLAST LINE")
	for _, a := range agents {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.0f\t%s\t%s\t%s\n", a.PaneID, agentsview.Cut(a.SessionName, 20), a.Recognizer, a.State, a.Seconds,
			agentsview.Cut(a.Title, 30), agentsview.Cut(a.CWD, 30), agentsview.Cut(a.Line, 50))
	}
	tw.Flush()
}

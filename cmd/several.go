package cmd

import (
	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// needPanes checks a wait's arguments: a pane at least, unless --session
// or --all-panes names them.
func needPanes(c *cobra.Command, args []string) error {
	if len(args) == 0 && !c.Flags().Changed("session") && !c.Flags().Changed("all-panes") {
		return tool.Usagef("requires a pane arg (e.g. %%1), several, --session NAME or --all-panes")
	}
	return nil
}

// paneArgs fills a wait's panes from its arguments: one pane is the
// one-pane form, more are pane_ids.
func paneArgs(args []string, one *string, p *schema.Panes) {
	switch {
	case len(args) == 1:
		*one = args[0]
	case len(args) > 1:
		p.PaneIDs = args
	}
}

// paneFlags adds the flags of a wait over several panes.
func paneFlags(fl *pflag.FlagSet, p *schema.Panes) {
	fl.StringVar(&p.Session, "session", "", "wait on every live pane of this session (name or $N)")
	fl.BoolVar(&p.AllPanes, "all-panes", false, "wait on every live pane of the server")
	fl.BoolVar(&p.All, "all", false, "wait until every pane has decided, and print each result")
}

// each is the results a wait over several panes prints: every pane's
// with all, else the deciding pane's.
func each[R any](top R, results []R) []R {
	if len(results) > 0 {
		return results
	}
	return []R{top}
}

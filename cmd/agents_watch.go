package cmd

import (
	"context"
	"errors"
	"slices"

	"github.com/panectl/panectl/cmd/agentsview"
	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
)

// runAgentsWatch shows the live table until the person quits, ctx ends or
// the server goes.
func runAgentsWatch(ctx context.Context, f *Factory, in schema.AgentsInput) error {
	if !f.IO.OutTTY {
		return tool.Usagef("--watch draws a live table: stdout must be a terminal (use --json or events for a program)")
	}
	sv, err := tool.Supervise(ctx, &f.Env, in.Panes, in.Session, in.QuietMS, nil)
	if err != nil {
		return err
	}
	vctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { err := sv.Run(vctx); cancel(); done <- err }()
	own := sv.Own()
	rows := func() []schema.Agent {
		// the table's own pane is left out: it shows the others' lines
		return slices.DeleteFunc(sv.Rows(in.All), func(a schema.Agent) bool { return a.PaneID == own })
	}
	src := agentsview.Source{Rows: rows, Updated: sv.Updated(), Switch: sv.Switch}
	err = agentsview.Run(vctx, src, f.IO.In, f.IO.Out)
	cancel()
	if runErr := <-done; runErr != nil {
		return runErr // the server went away
	}
	if ctx.Err() != nil {
		return ctx.Err() // interrupted
	}
	if errors.Is(err, context.Canceled) {
		return nil // the person quit
	}
	return err
}

package cmd

import (
	"context"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
)

func runAgentsWatch(ctx context.Context, f *Factory, in schema.AgentsInput) error {
	return tool.Usagef("--watch is not built yet")
}

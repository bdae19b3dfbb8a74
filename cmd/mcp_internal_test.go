package cmd

import (
	"testing"

	"github.com/panectl/panectl/schema"
)

// Messages over MCP speak in the tool's argument and tool names.
func TestMCPTerms(t *testing.T) {
	for _, c := range []struct {
		tool      schema.Tool
		msg, want string
	}{
		{schema.RunShellCommand, "group them in { ...; } or ( ... ), or pass --allow-multi (allow_multi in JSON) to get",
			"group them in { ...; } or ( ... ), or pass allow_multi to get"},
		{schema.RunShellCommand, "nothing was typed: run again with a longer --timeout", "nothing was typed: run again with a longer timeout"},
		{schema.Capture, "max_lines (--max-lines) 0 is out of range", "max_lines 0 is out of range"},
		{schema.Capture, "no pane %9 on this server; list panes with panectl -L x list", "no pane %9 on this server; list panes with list_panes"},
		{schema.SendText, "look at the pane (panectl screen %1) and call again; panectl task wait t1", "look at the pane (screen %1) and call again; wait_task t1"},
		{schema.SendText, "bash --noediting and --frob stay", "bash --noediting and --frob stay"},
	} {
		if got := mcpTerms(c.tool, c.msg); got != c.want {
			t.Errorf("mcpTerms(%s, %q) = %q, want %q", c.tool.Name, c.msg, got, c.want)
		}
	}
}

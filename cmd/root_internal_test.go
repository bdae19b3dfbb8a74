package cmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Each entry of commands names the command it makes, and a call that names
// a command (after any global flags) builds that command alone, with the
// same help as in the whole tree.
func TestCommandNames(t *testing.T) {
	full := NewRootCmd(NewFactory())
	names := map[string]bool{}
	for _, c := range commands() {
		if got := c.make(NewFactory()).Name(); got != c.name {
			t.Errorf("commands names %q for the command %q", c.name, got)
		}
		names[c.name] = true
	}
	for _, c := range full.Commands() {
		if !names[c.Name()] && c.Name() != "help" && !c.IsAdditionalHelpTopicCommand() {
			t.Errorf("%q is in the tree but not in commands", c.Name())
		}
	}
	helpOf := func(root *cobra.Command, args []string) string {
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatalf("panectl %s: %v", strings.Join(args, " "), err)
		}
		return out.String()
	}
	for _, c := range commands() {
		for _, args := range [][]string{
			{c.name, "--help"},
			{"-L", "x", "--json", "-S", "/y", "-H", "", c.name, "--help"},
			{"--socket-name", "x", "--json", c.name, "--help"},
		} {
			lazy := newRoot(NewFactory(), args)
			if n := len(lazy.Commands()); n > 2 { // the command and help
				t.Errorf("panectl %s built %d commands", strings.Join(args, " "), n)
			}
			if got, want := helpOf(lazy, args), helpOf(NewRootCmd(NewFactory()), args); got != want {
				t.Errorf("panectl %s: help of the one command\n%s\nhelp in the whole tree\n%s", strings.Join(args, " "), got, want)
			}
		}
	}
	// no command named: the whole tree, for help, completion and typos
	for _, args := range [][]string{nil, {"help"}, {"--json"}, {"wait-for-txt"}, {"-L", "version"}, {"__complete", "wa"}} {
		if got, want := len(newRoot(NewFactory(), args).Commands()), len(full.Commands()); got != want {
			t.Errorf("panectl %q built %d commands, want the whole tree's %d", args, got, want)
		}
	}
}

package cmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Commands added to the tree get completion from their Use line and flag
// names alone: a later command with a PANE positional, a --recognizer flag,
// or the task commands' ID.
func TestWireCompletionByUseAndFlagName(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var out bytes.Buffer
	f := &Factory{IO: IOStreams{Out: &out, ErrOut: &out, In: strings.NewReader("")}}
	root := NewRootCmd(f)
	noop := func(*cobra.Command, []string) error { return nil }
	later := &cobra.Command{Use: "wait-for-turn PANE", RunE: noop}
	later.Flags().String("recognizer", "auto", "")
	later.Flags().String("state", "", "")
	task := &cobra.Command{Use: "task"}
	wait := &cobra.Command{Use: "wait ID", RunE: noop}
	task.AddCommand(wait)
	plain := &cobra.Command{Use: "tasks", RunE: noop}
	root.AddCommand(later, task, plain)
	wireCompletion(root, f) // as NewRootCmd does for a completion request

	if later.ValidArgsFunction == nil || wait.ValidArgsFunction == nil {
		t.Fatalf("PANE / task ID positionals got no completion")
	}
	if plain.ValidArgsFunction != nil {
		t.Fatalf("a command without positionals got a completion function")
	}
	root.SetArgs([]string{"__complete", "wait-for-turn", "%1", "--recognizer", ""})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"\nauto\n", "\nclaude\n", "\nshell\n", ":4\n"} {
		if !strings.Contains("\n"+got, want) {
			t.Errorf("--recognizer completion lacks %q:\n%s", want, got)
		}
	}
	out.Reset()
	root.SetArgs([]string{"__complete", "wait-for-turn", "%1", "--state", ""})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "awaiting_approval\n") {
		t.Errorf("--state completion lacks awaiting_approval:\n%s", got)
	}
}

func TestPositionalSlots(t *testing.T) {
	for _, tc := range []struct {
		use      string
		n        int
		variadic bool
		ok       bool
	}{
		{"send-text PANE [TEXT]", 2, false, true},
		{"send-keys PANE KEY...", 2, true, true},
		{"wait-for-text PANE --pattern P [--pattern P2...]", 1, false, true},
		{"wait-for-turn PANE... | --session NAME | --all-panes", 1, true, true},
		{"new [flags] [-- COMMAND [ARG...]]", 1, false, false},
		{"list", 0, false, false},
	} {
		s, ok := positionalSlots(&cobra.Command{Use: tc.use})
		if len(s.comps) != tc.n || s.variadic != tc.variadic || ok != tc.ok {
			t.Errorf("%q: %d slots variadic=%v ok=%v; want %d %v %v", tc.use, len(s.comps), s.variadic, ok, tc.n, tc.variadic, tc.ok)
		}
	}
}

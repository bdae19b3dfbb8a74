package cmd

import (
	"errors"
	"slices"
	"testing"

	"github.com/spf13/cobra"
)

// forwardedOf parses argv as panectl would and returns what -H sends.
func forwardedOf(t *testing.T, argv ...string) []string {
	t.Helper()
	root := NewRootCmd(&Factory{})
	var got []string
	stop := errors.New("stop")
	root.PersistentPreRunE = func(c *cobra.Command, args []string) error {
		got = forwardedArgs(c, args)
		return stop
	}
	root.SetArgs(argv)
	if err := root.Execute(); !errors.Is(err, stop) {
		t.Fatalf("panectl %q: %v", argv, err)
	}
	return got
}

func TestForwardedArgs(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"-H", "box", "list"}, []string{"list"}},
		{[]string{"wait-for-text", "%1", "--pattern", "-H", "-Hbox", "-p", "a b", "--timeout", "500ms"},
			[]string{"wait-for-text", "--pattern=-H", "--pattern=a b", "--timeout=0.5", "%1"}},
		{[]string{"--host=box", "--json", "new", "-e", "A=1", "--", "sh", "-c", "echo -H"},
			[]string{"new", "--env=A=1", "--json=true", "--", "sh", "-c", "echo -H"}},
		{[]string{"task", "wait", "--any", "-L", "x", "--host", "b"}, []string{"task", "wait", "--any=true", "--socket-name=x"}},
	} {
		got := forwardedOf(t, tc.in...)
		if !slices.Equal(got, tc.want) {
			t.Errorf("panectl %q forwards %q, want %q", tc.in, got, tc.want)
		}
		// what is forwarded parses to itself
		if again := forwardedOf(t, got...); !slices.Equal(again, got) {
			t.Errorf("%q forwards %q: not a fixed point", got, again)
		}
	}
}

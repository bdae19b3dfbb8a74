package cmd

import (
	"bytes"
	"strings"
	"testing"
)

// TestArgvChecks runs the command tree on argv with no tmux to reach. A
// row's flags and arguments are either refused before tmux starts (exit 2,
// naming what is wrong), or accepted: then the command fails where it
// would start tmux (exit 1). So flag handling is tested without a server.
func TestArgvChecks(t *testing.T) {
	t.Setenv("PANECTL_TMUX", "/nonexistent/panectl-test-tmux")
	const noTmux = "panectl-test-tmux"
	for _, c := range []struct {
		argv []string
		code int
		want string
	}{
		{[]string{"wait-for-text", "%0"}, ExitUsage, "--pattern"},
		{[]string{"wait-for-text", "%0", "-p", "x", "--timeout", "soon"}, ExitUsage, "soon"},
		{[]string{"wait-for-text", "%0", "-p", "x", "--max-lines", "0"}, ExitUsage, "out of range"},
		{[]string{"wait-for-text", "%0", "-p", "x", "--max-lines", "10001"}, ExitUsage, "out of range"},
		{[]string{"wait-for-text", "%0", "-p", "(", "--regex"}, ExitUsage, "pattern"},
		{[]string{"wait-for-text", "%0", "-p", "x", "--timeout", "500ms"}, ExitFailure, noTmux},
		{[]string{"wait-for-text"}, ExitUsage, "arg"},
		{[]string{"wait-quiet", "%0", "--quiet-ms", "10"}, ExitUsage, "out of range"},
		{[]string{"wait-quiet", "%0", "--quiet-ms", "60001"}, ExitUsage, "out of range"},
		{[]string{"wait-quiet", "%0", "--quiet-ms", "50"}, ExitFailure, noTmux},
		{[]string{"capture", "%0", "--max-lines", "10001"}, ExitUsage, "out of range"},
		{[]string{"capture", "%0"}, ExitFailure, noTmux},
		{[]string{"send-ascii", "%0", "300"}, ExitUsage, "300"},
		{[]string{"send-ascii", "%0", "--hex", "zz"}, ExitUsage, "zz"},
		{[]string{"send-ascii", "%0", "3"}, ExitFailure, noTmux},
		{[]string{"new", "--size", "100", "--", "sleep", "1"}, ExitUsage, "size"},
		{[]string{"new", "--env", "NOEQUALS", "--", "sleep", "1"}, ExitUsage, "NOEQUALS"},
		{[]string{"new", "--history-limit", "-1", "--", "sleep", "1"}, ExitUsage, "out of range"},
		{[]string{"run", "%0"}, ExitUsage, "command"},
		{[]string{"run", "%0", "true", "--timeout", "NaN"}, ExitUsage, "NaN"},
		{[]string{"no-such-command"}, ExitUsage, "no-such-command"},
		{[]string{"list", "--bogus"}, ExitUsage, "bogus"},
		{[]string{"list"}, ExitFailure, noTmux},
	} {
		var out, errOut bytes.Buffer
		f := &Factory{IO: IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}}
		root := NewRootCmd(f)
		root.SetArgs(append([]string{"-L", "panectl-test-none"}, c.argv...))
		err := root.Execute()
		f.Close()
		code, _ := codeOf(err)
		if err == nil || code != c.code || !strings.Contains(err.Error(), c.want) {
			t.Errorf("panectl %s: exit %d, %v; want exit %d naming %q", strings.Join(c.argv, " "), code, err, c.code, c.want)
		}
	}
}

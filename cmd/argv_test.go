package cmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/panectl/panectl/cmd/tool"
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
		{[]string{"wait-for-text", "%0"}, tool.ExitUsage, "--pattern"},
		{[]string{"wait-for-text", "%0", "-p", "x", "--timeout", "soon"}, tool.ExitUsage, "soon"},
		{[]string{"wait-for-text", "%0", "-p", "x", "--max-lines", "0"}, tool.ExitUsage, "out of range"},
		{[]string{"wait-for-text", "%0", "-p", "x", "--max-lines", "10001"}, tool.ExitUsage, "out of range"},
		{[]string{"wait-for-text", "%0", "-p", "(", "--regex"}, tool.ExitUsage, "pattern"},
		{[]string{"wait-for-text", "%0", "-p", "x", "--timeout", "500ms"}, tool.ExitFailure, noTmux},
		{[]string{"wait-for-text"}, tool.ExitUsage, "arg"},
		{[]string{"wait-for-text", "%0", "%1"}, tool.ExitUsage, "--pattern"},
		{[]string{"wait-for-text", "%0", "%1", "-p", "x", "--cursor", "bogus"}, tool.ExitUsage, "bogus"},
		{[]string{"wait-for-turn", "%0", "%1", "--state", "bogus"}, tool.ExitUsage, "bogus"},
		{[]string{"wait-for-turn", "%0", "--state", "bogus"}, tool.ExitUsage, "bogus"},
		{[]string{"wait-for-turn", "--all"}, tool.ExitUsage, "arg"},
		{[]string{"wait-for-turn", "%0", "%1", "--state", "busy"}, tool.ExitFailure, noTmux},
		{[]string{"wait-quiet", "%0", "--session", "s"}, tool.ExitUsage, "one way"},
		{[]string{"wait-quiet", "%0", "%1", "--quiet-ms", "10"}, tool.ExitUsage, "out of range"},
		{[]string{"wait-quiet", "--all-panes"}, tool.ExitFailure, noTmux},
		{[]string{"wait-quiet", "%0", "--quiet-ms", "10"}, tool.ExitUsage, "out of range"},
		{[]string{"wait-quiet", "%0", "--quiet-ms", "60001"}, tool.ExitUsage, "out of range"},
		{[]string{"wait-quiet", "%0", "--quiet-ms", "50"}, tool.ExitFailure, noTmux},
		{[]string{"capture", "%0", "--max-lines", "10001"}, tool.ExitUsage, "out of range"},
		{[]string{"capture", "%0"}, tool.ExitFailure, noTmux},
		{[]string{"send-ascii", "%0", "300"}, tool.ExitUsage, "300"},
		{[]string{"send-ascii", "%0", "--hex", "zz"}, tool.ExitUsage, "zz"},
		{[]string{"send-ascii", "%0", "3"}, tool.ExitFailure, noTmux},
		{[]string{"new", "--size", "100", "--", "sleep", "1"}, tool.ExitUsage, "size"},
		{[]string{"new", "--env", "NOEQUALS", "--", "sleep", "1"}, tool.ExitUsage, "NOEQUALS"},
		{[]string{"new", "--history-limit", "-1", "--", "sleep", "1"}, tool.ExitUsage, "out of range"},
		{[]string{"run", "%0"}, tool.ExitUsage, "command"},
		{[]string{"run", "%0", "true", "--timeout", "NaN"}, tool.ExitUsage, "NaN"},
		{[]string{"no-such-command"}, tool.ExitUsage, "no-such-command"},
		{[]string{"list", "--bogus"}, tool.ExitUsage, "bogus"},
		{[]string{"list"}, tool.ExitFailure, noTmux},
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

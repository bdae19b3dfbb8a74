package cmd

import (
	"bytes"
	"strings"
	"testing"
)

// Flag and argument errors speak the user's terms: no Go strconv text, the
// way to the command's help, and the usage line of a command given too few
// arguments.
func TestFlagAndArgErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"capture", "%0", "--max-lines", "abc"}, `invalid value "abc" for --max-lines: want a whole number`},
		{[]string{"capture", "%0", "--bogus"}, "unknown flag: --bogus (see: panectl capture --help)"},
		{[]string{"capture"}, "(usage: panectl capture PANE [flags])"},
	} {
		var out, errOut bytes.Buffer
		f := &Factory{IO: IOStreams{Out: &out, ErrOut: &errOut, In: strings.NewReader("")}}
		root := NewRootCmd(f)
		root.SetArgs(tc.args)
		err := root.Execute()
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "strconv") {
			t.Errorf("%v: error %v, want it to contain %q", tc.args, err, tc.want)
		}
	}
}

package proc

import "testing"

func TestForegroundCommand(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"bash", []string{"bash", "--norc", "--noprofile"}, "bash"},
		{"bash", []string{"bash", "work.sh"}, "work.sh"},
		{"bash", []string{"/bin/bash", "-e", "./scripts/build.sh", "x"}, "build.sh"},
		{"sh", []string{"sh", "-c", "sleep 1; echo"}, "sh -c"},
		{"zsh", []string{"-zsh"}, "zsh"},
		{"fish", []string{"fish", "--no-config"}, "fish"},
		{"python3", []string{"python3", "x.py"}, "python3"},
		{"bash", nil, "bash"},
		{"bash", []string{"bash", "--noprofile", "--rcfile", "/w/rc", "-i"}, "bash"},
		{"bash", []string{"bash", "-o", "vi", "x.sh"}, "x.sh"},
		{"fish", []string{"fish", "-C", "set x 1"}, "fish"},
		{"node", []string{"bash", "x.sh"}, "node"},
	} {
		if got := ForegroundCommand(tc.cmd, tc.args); got != tc.want {
			t.Errorf("ForegroundCommand(%q, %q) = %q, want %q", tc.cmd, tc.args, got, tc.want)
		}
	}
}

func TestWaitsForInput(t *testing.T) {
	for wchan, want := range map[string]bool{
		"poll_schedule_timeout.constprop.0": true,  // vim, python's REPL
		"do_select":                         true,  // less
		"wait_woken":                        true,  // cat reading the terminal
		"n_tty_read":                        true,  //
		"ep_poll":                           true,  // an event loop
		"hrtimer_nanosleep":                 false, // sleep
		"do_wait":                           false, // a shell waiting for its child
		"0":                                 false, // running
		"":                                  false,
	} {
		if got := waitsForInput(wchan); got != want {
			t.Errorf("waitsForInput(%q) = %v, want %v", wchan, got, want)
		}
	}
}

func TestProgramName(t *testing.T) {
	for arg0, want := range map[string]string{
		"python3":               "python3",
		"/usr/bin/python3":      "python3",
		"-bash":                 "bash",
		"node --inspect":        "node",
		"/opt/x y/bin/tool":     "x",
		"claude":                "claude",
		"":                      "",
		"/usr/local/bin/codex/": "/usr/local/bin/codex/",
	} {
		if got := programName(arg0); got != want {
			t.Errorf("programName(%q) = %q, want %q", arg0, got, want)
		}
	}
}

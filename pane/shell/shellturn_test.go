package shell

import (
	"strings"
	"testing"

	"github.com/panectl/panectl/pane/proc"
)

func TestJudgeShell(t *testing.T) {
	raw := proc.TTYMode{Known: true}
	canon := proc.TTYMode{Known: true, Canonical: true}
	readTTY := proc.State{Known: true, State: 'S', Syscall: "read", ReadsTTY: true}
	for _, tc := range []struct {
		name string
		sh   Shell
		args []string
		mode proc.TTYMode
		p    proc.State
		want string
	}{
		{"bash prompt (readline, raw)", ShellBash, []string{"bash"}, raw, proc.State{Known: true, State: 'S', Syscall: "pselect6"}, ShellAtPrompt},
		{"zsh prompt (ZLE, raw)", ShellZsh, []string{"zsh"}, raw, readTTY, ShellAtPrompt},
		{"fish prompt and read (raw)", ShellFish, []string{"fish"}, raw, proc.State{Known: true, State: 'S', Syscall: "poll"}, ShellAtPrompt},
		{"bash loop", ShellBash, []string{"bash"}, canon, proc.State{Known: true, State: 'R', Syscall: "running"}, ShellBusy},
		{"dash loop", ShellPOSIX, []string{"dash"}, canon, proc.State{Known: true, State: 'R'}, ShellBusy},
		{"loop, mode unknown", ShellPOSIX, []string{"dash"}, proc.TTYMode{}, proc.State{Known: true, State: 'R'}, ShellBusy},
		{"bash starting: rc file waits for a command", ShellBash, []string{"bash"}, canon, proc.State{Known: true, State: 'S', Syscall: "wait4"}, ShellBusy},
		{"dash wait builtin", ShellPOSIX, []string{"dash"}, canon, proc.State{Known: true, State: 'S', Syscall: "rt_sigsuspend"}, ShellBusy},
		{"command substitution reads a pipe", ShellPOSIX, []string{"dash"}, canon, proc.State{Known: true, State: 'S', Syscall: "read"}, ShellBusy},
		{"dash prompt", ShellPOSIX, []string{"dash"}, canon, readTTY, ShellAtPrompt},
		{"bash --noediting prompt", ShellBash, []string{"bash", "--noediting"}, canon, readTTY, ShellAtPrompt},
		{"bash read builtin", ShellBash, []string{"bash"}, canon, readTTY, ShellNotAtPrompt},
		{"zsh read builtin", ShellZsh, []string{"zsh", "-f"}, canon, readTTY, ShellNotAtPrompt},
		{"bash canonical, syscall unknown", ShellBash, []string{"bash"}, canon, proc.State{Known: true, State: 'S'}, ShellNotAtPrompt},
		{"dash, syscall unknown: nothing tells", ShellPOSIX, []string{"dash"}, canon, proc.State{Known: true, State: 'S'}, ""},
		{"mode unknown, sleeping: nothing tells", ShellBash, []string{"bash"}, proc.TTYMode{}, readTTY, ""},
		{"nothing readable", ShellBash, []string{"bash"}, proc.TTYMode{}, proc.State{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := JudgeShell(tc.sh, tc.args, string(tc.sh), tc.mode, tc.p)
			if got.Verdict != tc.want {
				t.Fatalf("verdict %q (%s), want %q", got.Verdict, got.Why, tc.want)
			}
			if s := got.String(); tc.want != "" && !strings.HasPrefix(s, tc.want+": ") {
				t.Fatalf("String() = %q, want it to start with %q", s, tc.want+": ")
			}
		})
	}
}

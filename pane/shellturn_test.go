package pane

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestJudgeShell(t *testing.T) {
	raw := TTYMode{Known: true}
	canon := TTYMode{Known: true, Canonical: true}
	readTTY := ProcState{Known: true, State: 'S', Syscall: "read", ReadsTTY: true}
	for _, tc := range []struct {
		name string
		sh   Shell
		args []string
		mode TTYMode
		p    ProcState
		want string
	}{
		{"bash prompt (readline, raw)", ShellBash, []string{"bash"}, raw, ProcState{Known: true, State: 'S', Syscall: "pselect6"}, ShellAtPrompt},
		{"zsh prompt (ZLE, raw)", ShellZsh, []string{"zsh"}, raw, readTTY, ShellAtPrompt},
		{"fish prompt and read (raw)", ShellFish, []string{"fish"}, raw, ProcState{Known: true, State: 'S', Syscall: "poll"}, ShellAtPrompt},
		{"bash loop", ShellBash, []string{"bash"}, canon, ProcState{Known: true, State: 'R', Syscall: "running"}, ShellBusy},
		{"dash loop", ShellPOSIX, []string{"dash"}, canon, ProcState{Known: true, State: 'R'}, ShellBusy},
		{"loop, mode unknown", ShellPOSIX, []string{"dash"}, TTYMode{}, ProcState{Known: true, State: 'R'}, ShellBusy},
		{"bash starting: rc file waits for a command", ShellBash, []string{"bash"}, canon, ProcState{Known: true, State: 'S', Syscall: "wait4"}, ShellBusy},
		{"dash wait builtin", ShellPOSIX, []string{"dash"}, canon, ProcState{Known: true, State: 'S', Syscall: "rt_sigsuspend"}, ShellBusy},
		{"command substitution reads a pipe", ShellPOSIX, []string{"dash"}, canon, ProcState{Known: true, State: 'S', Syscall: "read"}, ShellBusy},
		{"dash prompt", ShellPOSIX, []string{"dash"}, canon, readTTY, ShellAtPrompt},
		{"bash --noediting prompt", ShellBash, []string{"bash", "--noediting"}, canon, readTTY, ShellAtPrompt},
		{"bash read builtin", ShellBash, []string{"bash"}, canon, readTTY, ShellNotAtPrompt},
		{"zsh read builtin", ShellZsh, []string{"zsh", "-f"}, canon, readTTY, ShellNotAtPrompt},
		{"bash canonical, syscall unknown", ShellBash, []string{"bash"}, canon, ProcState{Known: true, State: 'S'}, ShellNotAtPrompt},
		{"dash, syscall unknown: nothing tells", ShellPOSIX, []string{"dash"}, canon, ProcState{Known: true, State: 'S'}, ""},
		{"mode unknown, sleeping: nothing tells", ShellBash, []string{"bash"}, TTYMode{}, readTTY, ""},
		{"nothing readable", ShellBash, []string{"bash"}, TTYMode{}, ProcState{}, ""},
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

func TestParseSyscall(t *testing.T) {
	if syscallName(0) == "" {
		t.Skip("no system call table on this platform")
	}
	if name, tty := parseSyscall(os.Getpid(), "running"); name != "running" || tty {
		t.Fatalf("running: got %q %v", name, tty)
	}
	if name, _ := parseSyscall(os.Getpid(), "-1 0x7ffd 0x7f00"); name != "" {
		t.Fatalf("-1: got %q, want unknown", name)
	}
	if name, _ := parseSyscall(os.Getpid(), ""); name != "" {
		t.Fatalf("empty: got %q", name)
	}
	// a read of a pipe is not a read of the terminal
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	var nr int
	for n := 0; n < 512; n++ {
		if syscallName(n) == "read" {
			nr = n
			break
		}
	}
	line := strings.Join([]string{itoaTest(nr), "0x" + hexTest(int(r.Fd())), "0x0", "0x10"}, " ")
	if name, tty := parseSyscall(os.Getpid(), line); name != "read" || tty {
		t.Fatalf("read of a pipe: got %q %v, want read, not the terminal", name, tty)
	}
}

func itoaTest(n int) string { return strconv.Itoa(n) }
func hexTest(n int) string  { return strconv.FormatInt(int64(n), 16) }

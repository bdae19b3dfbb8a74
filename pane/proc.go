package pane

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ForegroundArgs returns the argv of the foreground process of the pane's
// terminal, best effort: on Linux it reads the terminal's foreground process
// group from /proc/PANE_PID/stat (tpgid) and that leader's
// /proc/PID/cmdline. Anywhere else, or when the process is gone, nil. The
// recognizers use it to look through node/bun wrappers.
func ForegroundArgs(panePID int) []string {
	if panePID <= 0 {
		return nil
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", panePID))
	if err != nil {
		return nil
	}
	// the command name (field 2) is in parentheses and may hold spaces
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	f := strings.Fields(s[i+1:])
	// after ")": state ppid pgrp session tty_nr tpgid ...
	if len(f) < 6 {
		return nil
	}
	tpgid, err := strconv.Atoi(f[5])
	if err != nil || tpgid <= 0 {
		return nil
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", tpgid))
	if err != nil || len(cmdline) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
}

// shells are the interpreters whose own name says nothing about what runs
// in them when they interpret a script.
var shells = map[string]bool{
	"bash": true, "zsh": true, "fish": true, "sh": true, "dash": true, "ksh": true, "mksh": true, "ash": true,
}

// optionWithValue are the shells' options whose value is the next argument:
// bash's --rcfile/--init-file, set -o/+o and shopt -O/+O, zsh's -o, fish's
// -C/--init-command and --features.
var optionWithValue = map[string]bool{
	"--rcfile": true, "--init-file": true, "-o": true, "+o": true, "-O": true, "+O": true,
	"-C": true, "--init-command": true, "--features": true,
}

// ForegroundCommand is the name of what runs in the pane's foreground:
// pane_current_command, except that a shell interpreting a script (argv
// with a script operand, or -c) is named after the script ("work.sh") or
// "sh -c": a shell running a script is busy, not at its prompt, although
// tmux names both after the shell.
func ForegroundCommand(command string, args []string) string {
	if len(args) < 2 {
		return command
	}
	name := strings.TrimPrefix(args[0], "-")
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if !shells[name] || name != strings.TrimPrefix(command, "-") {
		return command
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c":
			return name + " -c"
		case a == "--" || a == "-":
			return command
		case optionWithValue[a]:
			i++ // its value is no script
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
			continue
		default:
			if i := strings.LastIndexByte(a, '/'); i >= 0 {
				a = a[i+1:]
			}
			return a
		}
	}
	return command
}

// ForegroundJob returns the name of the job the pane's shell runs in the
// foreground and is busy with, best effort: when the pane's own process
// (pane_pid) is a shell and the terminal's foreground process group (tpgid,
// from /proc/PANE_PID/stat) is not the shell's own group, the command name
// of that group's leader (/proc/TPGID/comm). "" when the shell is at its
// prompt, the pane runs a program directly, the job's leader is waiting for
// input (asleep in poll, select or a terminal read, /proc/TPGID/wchan: vim,
// less, a REPL, cat), or /proc cannot tell (not Linux, the process is
// gone). The recognizers use it to call a shell running a program nobody
// recognizes busy (sleep, make, a script).
func ForegroundJob(panePID int) string {
	if panePID <= 0 {
		return ""
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", panePID))
	if err != nil {
		return ""
	}
	s := string(stat)
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open {
		return ""
	}
	if !shells[strings.TrimPrefix(s[open+1:close], "-")] {
		return ""
	}
	// after ")": state ppid pgrp session tty_nr tpgid ...
	f := strings.Fields(s[close+1:])
	if len(f) < 6 {
		return ""
	}
	pgrp, err1 := strconv.Atoi(f[2])
	tpgid, err2 := strconv.Atoi(f[5])
	if err1 != nil || err2 != nil || tpgid <= 0 || tpgid == pgrp {
		return ""
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", tpgid))
	if err != nil {
		return ""
	}
	if wchan, err := os.ReadFile(fmt.Sprintf("/proc/%d/wchan", tpgid)); err == nil && waitsForInput(string(wchan)) {
		return ""
	}
	return strings.TrimSpace(string(comm))
}

// waitsForInput reports whether a kernel wait channel (/proc/PID/wchan) is
// where a process sleeps while it waits for input: poll, select, epoll, or a
// terminal read (n_tty_read, wait_woken).
func waitsForInput(wchan string) bool {
	for _, w := range []string{"poll", "select", "n_tty_read", "wait_woken", "tty_read"} {
		if strings.Contains(wchan, w) {
			return true
		}
	}
	return false
}

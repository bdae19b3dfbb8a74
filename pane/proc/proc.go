// Package proc reads what runs in a pane's terminal: the foreground job,
// its command line and its executable from /proc (or ps on other
// systems), the terminal's mode from termios, a process's state, and the
// kernel's verdict on the foreground process group (GroupTurnOf). It looks
// through panectl's task supervisor to the task's own command.
package proc

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/panectl/panectl/tmux"
)

// TaskExecVerb is the hidden command a background task's pane runs:
// panectl's task supervisor (`panectl __task-exec %N DIR -- SHELL -c
// COMMAND`, task.Supervise).
const TaskExecVerb = "__task-exec"

// Foreground is what runs in the foreground of a pane's terminal: the one
// answer to "what program is this pane running" for the recognizers,
// status, watch, list and run's preflight.
//
// A background task's pane runs panectl's supervisor, which gives the
// task's command a pseudo-terminal of its own; the supervisor is the pane's
// foreground process but says nothing about the task. ForegroundOf looks
// through it: everything is then read on the task's own terminal, whose
// session leader (the task's command, recorded by the supervisor in the
// task's "run" file) plays the part pane_pid plays for an ordinary pane. A
// task pane reads as a pane that runs the task's command directly (as `new
// -- SHELL -c COMMAND` would).
type Foreground struct {
	// Name is the foreground program's name as tmux names a pane's
	// current command (pane_current_command: the leading word of the
	// foreground process group leader's argv[0], without a leading "-" or
	// directory). For a task pane it is read from /proc; when /proc cannot
	// tell, tmux's pane_current_command.
	Name string
	// Args is the argv of the foreground process group's leader; nil when
	// /proc cannot tell (not Linux, the process is gone).
	Args []string
	// Job is the job an interactive shell runs in the foreground
	// (foregroundJob), "" when none.
	Job string
	// Task: the pane runs panectl's task supervisor, and the fields above
	// were read on the task's own terminal.
	Task bool
	// PID is the foreground process group's leader (the terminal's tpgid),
	// 0 when /proc cannot tell.
	PID int
	// TTY is the path of the terminal read (pane_tty; for a task pane the
	// task's own terminal, "" when /proc cannot tell).
	TTY string
	// Exe is the path of the executable PID runs (/proc/PID/exe, symbolic
	// links resolved by the kernel): what the program is, whatever its
	// argv[0] says. "" when it cannot be read (another user's process, the
	// process is gone, not Linux: see ExeKnowable).
	Exe string
}

// ExeKnowable is true where panectl reads a process's executable
// (Linux, /proc/PID/exe). Elsewhere Foreground.Exe is always "".
const ExeKnowable = runtime.GOOS == "linux"

// Command is the foreground program's name with a shell interpreting a
// script named after the script (ForegroundCommand): what the recognizers
// and run's preflight compare.
func (f Foreground) Command() string { return ForegroundCommand(f.Name, f.Args) }

// ForegroundOf reads what runs in the foreground of the pane's terminal,
// looking through panectl's task supervisor (see Foreground). Best effort:
// without /proc, Name is pane_current_command and Args nil.
func ForegroundOf(info tmux.PaneInfo) Foreground {
	name, args, leader, task := lookThrough(info)
	pid := foregroundPID(leader)
	fg := Foreground{Name: name, Args: args, Job: foregroundJob(leader), Task: task, PID: pid, TTY: info.TTY, Exe: exeOf(pid)}
	if task {
		fg.TTY = terminalOf(leader)
	}
	return fg
}

// CurrentCommand is ForegroundOf(info).Name without the job: the pane's
// foreground program by name, through a task's supervisor.
func CurrentCommand(info tmux.PaneInfo) string {
	name, _, _, _ := lookThrough(info)
	return name
}

// lookThrough returns the pane's foreground program (name and argv) and the
// process holding its terminal (pane_pid, or a task's command under the
// supervisor).
func lookThrough(info tmux.PaneInfo) (name string, args []string, leader int, task bool) {
	args = foregroundArgs(info.PID)
	cmd := supervisedCommand(info.PID, args)
	if cmd <= 0 {
		return info.Command, args, info.PID, false
	}
	inner := foregroundArgs(cmd)
	if len(inner) == 0 { // gone meanwhile: the task is ending
		return info.Command, args, info.PID, false
	}
	return programName(inner[0]), inner, cmd, true
}

// supervisedCommand returns the pid of the task command run by panectl's
// supervisor when supervisor (the pane's process) is one, with argv its
// argv (as foregroundArgs read it: the supervisor is the pane's foreground
// process); 0 otherwise. The pid comes from the record the supervisor keeps
// (the task directory's "run" file, TaskRun) and counts only while that
// process is the supervisor's child (a recycled pid is not taken).
func supervisedCommand(supervisor int, argv []string) int {
	dir := ""
	for i, a := range argv {
		if a == TaskExecVerb && i+2 < len(argv) {
			dir = argv[i+2]
			break
		}
	}
	if dir == "" || !filepath.IsAbs(dir) {
		return 0
	}
	sup, cmd, ok := TaskRun(dir)
	if !ok || sup != supervisor || cmd <= 0 {
		return 0
	}
	f, ok := procStat(cmd)
	if !ok || len(f) < 2 || f[1] != strconv.Itoa(supervisor) {
		return 0
	}
	return cmd
}

// programName names a process as tmux names a pane's current command: the
// first word of argv[0], without leading blanks or "-" (a login shell),
// and without its directory.
func programName(arg0 string) string {
	s := strings.TrimLeft(arg0, " -")
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		s = s[i+1:]
	}
	return s
}

// procStat reads /proc/PID/stat and returns its fields after the command
// name (which is in parentheses and may hold blanks): state ppid pgrp
// session tty_nr tpgid ...
func procStat(pid int) ([]string, bool) {
	if pid <= 0 {
		return nil, false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, false
	}
	return statFields(string(b))
}

// statFields splits a stat line (/proc/PID/stat) after its command name.
func statFields(s string) ([]string, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, false
	}
	return strings.Fields(s[i+1:]), true
}

// foregroundArgs returns the argv of the foreground process of the
// terminal whose session leader is leader (a pane's pane_pid), best
// effort: on Linux it reads the terminal's foreground process group from
// /proc/LEADER/stat (tpgid) and that group leader's /proc/PID/cmdline.
// Anywhere else, or when the process is gone, nil. The recognizers use it
// to look through node/bun wrappers; ForegroundOf to find panectl's task
// supervisor.
func foregroundArgs(leader int) []string {
	tpgid := foregroundPID(leader)
	if tpgid <= 0 {
		return nil
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", tpgid))
	if err != nil || len(cmdline) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
}

// foregroundPID returns the terminal's foreground process group (tpgid,
// from /proc/LEADER/stat) of the terminal whose session leader is leader;
// 0 when /proc cannot tell.
func foregroundPID(leader int) int {
	f, ok := procStat(leader)
	if !ok || len(f) < 6 {
		return 0
	}
	tpgid, err := strconv.Atoi(f[5])
	if err != nil || tpgid <= 0 {
		return 0
	}
	return tpgid
}

// exeOf returns the path of process pid's executable (/proc/PID/exe),
// "" when it cannot be read. A binary replaced on disk since it started
// (an upgrade) is still named by its path.
func exeOf(pid int) string {
	if pid <= 0 {
		return ""
	}
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(exe, " (deleted)")
}

// terminalOf returns the terminal a process reads (the target of
// /proc/PID/fd/0 when it is a terminal device), "" when /proc cannot tell.
func terminalOf(pid int) string {
	if pid <= 0 {
		return ""
	}
	t, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", pid))
	if err != nil || !isTerminalPath(t) {
		return ""
	}
	return t
}

// isTerminalPath reports whether path names a terminal device.
func isTerminalPath(path string) bool {
	return strings.HasPrefix(path, "/dev/pts/") || strings.HasPrefix(path, "/dev/tty")
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

// foregroundJob returns the name of the job the pane's shell runs in the
// foreground and is busy with, best effort: when the pane's own process
// (pane_pid) is a shell and the terminal's foreground process group (tpgid,
// from /proc/PANE_PID/stat) is not the shell's own group, the command name
// of that group's leader (/proc/TPGID/comm). "" when the shell is at its
// prompt, the pane runs a program directly, the job's leader is waiting for
// input (asleep in poll, select or a terminal read, /proc/TPGID/wchan: vim,
// less, a REPL, cat), or /proc cannot tell (not Linux, the process is
// gone). The recognizers use it to call a shell running a program nobody
// recognizes busy (sleep, make, a script).
func foregroundJob(panePID int) string {
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

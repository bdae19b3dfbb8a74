package pane

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Verdicts of ShellTurn: what the terminal and /proc say about a shell
// that is the foreground program of its terminal. A verdict and its reason
// are written "VERDICT: REASON" (ShellTurn.String), the line the shell
// recognizer's region "shell" matches (recognize/manifests/shell.toml).
const (
	ShellAtPrompt    = "at prompt"     // the shell reads its command line
	ShellBusy        = "busy"          // the shell runs something of its own (a loop, a function, its start-up files)
	ShellNotAtPrompt = "not at prompt" // the shell reads the terminal, but not its command line (a read builtin)
)

// ShellTurn is the verdict on a shell in the foreground of its terminal,
// with what shows it; the zero value says nothing (not a shell, or nothing
// could be read).
type ShellTurn struct {
	Verdict string // ShellAtPrompt, ShellBusy, ShellNotAtPrompt, or "" when nothing tells
	Why     string
}

// String is "VERDICT: WHY", "" for the zero value.
func (t ShellTurn) String() string {
	if t.Verdict == "" {
		return ""
	}
	return t.Verdict + ": " + t.Why
}

// ProcState is what /proc says about a process: its scheduling state and
// the system call it is blocked in (proc(5): /proc/PID/stat, /proc/PID/syscall).
type ProcState struct {
	Known bool // /proc/PID/stat could be read
	// State is the state letter of /proc/PID/stat: R running or runnable,
	// S sleeping, D in uninterruptible sleep, T stopped, ...
	State byte
	// Syscall names the system call the process is blocked in: "read",
	// another name or number, "running" when it is not blocked, "" when
	// unknown (not readable, or an architecture panectl has no table for).
	Syscall string
	// ReadsTTY: blocked in read(2) on a terminal (the fd's target is a
	// terminal device).
	ReadsTTY bool
}

// JudgeShell is the pure part of ShellTurnOf: the verdict on the shell sh
// (started with args, named name in messages) that is the foreground
// process group leader of a terminal in mode, in the state p.
//
//   - A terminal in raw mode: the shell's line editor reads the command
//     line (bash with readline, zsh's ZLE, fish): at its prompt. (fish's
//     read builtin and bash's read -e use the line editor too; the screen
//     rules tell a question or fish's "read> " prompt.)
//   - Running or runnable (state R, or D): busy, a loop, a function or a
//     builtin at work.
//   - Blocked in a system call other than a read of the terminal (wait4
//     for a command substitution, a `wait` for a background job, a pipe,
//     a sleep): busy, the shell is not reading the terminal, so a line
//     typed now is read by nothing until it finishes (a shell still
//     running its start-up files looks like this).
//   - Reading the terminal in canonical mode: for bash and zsh with their
//     line editor on, and fish, this is not their prompt (which they read
//     in raw mode): a read builtin waits for a line, not at prompt. For
//     dash, sh, bash --noediting and zsh +Z, whose prompt is read the same
//     way, it is their prompt (or a read builtin: not told apart).
//   - Mode unknown and not running, or the system call unknown (another
//     architecture than amd64 or arm64): an editor shell in canonical mode
//     is not at its prompt; otherwise nothing tells (zero ShellTurn).
func JudgeShell(sh Shell, args []string, name string, mode TTYMode, p ProcState) ShellTurn {
	editor := sh == ShellFish || editorOn(sh, args)
	switch {
	case mode.Known && !mode.Canonical:
		return ShellTurn{ShellAtPrompt, fmt.Sprintf("the terminal is in raw mode: %s's line editor reads its command line", name)}
	case p.Known && (p.State == 'R' || p.State == 'D'):
		return ShellTurn{ShellBusy, fmt.Sprintf("%s is running (process state %c) with no prompt read: a loop, a function or a builtin of its own at work", name, p.State)}
	case p.Known && p.Syscall != "" && p.Syscall != "running" && !p.ReadsTTY:
		return ShellTurn{ShellBusy, fmt.Sprintf("%s waits in the system call %s, not reading the terminal: a command substitution, a wait for a job, a pipe or its start-up files", name, p.Syscall)}
	case !mode.Known:
		return ShellTurn{}
	case editor && p.ReadsTTY:
		return ShellTurn{ShellNotAtPrompt, fmt.Sprintf("%s reads the terminal in canonical mode, while it reads its prompt with its line editor in raw mode: a builtin (read) waits for a line", name)}
	case editor:
		return ShellTurn{ShellNotAtPrompt, fmt.Sprintf("the terminal is in canonical mode, while %s reads its prompt with its line editor in raw mode: it is starting, or running a builtin", name)}
	case p.ReadsTTY:
		return ShellTurn{ShellAtPrompt, fmt.Sprintf("%s reads the terminal (canonical mode, as at its prompt; its read builtin looks the same)", name)}
	}
	return ShellTurn{}
}

// ShellTurnOf reads the verdict on the pane's foreground program when it
// is an interactive shell (not one interpreting a script), or a subshell
// of one in the foreground (`( while :; do :; done )`): the terminal's mode
// (ReadTTYMode on fg.TTY) and the state of the foreground process group's
// leader (fg.PID) in /proc. The zero ShellTurn when the foreground is not
// such a shell or nothing could be read (no /proc: not Linux).
func ShellTurnOf(fg Foreground) ShellTurn {
	sh, ok := ShellOf(fg.Name)
	if !ok || fg.Command() != fg.Name || fg.PID <= 0 {
		return ShellTurn{}
	}
	mode := TTYMode{}
	if fg.TTY != "" {
		mode, _ = ReadTTYMode(fg.TTY)
	}
	return JudgeShell(sh, fg.Args, fg.Name, mode, readProcState(fg.PID))
}

// readProcState reads /proc/PID/stat and /proc/PID/syscall (readable for a
// process of the same user).
func readProcState(pid int) ProcState {
	f, ok := procStat(pid)
	if !ok || len(f) < 1 || f[0] == "" {
		return ProcState{}
	}
	p := ProcState{Known: true, State: f[0][0]}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/syscall", pid))
	if err != nil {
		return p
	}
	p.Syscall, p.ReadsTTY = parseSyscall(pid, string(b))
	return p
}

// parseSyscall reads a /proc/PID/syscall line: "running", "-1 SP PC"
// (blocked outside a system call), or "NR ARG1 ... SP PC". It names the
// call (syscallName) and reports whether it is read(2) on a terminal.
func parseSyscall(pid int, line string) (name string, readsTTY bool) {
	f := strings.Fields(line)
	switch {
	case len(f) == 0:
		return "", false
	case f[0] == "running":
		return "running", false
	}
	nr, err := strconv.Atoi(f[0])
	if err != nil || nr < 0 {
		return "", false
	}
	name = syscallName(nr)
	if name == "" {
		return "", false // no table for this architecture
	}
	if name != "read" || len(f) < 2 {
		return name, false
	}
	fd, err := strconv.ParseInt(strings.TrimPrefix(f[1], "0x"), 16, 64)
	if err != nil {
		return name, false
	}
	t, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%d", pid, fd))
	return name, err == nil && isTerminalPath(t)
}

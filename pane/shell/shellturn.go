package shell

import (
	"fmt"

	"github.com/panectl/panectl/pane/proc"
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
func JudgeShell(sh Shell, args []string, name string, mode proc.TTYMode, p proc.State) ShellTurn {
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
// is an interactive shell (not one interpreting a script; its executable
// a shell's, Of), or a subshell of one in the foreground (`( while :; do
// :; done )`): the terminal's mode (ReadTTYMode on fg.TTY) and the state of
// the foreground process group's leader (fg.PID) in /proc. The zero
// ShellTurn when the foreground is not such a shell or nothing could be
// read (no /proc: not Linux).
func ShellTurnOf(fg proc.Foreground) ShellTurn {
	sh, ok := Of(fg)
	if !ok || fg.Command() != fg.Name || fg.PID <= 0 {
		return ShellTurn{}
	}
	mode := proc.TTYMode{}
	if fg.TTY != "" {
		mode, _ = proc.ReadTTYMode(fg.TTY)
	}
	return JudgeShell(sh, fg.Args, fg.Name, mode, proc.ReadState(fg.PID))
}

package tmux

import (
	"strings"
)

// How tmux reads an argument vector (tmux 3.3a, cmd-parse.y,
// cmd_parse_from_arguments): the arguments after the tmux binary are split
// into commands at every argument that ENDS in ";". The ";" is removed and
// the command ends there (what is left, if anything, is the command's last
// argument). The one exception: an argument ending in "\;" loses the
// backslash instead and keeps its ";" as data, ending no command. Nothing
// else in an argument is special on this path (quotes, "#", "$", "~",
// braces and backslashes elsewhere are read only by the configuration-file
// and command-string parser, not by the argument-vector one).
//
// So an argument ending in ";" is passed on unchanged by inserting one
// backslash before its final ";": "a;" -> "a\;" (tmux gives "a;"), ";" ->
// "\;" (";"), "b\;" -> "b\\;" (tmux gives "b\;"). Arg does that; every
// argument panectl hands to tmux goes through it (Command and CommandList
// below), so data can never end a command or start a new one.

// Arg returns a in the form tmux's argument-vector parser passes on
// unchanged: a final ";" gets a backslash before it; anything else is
// returned as is.
func Arg(a string) string {
	if strings.HasSuffix(a, ";") {
		return a[:len(a)-1] + `\;`
	}
	return a
}

// FormatLiteral returns s so that tmux's format expansion (tmux(1),
// FORMATS) gives s back: every "#" is doubled ("##" expands to "#"). tmux
// expands formats in some arguments that are data to panectl: new-session
// -s (the session name), the -c start directory of new-session,
// new-window and respawn-pane, and new-window -n. Unescaped, a directory
// or name holding "#(cmd)" would run cmd in a shell, and "#{...}" or "#S"
// would be replaced.
func FormatLiteral(s string) string {
	return strings.ReplaceAll(s, "#", "##")
}

// Command is one tmux command: its name and its arguments, all data (Arg
// is applied to each when the command is run).
type Command []string

// CommandList is tmux commands run back to back by one tmux client, as
// tmux runs "cmd1 ; cmd2" (tmux(1), COMMAND PARSING AND EXECUTION): the
// server runs them in order, reading no pane output in between; a command
// that fails stops the rest. The separators are added when the list is
// turned into an argument vector, never taken from data.
type CommandList []Command

// Add appends one command.
func (l *CommandList) Add(name string, args ...string) {
	*l = append(*l, append(Command{name}, args...))
}

// argv is the list as tmux's arguments: each argument through Arg, the
// commands separated by a ";" argument of their own.
func (l CommandList) argv() []string {
	var out []string
	for i, c := range l {
		if i > 0 {
			out = append(out, ";")
		}
		for _, a := range c {
			out = append(out, Arg(a))
		}
	}
	return out
}

// size is the bytes the list takes on a tmux command line (see maxCommand).
func (l CommandList) size() int {
	n := 0
	for _, a := range l.argv() {
		n += len(a) + 1
	}
	return n
}

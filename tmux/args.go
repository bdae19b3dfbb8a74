package tmux

import (
	"strings"
)

// How tmux reads an argument vector (cmd_parse_from_arguments in tmux 3.3a's
// cmd-parse.y). It splits commands at every argument that ENDS in ";". The ";"
// is removed and the command ends there, with what is left as its last
// argument. One exception: an argument ending in "\;" loses the backslash and
// keeps its ";" as data. Nothing else is special on this path. Quotes, "#",
// "$", "~", braces and other backslashes matter only to the configuration-file
// and command-string parser. So one backslash before a final ";" passes the
// argument on unchanged: "a;" becomes "a\;", ";" becomes "\;", "b\;" becomes
// "b\\;". Arg does that to every argument panectl hands tmux (Command,
// CommandList), so data can never end a command or start one.

// Arg returns a as tmux's argument-vector parser passes it on unchanged: a
// final ";" gets a backslash before it.
func Arg(a string) string {
	if strings.HasSuffix(a, ";") {
		return a[:len(a)-1] + `\;`
	}
	return a
}

// FormatLiteral doubles every "#" in s, so tmux's format expansion (FORMATS)
// gives s back. tmux expands formats in new-session -s, the -c start directory
// of new-session, new-window and respawn-pane, and new-window -n. In such data
// "#(cmd)" would run cmd in a shell, and "#{...}" or "#S" would be replaced.
func FormatLiteral(s string) string {
	return strings.ReplaceAll(s, "#", "##")
}

// Command is one tmux command, name and arguments, all data, put through Arg.
type Command []string

// CommandList is tmux commands one client runs back to back like "cmd1 ; cmd2"
// (tmux(1), COMMAND PARSING AND EXECUTION): in order, no pane output read
// between, a failure stopping the rest. Separators never come from data.
type CommandList []Command

// Add appends one command.
func (l *CommandList) Add(name string, args ...string) {
	*l = append(*l, append(Command{name}, args...))
}

// argv is the list as tmux's arguments, each through Arg, ";" between commands.
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

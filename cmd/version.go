package cmd

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/spf13/cobra"
)

// Set by the release build: -ldflags "-X github.com/panectl/panectl/cmd.version=..."
var (
	version = ""
	commit  = ""
	date    = ""
)

// buildVersion reports the version from ldflags, else from the module's
// build information (go install, go run).
func buildVersion() schema.VersionOutput {
	v := schema.VersionOutput{Version: version, Commit: commit, Date: date, GoVersion: runtime.Version()}
	// goreleaser's placeholders when it had no git information (a snapshot
	// without tags or remote) mean "unknown".
	if v.Commit == "none" {
		v.Commit = ""
	}
	if strings.HasPrefix(v.Date, "0001-01-01") {
		v.Date = ""
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		if v.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && v.Commit == "":
				v.Commit = s.Value
			case s.Key == "vcs.time" && v.Date == "":
				v.Date = s.Value
			}
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	return v
}

func newVersionCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print panectl's version",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			v := buildVersion()
			return f.emit(v, func(w io.Writer) {
				fmt.Fprintf(w, "panectl %s", v.Version)
				if v.Commit != "" {
					fmt.Fprintf(w, " (%.12s)", v.Commit)
				}
				fmt.Fprintf(w, " %s\n", v.GoVersion)
			})
		},
	}
}

// helpTopics are extra `panectl help TOPIC` pages. They have no Run, so
// Cobra lists them under "Additional help topics" and prints only their text
// (`panectl TOPIC` prints it too).
func helpTopics() []*cobra.Command {
	topic := func(name, short, text string) *cobra.Command {
		return &cobra.Command{Use: name, Short: short, Long: text}
	}
	return []*cobra.Command{
		topic("exit-codes", "The exit-code table", exitCodesHelp),
		topic("cursors", "How cursors mark a point in a pane's output", cursorsHelp),
		topic("environment", "Environment variables panectl reads", environmentHelp),
		topic("journals", "Journals: a task's or pane's whole output, kept on disk", journalsHelp),
		topic("tmux-versions", "What differs between the tmux versions panectl supports", tmuxVersionsHelp()),
	}
}

const journalsHelp = `A journal keeps everything a program wrote to its terminal, byte for byte,
whatever the pane's history-limit. Every background task has one (run
--background); a pane made with 'panectl new --journal' has one too.

Who writes it:
  - a task's command runs under panectl's supervisor, which gives it a terminal
    of its own (a pseudo-terminal with the pane's size and settings: isatty is
    true, C-c and resizes reach it) and copies what it writes to the journal
    and to the pane; it knows when the output is complete, so completion frames
    are exact;
  - a journaled pane's program keeps the pane's terminal; tmux's pipe-pane,
    opened in the same tmux command list that makes the pane (so before tmux
    reads its first byte), feeds a 'panectl __journal-write' process.

What reads it:
  - completion frames (task wait, tasks --json, tasks --follow): the preview is
    the tail of the command's own output, tokens are counted on the whole
    stream (up to 128 KiB; above that both counts are omitted);
  - 'panectl task output tN' prints it as written; --compressed prints the
    compressed payload (ANSI removed, carriage-return redraws collapsed, runs
    of identical lines folded);
  - capture, status and wait-for-text on the pane, and cursor: --cursor
    history and the cursors capture and cursor print read the journal
    (lines_dropped 0); other cursors read tmux's rows. A wait on the journal
    discounts the echo of typed input by text only (also after 10 s, while
    the ledger keeps the entry: no row can place it), and looks again 50 ms
    after each change (the writer copies output a moment after tmux reads it).
    Journal lines are the text between newlines as a terminal leaves it on one
    row (escapes removed; CR, backspace, erase-in-line and column moves
    applied); full-screen programs are better read with screen.

Where: one private directory (0700, files 0600) per tmux server. The server
option @panectl_state names it once the first panectl process made it, so all
processes on a server agree. That first process uses $XDG_STATE_HOME/panectl
when XDG_STATE_HOME is set (an absolute path), else ~/.local/state/panectl
(the XDG default), and only when no home directory is known, the directory
next to the tmux socket (SOCKET.panectl); inside it, servers/HOST/ and one
directory per server instance (socket name, pid, start time). A task's
directory tN holds its record (task.json, run, stop, exit) and journal/; the
pane option @panectl_journal of a task or journaled pane points to its
journal.

Bound: a journal keeps the newest 64 MiB, in segments of 8 MiB cut after a
newline. Past that the oldest segment is deleted whole: reads from a cursor
in the deleted part report exactly how many lines went (lines_dropped, with a
note), task output says how many bytes, frames set output_truncated.

Removal: 'panectl kill' of a journaled pane removes its journal. A task's
record and journal outlive its pane (kill tN stops the task and removes the
pane; tasks, task wait and task output still read it) until 'panectl tasks
--prune', which removes every ended task, the journals of panes that are gone,
and the state directories of this machine's tmux servers that no longer run
(their pid is gone). Without a server, tasks --prune removes only those. They
also go, a minute after their last change, whenever panectl makes the state
directory of a new server, so they do not pile up; both look where this
process would make a state directory (XDG_STATE_HOME or HOME as above).
`

const cursorsHelp = `A cursor is an opaque string that marks a point in one pane's output. Every
command that reads or types prints one; pass it back with --cursor to get only
what came after that point. It is self-contained: no daemon, no file, so
separate processes and scripts can pass it around.

Special values: 'screen' (the start of the visible screen) and 'history' (the
oldest retained line).

A cursor stays correct when history grows; when tmux trims the oldest lines
(lines_dropped counts lines after the cursor that were trimmed before they were
read: exact when known, else a lower bound with a note, since tmux keeps no
count of trimmed lines); when history is cleared (reset: true, only what is
there now); when the pane is resized; and across the alternate screen (vim,
less): lines drawn there never appear in later reads of the normal screen.

Once history is at its limit, tmux trims it and keeps no count, so a cursor's
lines can have moved up by any number of trims. A read looks at every place
they can be; when the lines before the cursor repeat in the pane (yes, blank
lines, a prompt pressed again and again), a repetition of them cannot be told
from them: the read says so in its note ("could not be told for certain") and
returns everything the pane holds, which may begin before the cursor. It never
silently returns fewer lines, or repeats some. wait-for-text matches only the
lines of such a read that are certainly new (those after the newest place the
cursor can be). One case is out of reach: history cleared and refilled to at
least its old size with the very lines that were around the cursor, at the
same rows, reads as if nothing had happened; and output that repeats, row for
row, more lines than history holds is indistinguishable from no output.

The line the cursor is on is continued, not repeated: after a cursor taken at
a prompt, the next read starts with the rest of that line.

A program that redraws rows above the cursor's line in place (an inline agent
such as Claude Code or Gemini CLI inserts each turn above its composer box and
redraws the box; a progress line rewritten) is read from the first such row
that changed, delivered whole. On the alternate screen a row is old by its
place in the sequence of rows shown, not by its text: a row that repeats one
already shown (the same answer twice) is new.

A cursor for another pane, for a pane whose process was respawned, or garbage
is rejected with exit 2.
`

// tmuxVersionsHelp is `panectl help tmux-versions`, from the version table
// in package tmux.
func tmuxVersionsHelp() string {
	var notes strings.Builder
	for _, n := range tmux.VersionNotes() {
		col := 0
		for i, w := range strings.Fields(n) {
			switch {
			case i == 0:
				notes.WriteString("  " + w)
				col = 2 + len(w)
			case col+1+len(w) > 78:
				notes.WriteString("\n    " + w)
				col = 4 + len(w)
			default:
				notes.WriteString(" " + w)
				col += 1 + len(w)
			}
		}
		notes.WriteString("\n")
	}
	return "panectl works with every tmux from " + tmux.MinVersion + " on (an older one is refused,\n" +
		"exit 1). Every command behaves the same on each; where a version lacks\n" +
		"something, panectl works around it or says so. What you may see differ:\n\n" +
		notes.String() + "\n" +
		"panectl runs every tmux client with -u, so any locale works (no LANG, LC_ALL=C).\n" +
		"Tested in CI: Debian 12's 3.3a (every test) and Debian 13's 3.5a (the end-to-end\n" +
		"tests); by hand: 3.2a, 3.4, 3.6b, 3.7c and 3.8 (next-3.8) built from tmux's tags.\n"
}

const environmentHelp = `Environment variables panectl reads:

  PANECTL_TMUX     the tmux binary to run (default: tmux on $PATH)
  TMUX             set inside tmux: without -L/-S, panectl talks to that
                   server (the socket path before the first comma)
  TMUX_PANE        set inside tmux: the pane panectl runs in; a wait on that
                   pane draws no progress line (it would be the pane's output)
  TMUX_TMPDIR      where -L NAME sockets live, as for tmux: $TMUX_TMPDIR (or
                   /tmp) then tmux-UID/NAME
  NO_COLOR         when set and not empty, no colour on a terminal (see
                   https://no-color.org); panectl never prints colour or
                   progress when stdout or stderr is not a terminal
  TERM             "dumb": no colour
  XDG_CONFIG_HOME  user recognizer manifests are read from
                   $XDG_CONFIG_HOME/panectl/recognizers/*.toml (default
                   ~/.config/panectl/recognizers; HOME is used to find it)
  XDG_STATE_HOME   journals and task records live in
                   $XDG_STATE_HOME/panectl (default ~/.local/state/panectl;
                   see: panectl help journals)

Shell completion ('panectl completion bash|zsh|fish') completes pane ids from
the server the command line being completed names with -L/-S, else as above.
`

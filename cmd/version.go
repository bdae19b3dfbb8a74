package cmd

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/panectl/panectl/schema"
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
	}
}

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

The line the cursor is on is continued, not repeated: after a cursor taken at
a prompt, the next read starts with the rest of that line.

A cursor for another pane, for a pane whose process was respawned, or garbage
is rejected with exit 2.
`

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

Shell completion ('panectl completion bash|zsh|fish') completes pane ids from
the server the command line being completed names with -L/-S, else as above.
`

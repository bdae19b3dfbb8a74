package cmd

import (
	"embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/panectl/panectl/pane/journal"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/remote"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The manual lives in help/*.txt, one file per `panectl help TOPIC`.
// These files are the one source of the topics. internal/gendocs turns
// them into docs/help/*.md and into man pages.
//
//go:embed help/*.txt
var topicFiles embed.FS

// topics lists the help topics in the order `panectl help` shows them.
var topics = []struct{ name, short string }{
	{"answer", "How answer reads a dialog's options, picks one and checks it"},
	{"arguments", "Servers, pane names, and how arguments reach tmux"},
	{"cursors", "How cursors mark a point in a pane's output"},
	{"deaths", "Panes that die or are respawned, and commands that exit at once"},
	{"echo", "How the echo of typed text is told from output"},
	{"environment", "Environment variables panectl reads"},
	{"exit-codes", "The exit-code table"},
	{"journals", "Journals: a task's or pane's whole output, kept on disk"},
	{"limits", "The bound of every input and every peer"},
	{"remote", "-H: panes on other hosts over ssh, and remote install"},
	{"run", "How run types a command, judges the shell, and ends"},
	{"supervise", "agents and events: following every pane of a server at once"},
	{"tasks", "Background tasks: the supervisor, signals, task wait --any"},
	{"tmux-versions", "What differs between the tmux versions panectl supports"},
	{"turn-state", "How recognize and wait-for-turn judge a program's turn"},
	{"typing", "send-text: submitting, dialogs, the action lock, multi-line text"},
	{"waits", "How waits follow a pane, their deadlines, and kept clients"},
	{"watch", "The watch stream formats, and what watch changes on a pane"},
}

// topicText is the text of one topic file.
func topicText(name string) string {
	if name == "tmux-versions" {
		return tmuxVersionsHelp()
	}
	b, err := topicFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("no help topic file for " + name)
	}
	return topicBounds().Replace(string(b))
}

// topicBounds fills a topic's {NAME} with the bound it names, so a limit
// is written once (package schema). It is built when a topic is shown.
var topicBounds = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer(
		"{max_timeout}", strconv.Itoa(schema.MaxTimeout),
		"{default_timeout}", strconv.Itoa(schema.DefaultTimeout),
		"{max_lines}", strconv.Itoa(schema.MaxLines),
		"{default_max_lines}", strconv.Itoa(schema.DefaultMaxLines),
		"{max_text}", strconv.Itoa(schema.MaxText),
		"{max_call_input}", strconv.Itoa(schema.MaxCallInput),
		"{max_json_depth}", strconv.Itoa(schema.MaxJSONDepth),
		"{max_patterns}", strconv.Itoa(schema.MaxPatterns),
		"{max_pattern_length}", strconv.Itoa(schema.MaxPatternLength),
		"{max_cursor}", strconv.Itoa(schema.MaxCursor),
		"{cursor_store_kib}", strconv.Itoa(schema.CursorStore>>10),
		"{max_wait_panes}", strconv.Itoa(schema.MaxWaitPanes),
		"{max_result_kib}", strconv.Itoa(schema.MaxResultBytes>>10),
		"{max_quoted}", strconv.Itoa(maxQuoted),
		"{max_calls_in_flight}", strconv.Itoa(maxCallsInFlight),
		"{max_control_line_mib}", strconv.Itoa(tmux.MaxControlLine>>20),
		"{max_control_block_mib}", strconv.Itoa(tmux.MaxControlBlock>>20),
		"{journal_mib}", strconv.Itoa(journal.MaxBytes>>20),
		"{max_running_tasks}", strconv.Itoa(task.MaxRunning),
		"{max_ended_tasks}", strconv.Itoa(task.MaxEnded),
		"{daemon_idle_minutes}", strconv.Itoa(int(remote.DaemonIdle.Minutes())),
		"{forward_retry_minutes}", strconv.Itoa(int(remote.ForwardRetry.Minutes())),
		"{remote_answer_seconds}", strconv.Itoa(int(remote.HelloTimeout.Seconds())),
	)
})

// wireHelp adds the help topics (with topics) and the help layout. Examples come before
// usage and flags; the root lists its flags and topics in a few lines.
// `panectl help TOPIC` prints a topic also where a command has its name
// (help run is the manual, run --help the command's summary).
func wireHelp(root *cobra.Command, topics bool) {
	if topics {
		root.AddCommand(helpTopics(root)...)
	}
	root.SetUsageTemplate(usageTemplate)
	strictHelp(root)
	help, _, _ := root.Find([]string{"help"})
	show := help.RunE
	help.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 1 {
			for _, t := range Topics() {
				if t.Name == args[0] {
					_, err := fmt.Fprint(c.OutOrStdout(), t.Text)
					return err
				}
			}
		}
		return show(c, args)
	}
}

// The template's functions are added once: Cobra keeps them in a global
// map, and tests build command trees in parallel.
func init() {
	cobra.AddTemplateFunc("flagList", flagList)
	cobra.AddTemplateFunc("topicNames", topicNames)
}

const usageTemplate = `{{if not .HasParent}}Usage: {{.CommandPath}} COMMAND [flags]
Commands (panectl COMMAND --help for more):{{range .Commands}}{{if (and (or .IsAvailableCommand (eq .Name "help")) (ne .Name "completion"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}

Flags: {{flagList .LocalFlags}}
Shell completion: panectl completion bash|zsh|fish|powershell
Additional help topics (panectl help TOPIC):
{{topicNames}}
{{else}}{{if .HasExample}}Examples:
{{.Example}}

{{end}}Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasAvailableSubCommands}}

Available Commands:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
{{end}}`

// flagList is the root's flags on one line: "-h/--help, --json, ...".
func flagList(fs *pflag.FlagSet) string {
	var parts []string
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + "/" + name
		}
		parts = append(parts, name)
	})
	return strings.Join(parts, ", ")
}

// topicNames lists the help topics as words wrapped at 78 columns.
func topicNames() string {
	var b strings.Builder
	col := 0
	for _, t := range topics {
		switch {
		case col == 0:
			b.WriteString("  " + t.name)
			col = 2 + len(t.name)
		case col+2+len(t.name) > 78:
			b.WriteString(",\n  " + t.name)
			col = 2 + len(t.name)
		default:
			b.WriteString(", " + t.name)
			col += 2 + len(t.name)
		}
	}
	return b.String()
}

// Topic is one `panectl help TOPIC` page.
type Topic struct{ Name, Short, Text string }

// Topics are the help topics, for `panectl help` and internal/gendocs.
func Topics() []Topic {
	var ts []Topic
	for _, t := range topics {
		ts = append(ts, Topic{t.name, t.short, topicText(t.name)})
	}
	return ts
}

// helpTopics are the topics whose name no command has, as commands
// without Run. Cobra lists them as help topics and prints only their text
// (`panectl TOPIC` prints it too).
func helpTopics(root *cobra.Command) []*cobra.Command {
	var cmds []*cobra.Command
	commands := map[string]bool{}
	for _, c := range root.Commands() {
		commands[c.Name()] = true
	}
	for _, t := range topics {
		if commands[t.name] {
			continue // (root.Find would spell-check every miss)
		}
		name := t.name
		c := &cobra.Command{Use: name, Short: t.short}
		// the text is read when asked for: start-up reads no topic
		c.SetHelpFunc(func(c *cobra.Command, _ []string) { fmt.Fprint(c.OutOrStdout(), topicText(name)) })
		cmds = append(cmds, c)
	}
	return cmds
}

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
		"tests); by hand: 3.2a, 3.4, 3.6b, 3.7c and 3.8 (next-3.8) built from tmux's tags.\n" +
		"scripts/test.sh runs every test on the system's tmux, the end-to-end tests\n" +
		"again on Debian 13's 3.5a, and checks that Debian 11's 3.1c is refused. It\n" +
		"builds both from Debian's source packages once and caches them (the first\n" +
		"run takes about a minute more).\n"
}

// Package cmd holds panectl's Cobra commands. Flags fill each tool's input
// type (package schema), and one call runs the tool's body in cmd/tool.
// Output is printed here. Errors map to exit codes in one place
// (exitcode.go), which knows the sentinel errors of the packages below.
// Nothing here calls tmux or the pane packages.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/pane/proc"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// interruptGrace is how long panectl may take to clean up after SIGINT or
// SIGTERM (detach its control client, kill its tmux processes, put back a
// watched pane's options) before it exits 130 regardless. Every wait and
// tmux call ends on the context at once; this is the bound that holds even
// if something does not.
const interruptGrace = 900 * time.Millisecond

// Main runs panectl with os.Args and returns the process exit code, for
// the caller to exit with at once (signals stay routed to Main).
// SIGINT and SIGTERM cancel the command's context: it cleans up and exits
// 130 within interruptGrace (a second signal, or the grace running out,
// exits 130 at once; a control client still attached then dies with
// panectl: the kernel kills it, see tmux.Control).
func Main() int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	// (no signal.Stop: the process exits when Main returns, and Stop waits
	// for the signal loop to go idle, about 0.1 ms here)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	f := NewFactory()
	go func() {
		for range sigs {
			if f.outlivesSignals.Load() {
				continue // the task supervisor handles signals itself
			}
			cancel()
			select {
			case <-sigs:
			case <-time.After(interruptGrace):
			}
			fmt.Fprintln(os.Stderr, "panectl: interrupted")
			os.Exit(tool.ExitInterrupted)
		}
	}()
	f.hostEnv = os.Getenv("PANECTL_HOST")
	return execute(ctx, f, os.Args[1:])
}

// execute runs the command args on f and returns its exit code: Main's
// body, also run by remote-exec for a call from another host.
func execute(ctx context.Context, f *Factory, args []string) int {
	root := newRoot(f, args)
	root.SetArgs(args)
	stopProgress := func() {}
	if f.IO.OutTTY && f.IO.ErrTTY {
		ctx, stopProgress = tool.WithProgress(ctx, f.drawProgress)
	}
	err := root.ExecuteContext(ctx)
	if !f.JSON {
		// an error before flags are parsed (an unknown command) still
		// honours --json
		f.JSON = jsonAsked(args)
	}
	stopProgress()
	f.Close()
	f.clearProgress()
	var outcome *tool.ExitError
	switch {
	case err == nil || ctx.Err() == nil || errors.Is(err, errInterrupted):
	case errors.As(err, &outcome):
		// an outcome (run's interrupted): its result is printed and says
		// so; an outcome is not an error (help exit-codes): exit 130 with
		// nothing on stderr
		err = &tool.ExitError{Code: tool.ExitInterrupted, Msg: "interrupted"}
	default:
		err = errInterrupted
	}
	return f.Fail(err)
}

// topCommand is a top-level command: its name and its maker.
type topCommand struct {
	name string
	make func(*Factory) *cobra.Command
}

// commands are the top-level commands in the order help lists them, each
// with its name (TestCommandNames holds each to its command's). (A func:
// remote-exec's command runs execute, which reads this list.)
func commands() []topCommand {
	return []topCommand{
		{"list", newListCmd}, {"new", newNewCmd}, {"kill", newKillCmd}, {"cursor", newCursorCmd},
		{"send-text", newSendTextCmd}, {"send-keys", newSendKeysCmd}, {"send-ascii", newSendASCIICmd},
		{"capture", newCaptureCmd}, {"wait-for-text", newWaitForTextCmd},
		{"screen", newScreenCmd}, {"status", newStatusCmd}, {"wait-quiet", newWaitQuietCmd},
		{"recognize", newRecognizeCmd}, {"wait-for-turn", newWaitForTurnCmd}, {"answer", newAnswerCmd},
		{"run", newRunCmd}, {"tasks", newTasksCmd}, {"task", newTaskCmd}, {proc.TaskExecVerb, newTaskExecCmd},
		{"__journal-write", newJournalWriteCmd},
		{"version", newVersionCmd}, {"demo", newDemoCmd}, {"schema", newSchemaCmd}, {"call", newCallCmd},
		{"mcp", newMCPCmd}, {"watch", newWatchCmd}, {"agents", newAgentsCmd}, {"events", newEventsCmd},
		{"remote", newRemoteCmd}, {"remote-exec", newRemoteExecCmd},
		{"remote-daemon", func(*Factory) *cobra.Command { return newRemoteDaemonCmd() }},
	}
}

// commandFor returns the maker of the command args name after the global
// flags (pf), nil when they name none (help, completion, a typo: the whole
// tree is built for them). A call then builds one command's flags and
// help, not every command's.
func commandFor(pf *pflag.FlagSet, args []string) func(*Factory) *cobra.Command {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if name, ok := strings.CutPrefix(a, "-"); ok {
			var fl *pflag.Flag
			if long, ok := strings.CutPrefix(name, "-"); ok {
				fl = pf.Lookup(long)
			} else if len(name) == 1 {
				fl = pf.ShorthandLookup(name)
			}
			if fl != nil && fl.NoOptDefVal == "" {
				i++ // the flag's value
			}
			continue
		}
		for _, c := range commands() {
			if c.name == a {
				return c.make
			}
		}
		return nil
	}
	return nil
}

// NewRootCmd builds the whole command tree.
func NewRootCmd(f *Factory) *cobra.Command { return newRoot(f, nil) }

// newRoot builds the root with, when args name a command (commandFor), only
// that command.
func newRoot(f *Factory, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "panectl",
		Short: "Automate real tmux panes: type exactly, read since a cursor, wait without being fooled by echo",
		Long: `panectl automates real tmux panes, named by id (%N). It prints plain lines,
or exactly one JSON object with --json. Exit codes: panectl help exit-codes.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       buildVersion().Version,
	}
	root.SetVersionTemplate("panectl {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.StringVarP(&f.SocketName, "socket-name", "L", "", "tmux socket name (as tmux -L)")
	pf.StringVarP(&f.SocketPath, "socket-path", "S", "", "tmux socket path (as tmux -S)")
	pf.BoolVar(&f.JSON, "json", false, "print one JSON object (errors as JSON on stderr)")
	pf.StringVarP(&f.Host, "host", "H", "", "run on this host over ssh: [user@]host[:port] (default $PANECTL_HOST; see: panectl help remote)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return tool.Usage(flagError(c, err)) })
	root.PersistentPreRunE = func(c *cobra.Command, args []string) error {
		if err := rejectEmptyFlags(c); err != nil {
			return err
		}
		return f.forward(c, args)
	}
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)

	one := commandFor(pf, args)
	if one != nil {
		root.AddCommand(one(f))
	} else {
		for _, c := range commands() {
			root.AddCommand(c.make(f))
		}
	}
	wireHelp(root, one == nil) // (help topics only where help may list them)
	explainArgs(root)
	if completionRequest(os.Args[1:]) {
		wireCompletion(root, f) // after every AddCommand: completion by Use line and flag name
	}
	return root
}

// completionRequest reports whether args ask Cobra for completions. Only
// then is the tree walked for completers: other calls skip the cost.
func completionRequest(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// jsonAsked reports whether args hold --json before a "--".
func jsonAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json", "--json=true":
			return true
		}
	}
	return false
}

// strictHelp makes `panectl help NOSUCH` a usage error (exit 2) where
// Cobra's help command prints the usage and exits 0.
func strictHelp(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	for _, help := range root.Commands() {
		if help.Name() != "help" {
			continue
		}
		show := help.Run
		help.RunE = func(c *cobra.Command, args []string) error {
			if cmd, _, err := root.Find(args); cmd == nil || err != nil {
				return tool.Usagef("unknown help topic %q: see panectl help", strings.Join(args, " "))
			}
			show(c, args)
			return nil
		}
	}
}

// emptyAllowed are the string flags whose empty value means something:
// recognize --file's title and foreground command as the pane had them.
var emptyAllowed = map[string]bool{"title": true, "command": true}

// rejectEmptyFlags refuses a string flag given with an empty value
// (--cursor "", -L ""): "" is not "absent", and taking it for the default
// would hide a script's unset variable (a cursor that was never printed
// would read from the screen instead; -L "" would reach the default
// server).
func rejectEmptyFlags(c *cobra.Command) error {
	var err error
	c.Flags().Visit(func(fl *pflag.Flag) {
		if err == nil && fl.Value.Type() == "string" && fl.Value.String() == "" && !emptyAllowed[fl.Name] {
			name := "--" + fl.Name
			if fl.Shorthand != "" {
				name = "-" + fl.Shorthand + "/" + name
			}
			err = tool.Usagef("%s is empty: give a value, or leave the flag out for its default (an unset variable?)", name)
		}
	})
	return err
}

// badNumber is pflag's error for a flag value that is not a number.
var badNumber = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid argument "(.*)" for "(.*)" flag: strconv\.Parse(Int|Uint|Float): .*$`)
})

// flagError says a flag's error in the user's terms: a value that is not a
// number is named as such, not as Go's strconv error; an unknown flag
// points to the command's help.
func flagError(c *cobra.Command, err error) error {
	if m := badNumber().FindStringSubmatch(err.Error()); m != nil {
		want := "a whole number"
		if m[3] == "Float" {
			want = "a number"
		}
		return fmt.Errorf("invalid value %q for %s: want %s", m[1], m[2], want)
	}
	if strings.HasPrefix(err.Error(), "unknown flag") || strings.HasPrefix(err.Error(), "unknown shorthand flag") {
		return fmt.Errorf("%w (see: %s --help)", err, c.CommandPath())
	}
	return err
}

// explainArgs makes each command's argument-count error show its usage
// line ("accepts 1 arg(s), received 0" alone does not say which).
func explainArgs(c *cobra.Command) {
	if args := c.Args; args != nil {
		c.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return fmt.Errorf("%w (usage: %s)", err, c.UseLine())
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		explainArgs(sub)
	}
}

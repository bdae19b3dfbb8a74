package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newRunCmd(f *Factory) *cobra.Command {
	var in schema.RunInput
	var stdin bool
	cmd := &cobra.Command{
		Use:   "run PANE 'COMMAND' | run PANE --stdin",
		Short: "Run a shell command in a pane's shell; print its output, exit with its status",
		Long: `Type COMMAND into the interactive shell in PANE. Print the command's own
output (no echo, no prompt, no marker text) and exit with its exact status,
as docker exec does. Works in bash, zsh, fish, sh/dash and ksh.

run refuses (exit 3) a pane that is not a shell at its prompt (copy mode, a
dead pane, a REPL, a read, an unfinished command) or that has text on its
input line (--clear-line kills it first). 'a; b' needs --allow-multi. On
timeout C-c is pressed and the shell is waited for. --background runs
COMMAND as a task and prints its id at once (see: panectl help tasks).

Exit: the command's status (an interrupted one's too: 130 after C-c); 2 a
refused statement, parse error or rejected line; 3 refused pane; 124
timeout; 5 the shell exited or was replaced; 130 panectl interrupted.
See: panectl help run`,
		Example: `  panectl run %1 'make test'
  panectl run %1 'false'; echo $?              # 1
  panectl --json run %1 'ls | wc -l' --timeout 5
  panectl run --background %1 'make release'   # prints t7
  panectl task wait t7`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID = args[0]
			switch {
			case stdin && len(args) == 2:
				return tool.Usagef("give COMMAND or --stdin, not both")
			case stdin:
				b, err := f.readStdinText()
				if err != nil {
					return err
				}
				in.Command = strings.TrimSuffix(b, "\n")
			case len(args) == 2:
				in.Command = args[1]
			default:
				return tool.Usagef("no command: give COMMAND or --stdin")
			}
			if err := explicitMaxLines(c, in.MaxLines); err != nil {
				return err
			}
			f.Env.NoCursor = !f.JSON // the plain output has none
			out, err := tool.RunShellCommand.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			if perr := f.emit(out, func(w io.Writer) {
				if in.Background {
					fmt.Fprintln(w, out.TaskID)
					return
				}
				printLines(w, out.Output)
				if out.Outcome != schema.OutcomeCompleted {
					fmt.Fprintf(f.IO.ErrOut, "%s after %.1fs", out.Outcome, out.Seconds)
					if out.Note != "" {
						fmt.Fprintf(f.IO.ErrOut, " (%s)", out.Note)
					}
					fmt.Fprintln(f.IO.ErrOut)
				}
			}); perr != nil {
				return perr
			}
			return tool.RunExit(out)
		},
	}
	fl := cmd.Flags()
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", timeoutHelp()+"; with --background: the task's time limit")
	fl.BoolVar(&in.AllowMulti, "allow-multi", false, "accept several top-level statements (a; b)")
	fl.IntVar(&in.MaxLines, "max-lines", 0, "keep the newest N lines of output, "+schema.Bound("max_lines"))
	fl.BoolVar(&stdin, "stdin", false, "read COMMAND from standard input (a final newline is dropped)")
	fl.BoolVar(&in.Background, "background", false, "run in a new pane of the detached session panectl-tasks; print the task id")
	fl.BoolVar(&in.ClearLine, "clear-line", false, "kill text already on the shell's input line first (else it refuses the run, exit 3)")
	fl.BoolVar(&in.WhenReady, "when-ready", false, "type only once the pane awaits input (its recognizer: quiescent awaiting_input); else type nothing: exit 3 or 124")
	return cmd
}

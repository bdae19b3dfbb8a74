package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newRecognizeCmd(f *Factory) *cobra.Command {
	var in schema.RecognizeInput
	cmd := &cobra.Command{
		Use:   "recognize [PANE] [--recognizer R] [--file SCREEN.txt --title T --command C]",
		Short: "Classify a pane (or a saved screen) now: busy, awaiting_input, awaiting_approval or unknown",
		Long: `Look once at a pane (its stable screen, title and foreground command) and
print the turn state with the evidence: the rule, the region it looked at and
the line that matched. --file classifies a saved screen (capture-pane -p
text: a regular file of at most 1 MiB) instead, with the title and
foreground command it had; its cursor is taken to be at the end of its last
non-empty row. Over call and MCP the saved screen is given as text in the
input's screen field (the server reads no files for a client).

Recognizers: auto (default) picks one from the foreground command, the title
and the screen; or name one: generic, shell, python, node, claude, codex,
gemini, qwen, antigravity (agy), cursor, opencode, copilot, grok, amp, droid,
kimi, pi. Manifests in $XDG_CONFIG_HOME/panectl/recognizers add or replace
recognizers. A state with needs_quiet true is to be trusted only once the
screen has been quiet: wait-for-turn does that.`,
		Example: `  panectl recognize %1
  panectl recognize --file screen.txt --recognizer claude --title '✳ Claude Code' --command claude`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				in.PaneID = args[0]
			}
			out, err := tool.Recognize.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) {
				fmt.Fprintln(w, out.State)
				fmt.Fprintf(f.IO.ErrOut, "recognizer %s", out.Recognizer)
				if out.Evidence.Rule != "" {
					fmt.Fprintf(f.IO.ErrOut, ", rule %s, region %s: %s", out.Evidence.Rule, out.Evidence.Region, out.Evidence.Line)
				}
				fmt.Fprintln(f.IO.ErrOut)
				if len(out.Options) > 0 {
					fmt.Fprintf(f.IO.ErrOut, "options: %s\n", schema.ListOptions(out.Options))
				}
				if out.Note != "" {
					fmt.Fprintf(f.IO.ErrOut, "note: %s\n", out.Note)
				}
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&in.Recognizer, "recognizer", "auto", "recognizer id or alias, or auto")
	fl.StringVar(&in.File, "file", "", "classify a saved screen (capture-pane -p text) instead of a pane")
	fl.StringVar(&in.Title, "title", "", "with --file: the pane title it had")
	fl.StringVar(&in.Command, "command", "", "with --file: the foreground command it had")
	return cmd
}

func newWaitForTurnCmd(f *Factory) *cobra.Command {
	var in schema.WaitForTurnInput
	cmd := &cobra.Command{
		Use:   "wait-for-turn PANE... | --session NAME | --all-panes",
		Short: "Wait until an interactive program (agent, shell, REPL) ends its turn, or is busy",
		Long: `Wait until the program in the pane ends its turn: awaiting_input (once
quiet for --quiet-ms) or awaiting_approval (a dialog that stayed 0.4 s), or
until it is confirmed busy (--wait-through-busy waits through it). A quiet
screen nothing recognizable is on ends as unknown. --state S (repeatable)
ends it only in those states. The recognizer is picked as by recognize.

Exit: 0 only for awaiting_input (so "wait-for-turn P && send-text P ..."
never types into a dialog or a busy program); 3 awaiting_approval, busy or
unknown; 124 timeout; 5 the pane exited or its process was replaced
(respawn-pane); 1 the server stopped answering.

Several panes (ids, --session, --all-panes): the first to decide ends the
wait, busy aside (--all: each). See: panectl help waits, turn-state`,
		Example: `  panectl send-text %1 'fix the tests' --submit; panectl wait-for-turn %1 --wait-through-busy --timeout 600
  panectl wait-for-turn %1 && panectl send-text %1 'next task' --submit
  panectl wait-for-turn --session agents --state awaiting_approval --timeout 600`,
		Args: needPanes,
		RunE: func(c *cobra.Command, args []string) error {
			paneArgs(args, &in.PaneID, &in.Panes)
			if err := explicitQuiet(c, in.QuietMS); err != nil {
				return err
			}
			if c.Flags().Changed("lines") && in.Lines == 0 {
				return tool.Usagef("--lines 0 is out of range: want 1..%d", schema.MaxLines)
			}
			out, err := tool.WaitForTurn.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			if perr := f.emit(out, func(w io.Writer) {
				if in.Several() {
					for _, r := range each(out.WaitForTurnResult, out.Results) {
						fmt.Fprintln(w, r.PaneID, r.State)
					}
				} else {
					fmt.Fprintln(w, out.State)
				}
				if in.Several() {
					fmt.Fprintf(f.IO.ErrOut, "%s: ", out.PaneID)
				}
				fmt.Fprintf(f.IO.ErrOut, "%s after %.1fs (recognizer %s", out.Outcome, out.Seconds, out.Recognizer)
				if out.Evidence.Rule != "" {
					fmt.Fprintf(f.IO.ErrOut, ", rule %s: %s", out.Evidence.Rule, out.Evidence.Line)
				}
				fmt.Fprintln(f.IO.ErrOut, ")")
				if out.Outcome == schema.OutcomeTimeout && len(out.Screen) > 0 {
					fmt.Fprintf(f.IO.ErrOut, "last rows:\n  %s\n", strings.Join(out.Screen[max(0, len(out.Screen)-5):], "\n  "))
				}
			}); perr != nil {
				return perr
			}
			return tool.TurnExit(out)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&in.Recognizer, "recognizer", "auto", "recognizer id or alias, or auto")
	fl.IntVar(&in.QuietMS, "quiet-ms", 0, "quiet window in milliseconds, "+schema.Bound("quiet_ms"))
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", timeoutHelp())
	fl.IntVar(&in.Lines, "lines", 0, "rows of the screen to return, from the bottom, "+schema.Bound("turn_lines"))
	fl.BoolVar(&in.WaitThroughBusy, "wait-through-busy", false, "keep waiting while the program is busy")
	fl.StringArrayVar((*[]string)(&in.States), "state", nil, "end only in this state: busy, awaiting_input, awaiting_approval or unknown (repeatable)")
	paneFlags(fl, &in.Panes)
	return cmd
}

func newAnswerCmd(f *Factory) *cobra.Command {
	var in schema.AnswerInput
	cmd := &cobra.Command{
		Use:   "answer PANE yes|no|always|N",
		Short: "Pick an option of the approval dialog a pane shows, by its text, and verify it went away",
		Long: `Pick an option of the dialog the recognizer sees in the pane (recognize
lists them as options): yes is the first affirmative option that is not an
"always" one, always the option that stops the asking (don't ask again,
always, this session, remember), no the refusing option, N the option with
key N. The highlight is moved with arrow keys until the screen shows it on
the option, then Enter confirms it; then the new state is awaited as by
wait-for-turn and printed. The pane's action lock is held throughout.

Exit: 0 when the dialog went away (the new state is printed); 3 when no
dialog is shown, the choice is not offered (the message lists the options),
no highlight can be seen, or the dialog was still shown after Enter; 124
timeout; 5 the pane exited.

See: panectl help answer`,
		Example: `  panectl answer %1 yes
  panectl recognize --json %1 | jq .options; panectl answer %1 2`,
		Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID, in.Choice = args[0], args[1]
			if err := explicitQuiet(c, in.QuietMS); err != nil {
				return err
			}
			if c.Flags().Changed("lines") && in.Lines == 0 {
				return tool.Usagef("--lines 0 is out of range: want 1..%d", schema.MaxLines)
			}
			out, err := tool.Answer.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			if perr := f.emit(out, func(w io.Writer) {
				fmt.Fprintln(w, out.State)
				fmt.Fprintf(f.IO.ErrOut, "picked %s. %s; %s after %.1fs (recognizer %s", out.Option.Key, out.Option.Text,
					strings.ReplaceAll(string(out.Outcome), "_", " "), out.Seconds, out.Recognizer)
				if out.Evidence.Rule != "" {
					fmt.Fprintf(f.IO.ErrOut, ", rule %s: %s", out.Evidence.Rule, out.Evidence.Line)
				}
				fmt.Fprintln(f.IO.ErrOut, ")")
				if out.Note != "" {
					fmt.Fprintf(f.IO.ErrOut, "note: %s\n", out.Note)
				}
			}); perr != nil {
				return perr
			}
			return tool.Answer.ExitOf(out)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&in.Recognizer, "recognizer", "auto", "recognizer id or alias, or auto")
	fl.IntVar(&in.QuietMS, "quiet-ms", 0, "quiet window in milliseconds for the new state, "+schema.Bound("quiet_ms"))
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", timeoutHelp())
	fl.IntVar(&in.Lines, "lines", 0, "rows of the screen to return, from the bottom, "+schema.Bound("turn_lines"))
	return cmd
}

package cmd

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/waiter"
	"github.com/spf13/cobra"
)

func newRunCmd(f *Factory) *cobra.Command {
	var in schema.RunInput
	var stdin bool
	cmd := &cobra.Command{
		Use:   "run PANE 'COMMAND' | run PANE --stdin",
		Short: "Run a shell command in a pane's shell; print its output, exit with its status",
		Long: `Type COMMAND into the interactive shell in PANE and return the command's own
output (no echo, no prompt, no marker text) and its exact exit status. panectl
exits with the command's status when it completed (as docker exec does).

How: the command is typed wrapped so that the shell prints a begin marker, runs
it (in { ...; }; fish: passed to eval as one quoted string), then prints an end
marker with $? (fish: $status). The typed line spells the marker with an octal
escape (\120ANECTL), the printed one reads PANECTL:<nonce>, so neither the
echo, nor a prompt, nor set -x traces can fake it; output without a final
newline stays exact. Works in bash, zsh, fish, sh/dash and ksh; multi-line
commands and heredocs work.

Preflight: a cold shell is waited for until its prompt is drawn; a pane in copy
mode, a dead pane, or a pane whose foreground program is not a shell at its
prompt (a script waiting in read, a REPL) is refused (exit 3), and so is a
shell in its own read builtin (bash or zsh with the terminal in canonical mode,
a question such as "[y/N]" on the cursor's row, fish's "read> ", dash with the
cursor on an empty row where its prompt is not drawn): answer it with
send-text, or press C-c. An empty prompt (PS1='') is a prompt. Text already on
the shell's input line is refused too (exit 3, naming it): it would run with
the command; --clear-line kills the line first (bash: C-e C-u; zsh: C-x C-k;
fish: C-c; a terminal in canonical mode, as under dash: C-u), and refuses the
run (exit 3) when the line is not empty after it (vi mode). A shell that
throws typed input away gets it again (a probe line tells lost input from a
slow shell; the command never runs twice). --when-ready also waits for the
pane to await input by its recognizer, as send-text --when-ready does.

One action at a time: run holds the pane's action lock (a pane option any
panectl process sees; a crashed holder's lock expires within 5 s), so
concurrent runs and send-text --submit on one pane are served in turn, each
within its own --timeout (exit 124 when the lock never came). A send-text
--submit waiting behind a run whose command ended meanwhile types nothing
(exit 3); to answer a command run is running (its read), use send-text
without --submit and send-keys Enter, which take no lock.

A command too long to type (over 1 KiB on a line, or 8 KiB in all: a
terminal in canonical mode, as under dash, cuts lines at 4095 bytes, and a
line editor redraws the line for every key) is written to a private file
(0600) that the shell sources and that removes itself; note says why for the
pane's shell.

The end however it comes: an interrupt from anyone (C-c pressed in the pane,
SIGINT to the command) brings the shell back to its prompt without the end
marker: outcome interrupted, exit_code the status the shell then reports, exit
130. A command waiting in the shell's read (fish's "read> ", bash's read -p)
is not the shell back at its prompt: it runs until --timeout (124, then C-c).
Lines panectl types for itself (probes) go only to the shell at its prompt
with nothing typed still unread, never to a command's input. A command the shell cannot parse (fish's eval says so before running any
of it; elsewhere a syntax error the parser let through) fails at once with the
shell's message, exit 2; fish has no heredocs and says so before anything is
typed.

One statement: unless --allow-multi, COMMAND must parse (mvdan.cc/sh: bash
syntax for bash, zsh's for zsh (not its short forms such as 'for i (1 2) cmd'),
POSIX for sh/dash, mksh for ksh) as one top-level
statement: 'a; b' is refused (exit 2), 'a && b', pipelines, subshells and
heredocs are one. fish commands are counted by fish's grammar (';', a newline or
a lone '&' separate; &&, ||, | join, also across a line end; a statement
starting with and/or counts with the one before, as 'a; and b' is 'a && b');
fish itself checks the syntax. A control character other than tab and newline
is refused (exit 2) before anything is typed: the terminal acts on it (a CR,
as in Windows line endings, is Enter: what follows would run as another
command; a NUL ends bash's line); have the command make it (printf '\r').

On timeout C-c is pressed and the shell is waited for, so the next run works.

--background runs COMMAND in a new pane of the detached session panectl-tasks
(your windows and focus are untouched) under the same shell as PANE, keeps the
pane after exit, and prints a task id at once; see: panectl tasks, panectl task.
The one-statement rule is for foreground runs: a task is a script whose status
is its last statement's (as sh -c gives), so 'a; b' needs no --allow-multi
there; it must still parse.

Exit: the command's status; 2 refused statement, parse error or a line the
shell rejected; 3 refused pane (or not ready, with --when-ready); 124 timeout
(or the lock, or readiness, not had in time); 5 the shell exited, or was
replaced by respawn-pane (exit_code null: its status is unknown); 130
interrupted.`,
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
				return usageErrorf("give COMMAND or --stdin, not both")
			case stdin:
				b, err := io.ReadAll(io.LimitReader(f.IO.In, maxText+1))
				if err != nil {
					return err
				}
				in.Command = strings.TrimSuffix(string(b), "\n")
			case len(args) == 2:
				in.Command = args[1]
			default:
				return usageErrorf("no command: give COMMAND or --stdin")
			}
			if err := explicitMaxLines(c, in.MaxLines); err != nil {
				return err
			}
			out, err := runRun(c.Context(), f, in)
			if err != nil {
				return err
			}
			if perr := f.emit(out, func(w io.Writer) {
				if in.Background {
					fmt.Fprintln(w, out.TaskID)
					return
				}
				printLines(w, out.Output)
				if out.Outcome != waiter.OutcomeCompleted {
					fmt.Fprintf(f.IO.ErrOut, "%s after %.1fs", out.Outcome, out.Seconds)
					if out.Note != "" {
						fmt.Fprintf(f.IO.ErrOut, " (%s)", out.Note)
					}
					fmt.Fprintln(f.IO.ErrOut)
				}
			}); perr != nil {
				return perr
			}
			return runExit(out)
		},
	}
	fl := cmd.Flags()
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", "seconds (1.5) or a duration (500ms, 2s, 1m); default 30, clamped to [0, 3600]; with --background: the task's time limit")
	fl.BoolVar(&in.AllowMulti, "allow-multi", false, "accept several top-level statements (a; b)")
	fl.IntVar(&in.MaxLines, "max-lines", 0, "keep the newest N lines of output, 1..10000 (default 200)")
	fl.BoolVar(&stdin, "stdin", false, "read COMMAND from standard input (a final newline is dropped)")
	fl.BoolVar(&in.Background, "background", false, "run in a new pane of the detached session panectl-tasks; print the task id")
	fl.BoolVar(&in.ClearLine, "clear-line", false, "kill text already on the shell's input line first (else it refuses the run, exit 3)")
	fl.BoolVar(&in.WhenReady, "when-ready", false, "type only once the pane awaits input (its recognizer: quiescent awaiting_input); else type nothing: exit 3 or 124")
	return cmd
}

// runRecovery is how long run may spend after its timeout pressing C-c
// and waiting for the prompt (waiter.Run), beyond opMargin.
const runRecovery = 5 * time.Second

// runExit is the exit status of a run: the command's own when it completed.
func runExit(out schema.RunOutput) error {
	switch out.Outcome {
	case waiter.OutcomeCompleted:
		if out.ExitCode != nil && *out.ExitCode != 0 {
			return &exitError{code: *out.ExitCode & 0xff, msg: fmt.Sprintf("the command exited with status %d", *out.ExitCode)}
		}
		return nil
	case waiter.OutcomeInterrupted:
		return &exitError{ExitInterrupted, "interrupted"}
	}
	return outcomeExit(out.Outcome)
}

func runRun(ctx context.Context, f *Factory, in schema.RunInput) (schema.RunOutput, error) {
	if in.Command == "" {
		return schema.RunOutput{}, usageErrorf("the command is empty")
	}
	if len(in.Command) > maxText {
		return schema.RunOutput{}, usageErrorf("the command is %d bytes; at most %d (1 MiB)", len(in.Command), maxText)
	}
	n, err := maxLines(in.MaxLines)
	if err != nil {
		return schema.RunOutput{}, err
	}
	if in.Background {
		return runBackground(ctx, f, in)
	}
	if err := shell.CheckTypable(in.Command); err != nil {
		return schema.RunOutput{}, usageErr(err)
	}
	started := time.Now()
	timeout := effectiveTimeout(in.Timeout)
	deadline := started.Add(seconds(timeout))
	ctx, cancel := opContext(ctx, timeout, runRecovery)
	defer cancel()
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.RunOutput{}, err
	}
	if sh, ok := shell.ShellOf(p.Command); ok {
		if _, err := shell.CheckSingle(sh, in.Command, in.AllowMulti); err != nil {
			return schema.RunOutput{}, usageErr(err) // refused before waiting for anything
		}
	}
	keepAttached(ctx, c, p)
	lock, err := pane.AcquireLock(ctx, c, p.ID, "run", deadline)
	if err != nil {
		return schema.RunOutput{}, err
	}
	defer lock.Release(ctx)
	if in.WhenReady {
		set, err := recognizers()
		if err != nil {
			return schema.RunOutput{}, err
		}
		if _, err := waiter.WhenReady(ctx, c, p.ID, waiter.Readiness{Set: set, Recognizer: recognize.AutoID}, deadline); err != nil {
			return schema.RunOutput{}, err
		}
		if p, err = c.Pane(ctx, p.ID); err != nil {
			return schema.RunOutput{}, err
		}
	}
	p, sh, err := waiter.Ready(ctx, c, p, deadline)
	if err != nil {
		return schema.RunOutput{}, err
	}
	if _, err := shell.CheckSingle(sh, in.Command, in.AllowMulti); err != nil {
		return schema.RunOutput{}, usageErr(err)
	}
	r, err := waiter.Run(ctx, c, waiter.RunOptions{Info: p, Shell: sh, Command: in.Command, Deadline: deadline, MaxLines: n, ClearLine: in.ClearLine})
	if err != nil {
		return schema.RunOutput{}, err
	}
	out := schema.RunOutput{
		PaneID: p.ID, Command: in.Command, Output: nonNil(r.Output), Truncated: r.Truncated,
		Seconds: round3(time.Since(started).Seconds()), Cursor: r.Cursor.Encode(), Outcome: r.Outcome,
		Attempts: r.Attempts, Note: r.Note, EffectiveTimeout: &timeout,
	}
	if r.StatusKnown && (r.Outcome == waiter.OutcomeCompleted || r.Outcome == waiter.OutcomeInterrupted) {
		code := r.ExitCode
		out.ExitCode = &code
	}
	return out, nil
}

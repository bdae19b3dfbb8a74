package tool

import (
	"context"
	"fmt"
	"time"

	"github.com/panectl/panectl/pane/lock"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/waiter"
)

// RunExit is the exit status of a run: the command's own when it completed, or when it was
// interrupted and the shell reported a failing status (130 after C-c), as docker exec does. An
// interrupt with no status (panectl itself got SIGINT or SIGTERM) exits 130.
func RunExit(out schema.RunOutput) error {
	switch out.Outcome {
	case schema.OutcomeCompleted:
		if out.ExitCode != nil && *out.ExitCode != 0 {
			return &ExitError{Code: *out.ExitCode & 0xff, Msg: fmt.Sprintf("the command exited with status %d", *out.ExitCode)}
		}
		return nil
	case schema.OutcomeInterrupted:
		if out.ExitCode != nil && *out.ExitCode&0xff != 0 {
			return &ExitError{Code: *out.ExitCode & 0xff, Msg: fmt.Sprintf("the command was interrupted; the shell reports status %d", *out.ExitCode)}
		}
		return &ExitError{Code: ExitInterrupted, Msg: "interrupted"}
	}
	return OutcomeExit(out.Outcome)
}

// runRecovery is how long run may spend after its timeout pressing C-c
// and waiting for the prompt (waiter.Run), beyond opMargin.
const runRecovery = 5 * time.Second

func runRun(ctx context.Context, f *Env, in schema.RunInput) (schema.RunOutput, error) {
	if in.Command == "" {
		return schema.RunOutput{}, Usagef("the command is empty")
	}
	if len(in.Command) > schema.MaxText {
		return schema.RunOutput{}, Usagef("the command is %d bytes; at most %d (1 MiB)", len(in.Command), schema.MaxText)
	}
	n, err := maxLines(in.MaxLines)
	if err != nil {
		return schema.RunOutput{}, err
	}
	if in.Background {
		return runBackground(ctx, f, in)
	}
	if err := shell.CheckTypable(in.Command); err != nil {
		return schema.RunOutput{}, Usage(err)
	}
	started := time.Now()
	timeout := EffectiveTimeout(in.Timeout)
	deadline := started.Add(Seconds(timeout))
	ctx, cancel := OpContext(ctx, timeout, runRecovery)
	defer cancel()
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.RunOutput{}, err
	}
	if sh, ok := shell.ShellOf(p.Command); ok {
		if _, err := shell.CheckSingle(sh, in.Command, in.AllowMulti); err != nil {
			return schema.RunOutput{}, Usage(err) // refused before waiting for anything
		}
	}
	keepAttached(ctx, c, p)
	held, err := lock.Acquire(ctx, c, p.ID, "run", deadline)
	if err != nil {
		return schema.RunOutput{}, err
	}
	defer held.Release(ctx)
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
		return schema.RunOutput{}, Usage(err)
	}
	if err := shell.CheckNoExit(sh, in.Command); err != nil {
		return schema.RunOutput{}, Usage(err)
	}
	r, err := waiter.Run(ctx, c, waiter.RunOptions{Info: p, Shell: sh, Command: in.Command, Deadline: deadline, MaxLines: n, ClearLine: in.ClearLine})
	if err != nil {
		return schema.RunOutput{}, err
	}
	out := schema.RunOutput{
		PaneID: p.ID, Command: in.Command, Output: nonNil(r.Output), Truncated: r.Truncated,
		Seconds: Round3(time.Since(started).Seconds()), Cursor: cursorToken(ctx, f, c, p.ID, r.Cursor), Outcome: r.Outcome,
		Attempts: r.Attempts, Note: r.Note, EffectiveTimeout: &timeout,
	}
	if r.StatusKnown && (r.Outcome == schema.OutcomeCompleted || r.Outcome == schema.OutcomeInterrupted) {
		code := r.ExitCode
		out.ExitCode = &code
	}
	return out, nil
}

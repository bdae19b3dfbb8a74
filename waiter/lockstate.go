package waiter

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/lock"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/tmux"
)

// paneState is what a typing action compares after waiting for another action's lock. The text was
// meant for the pane as it was when the action began. A run whose command ended meanwhile, or was
// interrupted at its timeout, leaves the shell at its prompt. There the answer to that command's
// question would run as a command.
type paneState struct {
	program   string // the foreground program (proc.Foreground.Command)
	shell     bool   // it is a shell
	away      bool   // a shell, not at its prompt (shell.AwayFromPrompt)
	modeKnown bool
	canonical bool // the terminal is in canonical mode
}

// lookState reads the foreground program, the terminal mode, and whether a shell is at its prompt.
func lookState(ctx context.Context, c *tmux.Client, id string) (paneState, error) {
	scr, err := pane.CaptureScreen(ctx, c, id, false)
	if err != nil {
		return paneState{}, err
	}
	fg := proc.ForegroundOf(scr.Info)
	mode, _ := proc.ReadTTYMode(scr.Info.TTY)
	st := paneState{program: fg.Command(), modeKnown: mode.Known, canonical: mode.Canonical}
	if _, ok := shell.Of(fg); ok {
		st.shell = true
		seen, _ := shell.LoadPrompt(ctx, c, id)
		st.away = shellAway(scr, seen) != ""
	}
	return st, nil
}

// String says what the state is, for messages.
func (s paneState) String() string {
	mode := "mode unknown"
	if s.modeKnown {
		mode = "raw mode"
		if s.canonical {
			mode = "canonical mode: a line is read"
		}
	}
	switch {
	case s.shell && s.away:
		return fmt.Sprintf("%s was not at its prompt (a command or its read builtin read the terminal, %s)", s.program, mode)
	case s.shell:
		return fmt.Sprintf("%s was at its prompt (terminal in %s)", s.program, mode)
	}
	return fmt.Sprintf("%q was in the foreground (terminal in %s)", s.program, mode)
}

// stateSettle is how long a pane in another state is looked at again before the action is refused.
// A shell between a command and its prompt is away for a moment.
const stateSettle = 300 * time.Millisecond

// ChangedWhileWaitingError: a typing action waited for the pane's lock, and then the pane was in
// another state. Nothing was typed. It unwraps to ErrRefused (exit 3).
type ChangedWhileWaitingError struct {
	PaneID string
	Action string // "send-text"
	Behind string // the lock's holder, e.g. "run (pid 1234)"
	Waited time.Duration
	Before string // paneState.String
	After  string
}

// Error says what changed and what to do.
func (e *ChangedWhileWaitingError) Error() string {
	return fmt.Sprintf("pane %s: this %s waited %.1fs for the pane's action lock, held by %s, and the pane changed meanwhile: when it began, %s; now %s. Nothing was typed: the text was meant for the pane as it was (typed now, an answer to a command could run as a command). To answer a command that a run is running, type without --submit and press Enter, which take no lock: panectl send-text %s TEXT; panectl send-keys %s Enter. Otherwise look at the pane (panectl screen %s) and call again",
		e.PaneID, e.Action, e.Waited.Seconds(), e.Behind, e.Before, stateNow(e.After), e.PaneID, e.PaneID, e.PaneID)
}

// stateNow turns a paneState.String into the present tense.
func stateNow(s string) string { return strings.ReplaceAll(s, " was ", " is ") }

// Unwrap makes it a refusal (exit 3).
func (e *ChangedWhileWaitingError) Unwrap() error { return ErrRefused }

// acquireUnchanged takes the pane's action lock. If another action held it, it notes the pane's
// state before waiting. Once the lock is its own, the state must come back within stateSettle. Else
// it gives the lock back and refuses (*ChangedWhileWaitingError).
func acquireUnchanged(ctx context.Context, c *tmux.Client, id, action string, deadline time.Time) (*lock.Lock, error) {
	var before paneState
	looked := false
	lock, err := lock.AcquireBehind(ctx, c, id, action, deadline, func(string) error {
		var err error
		before, err = lookState(ctx, c, id)
		looked = err == nil
		return err
	})
	if err != nil || !looked {
		return lock, err
	}
	by := time.Now().Add(stateSettle)
	for {
		now, err := lookState(ctx, c, id)
		if err != nil {
			lock.Release(ctx)
			return nil, err
		}
		if now == before {
			return lock, nil
		}
		if !time.Now().Before(by) {
			lock.Release(ctx)
			return nil, &ChangedWhileWaitingError{PaneID: id, Action: action, Behind: lock.Behind, Waited: lock.Waited, Before: before.String(), After: now.String()}
		}
		if !sleepCtx(ctx, 25*time.Millisecond) {
			lock.Release(ctx)
			return nil, ctx.Err()
		}
	}
}

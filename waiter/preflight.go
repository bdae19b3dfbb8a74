package waiter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/tmux"
)

// ErrRefused: a guarded action was refused (exit 3): a dead pane, copy mode, or no shell.
var ErrRefused = errors.New("refused")

// RefusedError says why.
type RefusedError struct {
	PaneID string
	Reason string
}

// Error names the pane and why it was refused.
func (e *RefusedError) Error() string { return fmt.Sprintf("pane %s: %s", e.PaneID, e.Reason) }

// Unwrap returns ErrRefused (exit 3).
func (e *RefusedError) Unwrap() error { return ErrRefused }

// Readiness waits. A non-shell foreground is checked again for a moment, since a shell's start-up
// may run a helper. A start-up script is waited for until its pane is startWindow old. A shell
// without its prompt yet is waited for up to promptWait.
const (
	notShellGrace = 500 * time.Millisecond
	startWindow   = 10 * time.Second
	promptWait    = 5 * time.Second
	quietFor      = 100 * time.Millisecond
)

// Ready checks that a pane can take a typed command. It must be alive, not in copy mode, with a
// shell in the foreground. Its prompt must be drawn: the cursor past the row's start, the screen at
// rest. A cold shell gets up to promptWait or the deadline, then is used anyway, since Run detects
// lost input. A line editor's terminal still canonical means the shell is starting (stillStarting).
// So does a young start-up script (startingUp), which may exec a shell. Both get until the
// deadline, then *StartingError with nothing typed. info is the pane as described.
func Ready(ctx context.Context, c *tmux.Client, info tmux.PaneInfo, deadline time.Time) (_ tmux.PaneInfo, _ shell.Shell, err error) {
	id := info.ID
	defer func() { err = goneDuring(id, "run", err) }() // (exit 5, as the waits)
	start := time.Now()
	r := &readyWait{c: c, deadline: deadline, promptBy: minTime(start.Add(promptWait), deadline)}
	for {
		sh, ok, err := refusal(info, proc.ForegroundOf(info), time.Since(start))
		if err != nil {
			return info, "", err
		}
		if !ok && !time.Now().Before(deadline) {
			if script, starting := startingUp(info); starting {
				return info, "", &StartingError{id, script, "its start-up command is still running, and may exec a shell"}
			}
		}
		if ok && !info.AlternateOn {
			ready, err := r.prompted(ctx, info, sh)
			if err != nil {
				return info, "", err
			}
			if ready {
				return info, sh, nil
			}
		}
		select {
		case <-ctx.Done():
			return info, "", ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
		if info, err = c.Pane(ctx, info.ID); err != nil {
			return info, "", err
		}
	}
}

// refusal refuses a pane that is dead, in copy mode, or without a shell in the foreground (fg) after
// notShellGrace. A shell running a script, say one in read, is named after the script, as it is not
// at its prompt. A program named as a shell whose executable is not one is refused too. ok says a
// shell is in the foreground.
func refusal(info tmux.PaneInfo, fg proc.Foreground, waited time.Duration) (_ shell.Shell, ok bool, _ error) {
	if info.Dead {
		return "", false, &RefusedError{info.ID, fmt.Sprintf("the pane is dead (its process exited with status %d); it has no shell to type into", info.DeadStatus)}
	}
	if info.InMode {
		return "", false, &RefusedError{info.ID, "the pane is in copy mode (pane_in_mode); leave it (q or Escape) before running a command"}
	}
	sh, ok := shell.Of(fg)
	if ok || waited < notShellGrace {
		return sh, ok, nil
	}
	if _, named := shell.ShellOf(fg.Command()); named {
		return "", false, &RefusedError{info.ID, fmt.Sprintf("the pane's foreground program calls itself %q, but %s; run types into a shell's prompt only", fg.Command(), shell.NotShellExe(fg))}
	}
	why := fmt.Sprintf("the pane's foreground program is %q, not a shell at its prompt (bash, zsh, fish, sh, dash, ksh); run types into a shell's prompt only", fg.Command())
	if startScript(fg, info.PID) {
		if young(info.PID) {
			return "", false, nil // waited for, up to the deadline
		}
		why += fmt.Sprintf(". It is the pane's start-up command, not a shell %s after the pane started: a start-up that execs a shell is waited for that long", startWindow)
	}
	return "", false, &RefusedError{info.ID, why}
}

// startingUp reports whether the pane may still be starting its shell: a start-up script that is
// young. It returns the script's name.
func startingUp(info tmux.PaneInfo) (string, bool) {
	fg := proc.ForegroundOf(info)
	return fg.Command(), startScript(fg, info.PID) && young(info.PID)
}

// startScript reports whether the foreground is a start-up script that may exec a shell (bash -c
// "...; exec bash"): the pane's own process, a shell interpreting a script.
func startScript(fg proc.Foreground, panePID int) bool {
	_, shellNamed := shell.ShellOf(fg.Name)
	_, atPrompt := shell.ShellOf(fg.Command())
	return shellNamed && !atPrompt && !fg.Task && fg.PID == panePID
}

// young reports whether the process started less than startWindow ago.
func young(pid int) bool {
	age, ok := proc.Age(pid)
	return ok && age < startWindow
}

// readyWait is Ready's wait for a prompt, between its looks.
type readyWait struct {
	c          *tmux.Client
	deadline   time.Time
	promptBy   time.Time // a cold shell is used anyway from then on
	lastText   string    // the screen as last seen
	quietSince time.Time // since when it has not changed (zero: not yet looked)
	ledgerRead bool
}

// prompted reports whether the foreground shell drew its prompt or was waited for long enough.
func (r *readyWait) prompted(ctx context.Context, info tmux.PaneInfo, sh shell.Shell) (bool, error) {
	starting, err := stillStarting(ctx, r.c, info, sh)
	if err != nil {
		return false, err
	}
	if starting {
		// Its start-up files still run, and what they read would take the typed line.
		if !time.Now().Before(r.deadline) {
			return false, &StartingError{info.ID, string(sh), "its terminal is still in canonical mode, as while its start-up files run; its line editor puts it in raw mode at the prompt"}
		}
		// once it reads its prompt, the cold wait starts afresh
		r.quietSince, r.promptBy = time.Time{}, minTime(time.Now().Add(promptWait), r.deadline)
		return false, nil
	}
	if info.CursorX > 0 && r.quietSince.IsZero() {
		return true, nil // a prompt is drawn: the common, warm case
	}
	if !time.Now().Before(r.promptBy) {
		return true, nil
	}
	// cold: wait for a prompt on a quiet screen
	_, texts, err := r.c.Snapshot(ctx, info.ID, tmux.CaptureSpec{Start: 0, ToBottom: true})
	if err != nil {
		return false, err
	}
	switch {
	case texts[0] != r.lastText || r.quietSince.IsZero():
		r.lastText, r.quietSince = texts[0], time.Now()
	case info.CursorX > 0 && time.Since(r.quietSince) >= quietFor:
		return true, nil
	case !r.ledgerRead && time.Since(r.quietSince) >= quietFor:
		// A quiet screen, the cursor at a row's start: a cold shell, or typed text ending in a
		// newline that the line editor holds. Or a run saw the shell at its prompt before, an empty
		// prompt or a read. Preflight judges.
		r.ledgerRead = true
		return r.warm(ctx, info.ID), nil
	}
	return false, nil
}

// warm reports whether text typed without Enter waits in the shell, or a run saw it at its prompt.
func (r *readyWait) warm(ctx context.Context, id string) bool {
	if l, err := pane.LoadLedger(ctx, r.c, id); err == nil {
		if p, long := l.Pending(); p != "" || long {
			return true
		}
	}
	p, err := shell.LoadPrompt(ctx, r.c, id)
	return err == nil && p.Seen
}

// stillStarting reports whether the shell is still starting (shell.Starting). Its terminal is
// canonical, though its line editor reads the prompt in raw mode. It is not warm either: no run saw
// its prompt, and nothing was typed lately. Only a canonical terminal costs tmux reads.
func stillStarting(ctx context.Context, c *tmux.Client, info tmux.PaneInfo, sh shell.Shell) (bool, error) {
	args := proc.ForegroundOf(info).Args
	mode, _ := proc.ReadTTYMode(info.TTY)
	if !shell.Starting(sh, args, mode, false) {
		return false, nil
	}
	if p, err := shell.LoadPrompt(ctx, c, info.ID); err != nil || p.Seen {
		return false, err
	}
	l, err := pane.LoadLedger(ctx, c, info.ID)
	return err == nil && l.Len() == 0, err
}

// preflight reads the start cursor and the ledger and checks the input line. Text there refuses the
// run, or ClearLine kills it. It returns the read, the screen judged, and the last prompt.
func preflight(ctx context.Context, c *tmux.Client, src Source, opt RunOptions, mode proc.TTYMode) (sr pane.ReadResult, scr pane.Screen, prompt shell.Prompt, err error) {
	id := opt.Info.ID
	// The screen and the prompt recorded are read beside the cursor and the ledger, both lists in
	// flight at once: one round trip through the control client, not two.
	type screenRead struct {
		scr    pane.Screen
		prompt shell.Prompt
		err    error
	}
	beside := make(chan screenRead, 1)
	go func() {
		scr, prompt, err := screenAndPrompt(ctx, c, src, id)
		beside <- screenRead{scr, prompt, err}
	}()
	sr, err = read(ctx, c, src, id, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1, Guess: opt.Info, Ledger: true})
	got := <-beside
	if err != nil {
		return sr, pane.Screen{}, prompt, err
	}
	if scr, prompt, err = got.scr, got.prompt, got.err; err != nil {
		return sr, scr, prompt, err
	}
	// warm: seen at its prompt or typed into lately, so not starting
	warm := prompt.Seen || sr.Ledger.Len() > 0
	if scr, err = notAtPrompt(ctx, c, src, opt, scr, prompt, warm); err != nil {
		return sr, scr, prompt, err
	}
	pending, _ := sr.Ledger.Pending()
	line := shell.InputLineOf(scr)
	text := line.Pending(pending, prompt.Text)
	if text == "" && strings.TrimSpace(pending) != "" && !line.Bare(prompt) {
		// panectl typed it without Enter, and the cursor is not at a bare prompt. It sits in the
		// line editor's buffer, unseen on the row, as after pasted text that ended in a newline.
		text = pending
	}
	unfinished := text == "" && line.Continuation(prompt, opt.Shell.HasLineEditor(), mode)
	if text == "" && !unfinished {
		return sr, scr, prompt, nil
	}
	if !opt.ClearLine {
		if unfinished {
			return sr, scr, prompt, &RefusedError{id, unfinishedReason(line) + "; the command would be joined to it. Finish or cancel it (C-c), or pass --clear-line (clear_line) to cancel it first"}
		}
		return sr, scr, prompt, &RefusedError{id, fmt.Sprintf("text is already on the shell's input line: %q; the command would be typed after it and run with it. Submit or erase it, or pass --clear-line (clear_line) to kill the line first", abbreviate(text, 200))}
	}
	keys := killKeys(opt.Shell, mode)
	if unfinished {
		keys = []string{"C-c"} // the unfinished command is abandoned, all its lines
	}
	if scr, err = clearInput(ctx, c, src, opt, mode, prompt, pending, keys); err != nil {
		return sr, scr, prompt, err
	}
	sr, err = read(ctx, c, src, id, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1, Guess: scr.Info, Ledger: true})
	return sr, scr, prompt, err
}

// clearInput presses keys to kill the input line (--clear-line) and waits up to a second for it to
// empty. A line that stays refuses the run. It returns the screen looked at last.
func clearInput(ctx context.Context, c *tmux.Client, src Source, opt RunOptions, mode proc.TTYMode, prompt shell.Prompt, pending string, keys []string) (pane.Screen, error) {
	id := opt.Info.ID
	editorShell := opt.Shell.HasLineEditor()
	if err := c.SendKeys(ctx, id, keys...); err != nil {
		return pane.Screen{}, err
	}
	if err := pane.ClearPending(ctx, c, id); err != nil {
		return pane.Screen{}, err
	}
	by := time.Now().Add(time.Second)
	for {
		if !sleepCtx(ctx, lookEvery) {
			return pane.Screen{}, ctx.Err()
		}
		scr, err := captureScreen(ctx, c, src, id)
		if err != nil {
			return scr, err
		}
		line := shell.InputLineOf(scr)
		left := line.Pending("", prompt.Text)
		if left == "" && !line.Continuation(prompt, editorShell, mode) && (line.Bare(prompt) || strings.TrimSpace(pending) == "") {
			return scr, nil
		}
		if time.Now().After(by) {
			if left == "" && line.Continuation(prompt, editorShell, mode) {
				return scr, &RefusedError{id, fmt.Sprintf("%s after %s was pressed to cancel it; cancel it yourself", unfinishedReason(line), strings.Join(keys, " "))}
			}
			if left == "" {
				left = strings.TrimSpace(line.Left + " " + line.Right)
			}
			return scr, &RefusedError{id, fmt.Sprintf("the input line still holds %q after %s was pressed to kill it (a line editor in vi mode does not take it); erase it yourself", abbreviate(left, 200), strings.Join(keys, " "))}
		}
	}
}

// StartingError: the shell was still starting at the deadline, as Why says. Nothing was typed. It
// unwraps to context.DeadlineExceeded (exit 124).
type StartingError struct {
	PaneID string
	Shell  string // the shell, or the start-up script
	Why    string
}

// Error says what was waited for.
func (e *StartingError) Error() string {
	return fmt.Sprintf("pane %s: %s had not reached its prompt by the deadline: still starting (%s); nothing was typed: run again with a longer --timeout", e.PaneID, e.Shell, e.Why)
}

// Unwrap makes it a timeout.
func (e *StartingError) Unwrap() error { return context.DeadlineExceeded }

// notAtPromptSure is how long a shell must stay away from its prompt to refuse a run. Between a
// command and its prompt a shell is away for a moment.
const notAtPromptSure = 150 * time.Millisecond

// notAtPrompt refuses a run (*RefusedError) when the shell's read builtin waits for an answer
// (shell.NotAtPrompt). The typed line would be that answer. --clear-line does not help: a question
// is answered, not cleared. It returns the screen looked at last.
func notAtPrompt(ctx context.Context, c *tmux.Client, src Source, opt RunOptions, scr pane.Screen, prompt shell.Prompt, warm bool) (pane.Screen, error) {
	args := proc.ForegroundOf(opt.Info).Args
	since := time.Now()
	for {
		mode, _ := proc.ReadTTYMode(scr.Info.TTY)
		why := shell.NotAtPrompt(opt.Shell, args, mode, shell.InputLineOf(scr), prompt, warm)
		if why == "" {
			return scr, nil
		}
		if time.Since(since) >= notAtPromptSure {
			return scr, &RefusedError{opt.Info.ID, why + "; nothing was typed. Answer it (panectl send-text " + opt.Info.ID + " TEXT --submit) or cancel it (panectl send-keys " + opt.Info.ID + " C-c), then run again"}
		}
		if !sleepCtx(ctx, lookEvery) {
			return scr, ctx.Err()
		}
		var err error
		if scr, err = captureScreen(ctx, c, src, opt.Info.ID); err != nil {
			return scr, err
		}
	}
}

// unfinishedReason says why an input line that Continuation found unfinished cannot take a command.
func unfinishedReason(line shell.InputLine) string {
	if strings.TrimSpace(line.Left) == "" {
		return "no prompt is drawn before the cursor: the shell's line editor holds an unfinished command on an earlier line (or the shell is still starting)"
	}
	return fmt.Sprintf("the shell is waiting for the rest of an unfinished command (its continuation prompt %q is on the input line)", strings.TrimSpace(line.Left))
}

// killLine erases the input line the way the shell understands. A canonical terminal takes its line
// kill (C-u, VKILL). fish takes cancel-commandline (C-c), the whole buffer, $status untouched. zsh
// takes kill-buffer (C-x C-k). Others take C-e C-u: all lines in bash's readline and ksh.
func killLine(ctx context.Context, c *tmux.Client, id string, sh shell.Shell, mode proc.TTYMode) error {
	return c.SendKeys(ctx, id, killKeys(sh, mode)...)
}

func killKeys(sh shell.Shell, mode proc.TTYMode) []string {
	switch {
	case mode.Known && mode.Canonical:
		return []string{"C-u"}
	case sh == shell.ShellFish:
		return []string{"C-c"}
	case sh == shell.ShellZsh:
		// kill-buffer kills every line. C-u kills only the current line of a multi-line buffer.
		return []string{"C-x", "C-k"}
	}
	return []string{"C-e", "C-u"}
}

// minTime is the earlier of a and b.
func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

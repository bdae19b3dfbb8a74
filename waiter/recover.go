package waiter

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// ended ends a run that stopped waiting for its command because of err. Either ctx was cancelled
// (SIGINT, SIGTERM, an MCP client), or the server does not answer. Or the run's context deadline
// came before the timeout's recovery could finish. Only a cancel presses C-c (see interrupt). A
// silent server ends the run with its error (exit 1), lack of time with ctx's.
func ended(ctx context.Context, c *tmux.Client, id string, res RunResult, err error) (RunResult, error) {
	if ctx.Err() == context.Canceled {
		return interrupt(ctx, c, id, res), nil
	}
	if gone(err) {
		// The pane or server went away under the command: exited, as a full read would say.
		res.Outcome = schema.OutcomeExited
		res.Note = schema.JoinNotes(res.Note, strings.Replace(goneNote(err), "during the wait", "while the command ran", 1))
		return res, nil
	}
	return res, err
}

// interruptCleanup bounds interrupt's C-c: panectl exits within a second of SIGINT or SIGTERM.
const interruptCleanup = 500 * time.Millisecond

// interrupt presses C-c as a cleanup when panectl is interrupted (tmux.Client.CleanupContext).
func interrupt(ctx context.Context, c *tmux.Client, id string, res RunResult) RunResult {
	ctx, cancel := c.CleanupContext(ctx, interruptCleanup)
	defer cancel()
	res.Outcome = schema.OutcomeInterrupted
	if ctx.Err() != nil {
		res.Note = "panectl was interrupted; C-c was not sent to the pane: the tmux server did not answer panectl's last command"
		return res
	}
	if err := c.SendKeys(ctx, id, "C-c"); err != nil {
		res.Note = "panectl was interrupted; C-c could not be sent to the pane: " + err.Error()
		return res
	}
	res.Note = "panectl was interrupted; C-c was sent to the pane"
	return res
}

// recoverPrompt presses C-c after a timeout and waits up to 3 s, within ctx, for the shell to read
// input. The shell must be the foreground, back at its prompt (shellAway), and a probe must print.
// A probe goes only to the shell's prompt. Else it would feed a program, or queue for the next
// command. seen is the last prompt. It returns a note on what happened. Its only error is a silent
// server (*tmux.NotRespondingError), which leaves the pane's state unknown.
func recoverPrompt(ctx context.Context, c *tmux.Client, id string, seen shell.Prompt) (string, error) {
	if err := c.SendKeys(ctx, id, "C-c"); err != nil {
		if errors.Is(err, tmux.ErrNotResponding) {
			return "", err
		}
		return "C-c could not be sent: " + err.Error(), nil
	}
	by := time.Now().Add(3 * time.Second)
	for {
		scr, err := pane.CaptureScreen(ctx, c, id, false)
		if errors.Is(err, tmux.ErrNotResponding) {
			return "", err
		}
		if err != nil || scr.Info.Dead {
			return "C-c was sent; the pane is gone or dead", nil
		}
		fg := proc.ForegroundOf(scr.Info)
		why := ""
		if _, ok := shell.Of(fg); !ok {
			why = fmt.Sprintf("%q is still in the foreground", fg.Name)
		} else {
			why = shellAway(scr, seen)
		}
		if why == "" {
			break
		}
		if time.Now().After(by) {
			return "C-c was sent, but " + why + "; no probe was typed", nil
		}
		if !sleepCtx(ctx, 20*time.Millisecond) {
			return "C-c was sent", nil
		}
	}
	cur, _, err := pane.Now(ctx, c, id)
	if errors.Is(err, tmux.ErrNotResponding) {
		return "", err
	}
	if err != nil {
		return "C-c was sent", nil
	}
	typed, printed := shell.Probe()
	if err := pane.Record(ctx, c, id, typed, true); err != nil {
		if errors.Is(err, tmux.ErrNotResponding) {
			return "", err
		}
		return "C-c was sent", nil
	}
	if err := c.SendText(ctx, id, typed, true); err != nil {
		if errors.Is(err, tmux.ErrNotResponding) {
			return "", err
		}
		return "C-c was sent", nil
	}
	if ok, err := waitProbe(ctx, c, id, cur, printed, time.Until(by)); err != nil {
		return "", err
	} else if !ok {
		return "C-c was sent; the shell did not answer a probe within 3 s", nil
	}
	return "C-c was sent; the shell is back at its prompt", nil
}

// shellAway says why the foreground shell is not at its prompt (shell.AwayFromPrompt), "" if
// nothing shows it. Only then does a line panectl types for itself go to the shell.
func shellAway(scr pane.Screen, seen shell.Prompt) string {
	fg := proc.ForegroundOf(scr.Info)
	sh, ok := shell.Of(fg)
	if !ok {
		return fmt.Sprintf("%q is in the foreground", fg.Command())
	}
	mode, _ := proc.ReadTTYMode(scr.Info.TTY)
	if why := shell.AwayFromPrompt(sh, fg.Args, mode, shell.InputLineOf(scr), seen); why != "" {
		return "the shell is not back at its prompt (" + why + ")"
	}
	if n, err := proc.UnreadInput(scr.Info.TTY); err == nil && n > 0 {
		// Typed and not read yet. A probe would queue behind that line, for whatever it runs.
		return fmt.Sprintf("the shell has not read what was typed before (%d bytes wait in the terminal)", n)
	}
	return ""
}

// probeSettle is how long the shell must look ready, on two looks, before a probe. A line editor
// that took a line stays raw a moment before the command runs.
const probeSettle = 50 * time.Millisecond

// mayProbe reports whether a probe may be typed now: at the prompt with nothing typed waiting
// (shellAway), on two looks probeSettle apart. Its only errors are a silent server and ctx's. Any
// other failed look is "no".
func mayProbe(ctx context.Context, c *tmux.Client, src Source, id string, seen shell.Prompt) (bool, error) {
	for look := 0; look < 2; look++ {
		if look > 0 && !sleepCtx(ctx, probeSettle) {
			return false, ctx.Err()
		}
		scr, err := captureScreen(ctx, c, src, id)
		if errors.Is(err, tmux.ErrNotResponding) || ctx.Err() != nil {
			return false, cmp.Or(err, ctx.Err())
		}
		if err != nil || scr.Info.Dead || shellAway(scr, seen) != "" {
			return false, nil
		}
	}
	return true, nil
}

// waitProbe waits until the probe's marker prints after cur. Its only error is a silent server.
func waitProbe(ctx context.Context, c *tmux.Client, id string, cur pane.Cursor, printed string, d time.Duration) (bool, error) {
	by := time.Now().Add(d)
	for {
		rd, err := pane.Read(ctx, c, id, cur, pane.ReadOptions{})
		if errors.Is(err, tmux.ErrNotResponding) {
			return false, err
		}
		if err != nil {
			return false, nil
		}
		for _, l := range rd.Lines {
			if strings.Contains(l, printed) {
				return true, nil
			}
		}
		if time.Now().After(by) {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, nil
		case <-time.After(20 * time.Millisecond):
		}
	}
}

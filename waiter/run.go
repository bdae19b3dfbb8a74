package waiter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
)

// Outcomes of a run (SPEC.md section 8); timeout and exited are shared with
// the waits.
const (
	OutcomeCompleted   = "completed"
	OutcomeInterrupted = "interrupted"
)

// ErrRefused: a guarded action was refused (exit 3): the pane is in copy
// mode, dead, or its foreground program is not a shell.
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

// Readiness waits. A non-shell foreground is re-checked for a moment (a
// shell's start-up may run a helper in the foreground); a shell that has not
// drawn its prompt yet is waited for up to promptWait.
const (
	notShellGrace = 500 * time.Millisecond
	promptWait    = 5 * time.Second
	quietFor      = 100 * time.Millisecond
)

// Ready checks that a pane can take a typed command: alive, not in copy
// mode, a shell in the foreground, a prompt drawn (the cursor is past the
// start of its row, and the screen stopped changing). A cold shell is waited
// for, up to promptWait (or the deadline), then used anyway: Run detects
// typed input the shell threw away. info is the pane as just described.
func Ready(ctx context.Context, c *tmux.Client, info tmux.PaneInfo, deadline time.Time) (tmux.PaneInfo, pane.Shell, error) {
	start := time.Now()
	promptBy := start.Add(promptWait)
	if deadline.Before(promptBy) {
		promptBy = deadline
	}
	lastText, quietSince := "", time.Time{}
	for {
		if info.Dead {
			return info, "", &RefusedError{info.ID, fmt.Sprintf("the pane is dead (its process exited with status %d); it has no shell to type into", info.DeadStatus)}
		}
		if info.InMode {
			return info, "", &RefusedError{info.ID, "the pane is in copy mode (pane_in_mode); leave it (q or Escape) before running a command"}
		}
		sh, ok := pane.ShellOf(info.Command)
		if !ok && time.Since(start) >= notShellGrace {
			return info, "", &RefusedError{info.ID, fmt.Sprintf("the pane's foreground program is %q, not a shell (bash, zsh, fish, sh, dash, ksh); run types into a shell's prompt only", info.Command)}
		}
		if ok && !info.AlternateOn {
			if info.CursorX > 0 && quietSince.IsZero() {
				return info, sh, nil // a prompt is drawn: the common, warm case
			}
			if !time.Now().Before(promptBy) {
				return info, sh, nil
			}
			// cold: wait for a prompt on a quiet screen
			_, texts, err := c.Snapshot(ctx, info.ID, tmux.CaptureSpec{Start: 0, ToBottom: true})
			if err != nil {
				return info, "", err
			}
			switch {
			case texts[0] != lastText || quietSince.IsZero():
				lastText, quietSince = texts[0], time.Now()
			case info.CursorX > 0 && time.Since(quietSince) >= quietFor:
				return info, sh, nil
			}
		}
		select {
		case <-ctx.Done():
			return info, "", ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
		var err error
		if info, err = c.Pane(ctx, info.ID); err != nil {
			return info, "", err
		}
	}
}

// RunOptions is a run request. Info and Shell come from Ready.
type RunOptions struct {
	Info     tmux.PaneInfo
	Shell    pane.Shell
	Command  string
	Deadline time.Time
	MaxLines int           // newest lines kept (0: all)
	Grace    time.Duration // how long a begin marker may take before a probe (default 1s)
}

// RunResult is how a run ended.
type RunResult struct {
	Outcome   string // completed, timeout, exited, interrupted
	ExitCode  int    // the command's status (Outcome completed)
	Output    []string
	Truncated bool
	Cursor    pane.Cursor
	Attempts  int // times the command was typed (more than 1: the shell threw input away)
	Note      string
}

// Run types a command into the pane's shell, wrapped so the shell prints a
// begin marker, the command's output, and an end marker with its status
// (pane.NewRun), and reads the output between the printed markers from a
// cursor taken before typing. The wrapper is recorded in the echo ledger so
// other processes' waits discount its echo.
//
// Lost input: when no begin marker shows within the grace period, a probe
// line is typed. Shells read input in order, so a probe that prints with no
// begin marker before it proves the command line was thrown away (a shell
// start-up that discards typed input): it is typed again. A begin marker
// that shows first means the shell was only slow. The command never runs
// twice.
//
// Timeout: C-c is pressed, and the shell is waited for until it prints a
// probe, so the pane is usable by the next run. Context cancelled (panectl
// interrupted): C-c too, outcome interrupted.
func Run(ctx context.Context, c *tmux.Client, opt RunOptions) (RunResult, error) {
	id := opt.Info.ID
	grace := opt.Grace
	if grace == 0 {
		grace = time.Second
	}
	// Attach first: the start cursor, the ledger and every look at the pane
	// go through the control client (no tmux process each), aligned with
	// its change stream.
	src, err := WatchPane(ctx, c, opt.Info)
	if err != nil {
		return RunResult{}, err
	}
	defer src.Close()
	sr, err := read(ctx, c, src, id, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1, Guess: opt.Info, Ledger: true})
	if err != nil {
		return RunResult{}, err
	}
	start, info, ledger := sr.Cursor, sr.Pane, sr.Ledger
	r := pane.NewRun(opt.Shell, opt.Command)
	res := RunResult{Cursor: start}
	fresh := true // ledger is as read just now
	typeLine := func(text string) error {
		if !fresh {
			var err error
			if ledger, err = pane.LoadLedgerVia(ctx, via(c, src), id); err != nil {
				return err
			}
		}
		fresh = false
		// one tmux process records the echo and types
		return pane.Type(ctx, c, id, ledger, text, true)
	}
	if err := typeLine(r.Typed); err != nil {
		return res, err
	}
	res.Attempts = 1
	typedAt := time.Now()
	var probes []string // printed forms of the probes typed since the last attempt
	interval := 4 * time.Millisecond
	maxInterval := 150 * time.Millisecond
	if src.Via() != nil {
		// changes are events: the timer only paces the grace checks
		interval, maxInterval = 100*time.Millisecond, 250*time.Millisecond
	}
	var lastFull time.Time
	began := false
	for {
		// A cheap look at the bottom of the pane finds the end marker; the
		// whole output is read from the start cursor only when it is
		// there, when the pane died, or once per grace period while the
		// begin marker is awaited.
		if !time.Now().Before(opt.Deadline) || !began && time.Since(lastFull) >= grace && time.Since(typedAt) >= grace {
			// fall through to the full read
		} else if ended, err := endVisible(ctx, c, src, id, r.End); err == nil && !ended {
			select {
			case <-ctx.Done():
				return interrupt(c, id, res), nil
			case <-time.After(min(interval, time.Until(opt.Deadline))):
			case <-src.Changed():
			}
			interval = min(interval*3/2+1, maxInterval)
			continue
		}
		lastFull = time.Now()
		rd, err := read(ctx, c, src, id, start, pane.ReadOptions{Guess: info})
		if err != nil {
			if gone(err) {
				res.Outcome = OutcomeExited
				res.Note = "the pane was closed while the command ran"
				return res, nil
			}
			if ctx.Err() != nil {
				return interrupt(c, id, res), nil
			}
			return res, err
		}
		res.Cursor, info = rd.Cursor, rd.Pane
		sc := r.Scan(rd.Lines)
		began = sc.Began
		if sc.Ended {
			res.Outcome, res.ExitCode = OutcomeCompleted, sc.Status
			res.Output, res.Truncated = keepNewest(sc.Lines, opt.MaxLines)
			if !sc.Began {
				res.Truncated = true
				res.Note = "the start of the output is gone from the pane's history (history-limit or a clear)"
			} else if rd.LinesDropped > 0 || rd.Reset {
				res.Truncated = true
				res.Note = rd.Note
			}
			if len(probes) > 0 {
				// a probe typed while the shell was slow runs after the
				// command: let it print so the prompt is clean afterwards
				waitProbe(ctx, c, id, rd.Cursor, probes[len(probes)-1], 2*time.Second)
			}
			return res, nil
		}
		if rd.Pane.Dead {
			res.Outcome = OutcomeExited
			res.Output, res.Truncated = keepNewest(sc.Lines, opt.MaxLines)
			res.Note = fmt.Sprintf("the pane's process exited with status %d before the command finished", rd.Pane.DeadStatus)
			return res, nil
		}
		if !sc.Began && time.Since(typedAt) >= grace {
			if lost(rd.Lines, r.Begin, probes) {
				// The shell may have changed since (a start-up that execs
				// another shell): wrap for the one reading now.
				if sh, ok := pane.ShellOf(rd.Pane.Command); ok && sh != opt.Shell {
					opt.Shell = sh
					r = pane.NewRun(sh, opt.Command)
				}
				if err := clearLine(ctx, c, id); err != nil {
					return res, err
				}
				if err := typeLine(r.Typed); err != nil {
					return res, err
				}
				res.Attempts++
				probes = nil
				typedAt = time.Now()
			} else if len(probes) == 0 || time.Since(typedAt) >= grace*time.Duration(len(probes)+1) {
				typed, printed := pane.Probe()
				if err := clearLine(ctx, c, id); err != nil {
					return res, err
				}
				if err := typeLine(typed); err != nil {
					return res, err
				}
				probes = append(probes, printed)
			}
		}
		if !time.Now().Before(opt.Deadline) {
			res.Outcome = OutcomeTimeout
			res.Output, res.Truncated = keepNewest(sc.Lines, opt.MaxLines)
			res.Note = recoverPrompt(ctx, c, id)
			return res, nil
		}
		wait := min(interval, time.Until(opt.Deadline))
		interval = min(interval*3/2+1, maxInterval)
		select {
		case <-ctx.Done():
			return interrupt(c, id, res), nil
		case <-time.After(wait):
		case <-src.Changed():
		}
	}
}

// clearLine presses C-u before a probe or a retype: what a lost line left
// in the shell's editor (fish keeps a line that failed to parse) is erased.
// C-u erases the line being edited in every line editor and in a cooked
// terminal (VKILL), and never interrupts anything.
func clearLine(ctx context.Context, c *tmux.Client, id string) error {
	return c.SendKeys(ctx, id, "C-u")
}

// endVisible reports whether the end marker is on the pane's visible
// screen or the last history rows (where it is right after the command
// ends), or the pane is dead: then the output is read in full.
func endVisible(ctx context.Context, c *tmux.Client, src Source, id, end string) (bool, error) {
	info, texts, _, err := via(c, src).SnapshotOptions(ctx, id, "", tmux.CaptureSpec{Start: -10, ToBottom: true, Join: true})
	if err != nil {
		return true, err // let the full read report it
	}
	return info.Dead || strings.Contains(texts[0], end+":"), nil
}

// via is the source's control client when attached, else c.
func via(c *tmux.Client, src Source) tmux.Snapshotter {
	if v := src.Via(); v != nil {
		return v
	}
	return c
}

// lost reports whether a probe printed with no begin marker before it.
func lost(lines []string, begin string, probes []string) bool {
	for _, l := range lines {
		if strings.Contains(l, begin) {
			return false
		}
		for _, p := range probes {
			if strings.Contains(l, p) {
				return true
			}
		}
	}
	return false
}

func keepNewest(lines []string, n int) ([]string, bool) {
	if n > 0 && len(lines) > n {
		return lines[len(lines)-n:], true
	}
	return lines, false
}

// interrupt stops the command when panectl itself is interrupted.
func interrupt(c *tmux.Client, id string, res RunResult) RunResult {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = c.SendKeys(ctx, id, "C-c")
	res.Outcome = OutcomeInterrupted
	res.Note = "panectl was interrupted; C-c was sent to the pane"
	return res
}

// recoverPrompt presses C-c after a timeout and waits (up to 3 s) for the
// shell to read input again: its foreground is the shell and a probe prints.
// It returns a note on what happened.
func recoverPrompt(ctx context.Context, c *tmux.Client, id string) string {
	if err := c.SendKeys(ctx, id, "C-c"); err != nil {
		return "C-c could not be sent: " + err.Error()
	}
	by := time.Now().Add(3 * time.Second)
	for {
		info, err := c.Pane(ctx, id)
		if err != nil || info.Dead {
			return "C-c was sent; the pane is gone or dead"
		}
		if _, ok := pane.ShellOf(info.Command); ok {
			break
		}
		if time.Now().After(by) {
			return fmt.Sprintf("C-c was sent, but %q is still in the foreground", info.Command)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cur, _, err := pane.Now(ctx, c, id)
	if err != nil {
		return "C-c was sent"
	}
	typed, printed := pane.Probe()
	if pane.Record(ctx, c, id, typed, true) != nil || c.SendText(ctx, id, typed, true) != nil {
		return "C-c was sent"
	}
	if !waitProbe(ctx, c, id, cur, printed, time.Until(by)) {
		return "C-c was sent; the shell did not answer a probe within 3 s"
	}
	return "C-c was sent; the shell is back at its prompt"
}

// waitProbe waits until the probe's marker is printed after cur.
func waitProbe(ctx context.Context, c *tmux.Client, id string, cur pane.Cursor, printed string, d time.Duration) bool {
	by := time.Now().Add(d)
	for {
		rd, err := pane.Read(ctx, c, id, cur, pane.ReadOptions{})
		if err != nil {
			return false
		}
		for _, l := range rd.Lines {
			if strings.Contains(l, printed) {
				return true
			}
		}
		if time.Now().After(by) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

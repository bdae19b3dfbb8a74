package waiter

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// confirmGap: two looks this far apart must agree on a strong busy, against half-drawn frames.
const confirmGap = 50 * time.Millisecond

// ApprovalSettle is how long wait-for-turn must see awaiting_approval without a break, from its
// start at the earliest. A dialog stays. A frame drawn before the program reacted to a key, say
// Enter on "Do you want to proceed?", goes within tens of milliseconds. Only the state counts, not
// the screen. So a spinner elsewhere does not hold the approval back, as Qwen and pi keep one then.
const ApprovalSettle = 400 * time.Millisecond

// KeyTakeMax bounds how long a dialog frame that a key was sent to is taken for the program's
// old frame. Agents redraw within a second of an approval key ("always allow" included). A dialog
// still unchanged this long after the key did not take it, and counts again.
const KeyTakeMax = 2 * time.Second

// TurnOptions is a wait-for-turn request.
type TurnOptions struct {
	PaneID          string
	Set             *recognize.Set
	Recognizer      string // "auto", an id or an alias
	Quiet           time.Duration
	Timeout         time.Duration
	WaitThroughBusy bool // keep waiting while the program is busy
	// States, when set, are the states that end the wait; others are waited through. WaitThroughBusy
	// then does not matter.
	States []recognize.State
}

// TurnResult is how a wait-for-turn ended.
type TurnResult struct {
	Outcome schema.Outcome // schema.OutcomeTurnEnded, schema.OutcomeBusy, schema.OutcomeTimeout, schema.OutcomeExited
	Result  recognize.Result
	Screen  pane.Screen
	Elapsed time.Duration
	Note    string
}

// ScreenFor turns a pane screen into what the recognizers look at. It adds the foreground as /proc
// tells it (proc.ForegroundOf), through a task's supervisor. A shell's script is named after the
// script. It gives the argv through node/bun wrappers and an interactive shell's job. It says
// whether a foreground shell is at its prompt (shell.ShellTurnOf). For any other foreground it
// gives the kernel's verdict on the terminal's foreground process group (proc.GroupTurnOf).
func ScreenFor(s pane.Screen) recognize.Screen {
	fg := proc.ForegroundOf(s.Info)
	scr := recognize.Screen{
		Rows: s.Rows, Title: s.Info.Title, Command: fg.Command(), Args: fg.Args,
		CursorX: s.Info.CursorX, CursorY: s.Info.CursorY,
		Width: s.Info.Width, Height: s.Info.Height, AlternateOn: s.Info.AlternateOn,
		Job: fg.Job,
	}
	if _, ok := shell.Of(fg); ok && fg.Command() == fg.Name {
		scr.Shell = shell.ShellTurnOf(fg).String()
	} else {
		scr.Process = proc.GroupTurnOf(fg.PID).String()
	}
	return scr
}

// turnJudge decides look by look whether a wait-for-turn is over. It is WaitForTurn's pure part.
type turnJudge struct {
	quiet           time.Duration
	waitThroughBusy bool
	states          []recognize.State // the states that end the wait; nil: as waitThroughBusy says
	state           recognize.State   // state of the previous look
	since           time.Time         // when that state was first seen in a row of looks
}

// judge takes one look's classification at now, and how long the screen rested (quietFor). stale
// is how long more the look's frame is the one a key was just sent to (0: it is not). It returns
// the outcome, "" to keep waiting, and how long until time alone could change the verdict. A state
// ends the wait as follows.
//
//   - awaiting_approval: seen without a break for ApprovalSettle, on frames
//     drawn after the last key (or KeyTakeMax after it). From a weak rule,
//     the screen must also be quiet.
//   - busy from a strong rule: two looks confirmGap apart agree.
//   - awaiting_input, unknown and weak busy: the screen and the state
//     unchanged for the quiet window.
//
// A settled state that does not end the wait (ends) is looked at again after the quiet window.
func (j *turnJudge) judge(r recognize.Result, quietFor, stale time.Duration, now time.Time) (schema.Outcome, time.Duration) {
	if r.State == recognize.AwaitingApproval && stale > 0 {
		// the answered dialog's frame: its settle starts with a new frame
		j.state, j.since = "", time.Time{}
		return "", stale
	}
	if r.State != j.state || j.since.IsZero() {
		j.state, j.since = r.State, now
	}
	seen := now.Sub(j.since)
	var ready bool
	var wait time.Duration
	switch {
	case r.State == recognize.AwaitingApproval:
		ready, wait = seen >= ApprovalSettle, ApprovalSettle-seen
		if r.NeedsQuiet && quietFor < j.quiet {
			ready, wait = false, max(wait, j.quiet-quietFor)
		}
	case r.State == recognize.Busy && !r.NeedsQuiet:
		ready, wait = seen >= confirmGap, confirmGap-seen
	default:
		stable := min(quietFor, seen)
		ready, wait = stable >= j.quiet, j.quiet-stable
	}
	if !ready {
		return "", wait
	}
	if !j.ends(r.State) {
		return "", j.quiet
	}
	if r.State == recognize.Busy {
		return schema.OutcomeBusy, 0
	}
	return schema.OutcomeTurnEnded, 0
}

// ends reports whether a settled state ends the wait.
func (j *turnJudge) ends(s recognize.State) bool {
	if j.states != nil {
		return slices.Contains(j.states, s)
	}
	return s != recognize.Busy || !j.waitThroughBusy
}

// WaitForTurn waits until the program in the pane ends its turn, as judge decides. Confirmed busy
// ends it too, unless WaitThroughBusy. With States, only those states end it. The pane exiting and
// the timeout end it too. A process replaced by respawn-pane gives schema.OutcomeExited with a
// note. A change event (Watch) leads to a capture, and only new content restarts the quiet window.
func WaitForTurn(ctx context.Context, c *tmux.Client, opt TurnOptions) (TurnResult, error) {
	start := time.Now()
	defer Waiting(ctx, opt.PaneID, opt.Timeout, "the turn")()
	src, err := Watch(ctx, c, opt.PaneID)
	if gone(err) {
		return TurnResult{Outcome: schema.OutcomeExited, Note: goneNote(err), Elapsed: time.Since(start)}, nil
	}
	if err != nil {
		return TurnResult{}, err
	}
	defer src.Close()
	clock := &quietClock{quiet: opt.Quiet}
	judge := &turnJudge{quiet: opt.Quiet, waitThroughBusy: opt.WaitThroughBusy, states: opt.States}
	deadline := start.Add(opt.Timeout)
	res := TurnResult{}
	// look captures and classifies once. wait is how long until time alone could change that.
	look := func() (done bool, wait time.Duration, err error) {
		s, err := captureScreen(ctx, c, src, opt.PaneID)
		if err != nil {
			if gone(err) {
				res.Outcome = schema.OutcomeExited
				res.Note = schema.JoinNotes(res.Note, goneNote(err))
				return true, 0, nil
			}
			return false, 0, err
		}
		if note, ok := replaced(src.Process(), s.Info); ok {
			// the new process's screen is not the one waited on
			res.Outcome = schema.OutcomeExited
			res.Note = schema.JoinNotes(res.Note, note)
			return true, 0, nil
		}
		now := time.Now()
		clock.observe(s, now)
		res.Screen = clock.last
		r, err := opt.Set.Classify(opt.Recognizer, ScreenFor(s))
		if err != nil {
			return false, 0, err
		}
		res.Result = r
		if s.Info.Dead {
			res.Outcome = schema.OutcomeExited
			res.Note = schema.JoinNotes(res.Note, fmt.Sprintf("the pane's process exited with status %d", s.Info.DeadStatus))
			return true, 0, nil
		}
		var stale time.Duration
		if r.State == recognize.AwaitingApproval {
			stale = keyFrame(ctx, c, opt.PaneID, s, now)
		}
		outcome, wait := judge.judge(r, now.Sub(clock.lastChange), stale, now)
		if outcome != "" {
			res.Outcome = outcome
			return true, 0, nil
		}
		if f := clock.next(now); f < wait {
			wait = f
		}
		return false, max(wait, time.Millisecond), nil
	}
	finish := func() TurnResult {
		res.Elapsed = time.Since(start)
		res.Note = schema.JoinNotes(schema.JoinNotes(res.Note, res.Result.Note), src.Note())
		return res
	}
	p := newPacer(src, deadline)
	for {
		done, wait, err := look()
		if done || err != nil {
			return finish(), err
		}
		if p.due(time.Now()) {
			res.Outcome = schema.OutcomeTimeout
			if r := res.Result; r.State == recognize.Busy && !r.NeedsQuiet && judge.ends(recognize.Busy) {
				// Strong busy, no time for the confirming look (--timeout 0 looks once): say busy.
				res.Outcome = schema.OutcomeBusy
				res.Note = schema.JoinNotes(res.Note, "busy was seen at the deadline and not confirmed by a second look")
			}
			return finish(), nil
		}
		if _, err := p.pause(ctx, wait); err != nil {
			return finish(), err
		}
	}
}

// keyFrame is how long more s is to be taken for the frame the pane's last key was sent to: the
// rest of KeyTakeMax when s is that screen, else 0. A mark that cannot be read says nothing (the
// next capture finds a pane that is gone).
func keyFrame(ctx context.Context, c *tmux.Client, id string, s pane.Screen, now time.Time) time.Duration {
	m, err := pane.LoadKeyMark(ctx, c, id)
	if err != nil || !m.Before(s) {
		return 0
	}
	return max(KeyTakeMax-now.Sub(m.At), 0)
}

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

// Outcomes of a wait (SPEC.md section 5).
const (
	OutcomeMatched = "matched"
	OutcomeStopped = "stopped"
	OutcomeTimeout = "timeout"
	OutcomeExited  = "exited"
)

// minCheckGap is the least time between the starts of two checks of a wait.
const minCheckGap = 20 * time.Millisecond

// TextOptions is a wait-for-text request.
type TextOptions struct {
	PaneID   string
	Match    *Matcher      // patterns that end the wait with OutcomeMatched
	Stop     *Matcher      // patterns that end it with OutcomeStopped (may be nil)
	Timeout  time.Duration // 0: check once
	Cursor   pane.Cursor   // where new output starts; zero value: now
	HasStart bool          // Cursor is set (else the wait starts now)
	MaxLines int           // newest lines kept in the result
	// Pane is the pane as just described (optional): it saves a tmux call
	// at the start; every read still checks it.
	Pane tmux.PaneInfo
}

// TextResult is how a wait-for-text ended.
type TextResult struct {
	Outcome      string
	Output       []string
	Truncated    bool
	LinesDropped int
	Cursor       pane.Cursor
	Matched      string
	MatchedLine  string
	Note         string
	Elapsed      time.Duration
	Discounted   int // lines not matched because they were the echo of typed input
}

// WaitForText waits until a logical line after the cursor matches a pattern
// (or a stop pattern), the pane exits, or the timeout passes. Lines that are
// the echo of text panectl typed (the pane's echo ledger) never match.
// Errors: tmux errors (ErrNoServer when the server goes away, a
// *tmux.NotFoundError when the pane is unknown at the start), pane.ErrBadCursor.
func WaitForText(ctx context.Context, c *tmux.Client, opt TextOptions) (TextResult, error) {
	start := time.Now()
	cur := opt.Cursor
	info := opt.Pane // the pane as last seen: plans the next read
	exited := func(err error) (TextResult, error) {
		return TextResult{Outcome: OutcomeExited, Cursor: cur, Note: goneNote(err), Elapsed: time.Since(start)}, nil
	}
	if info.ID != opt.PaneID {
		var err error
		if info, err = c.Pane(ctx, opt.PaneID); err != nil {
			return TextResult{}, err
		}
	}
	// The wait's start is taken before attaching (one tmux process), so
	// output that comes while the control client attaches is after the
	// cursor: the first check, right after attaching, reads it. Every later
	// check goes through the control client.
	if !opt.HasStart {
		r, err := pane.Read(ctx, c, opt.PaneID, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1, Guess: info})
		if gone(err) {
			return exited(err)
		}
		if err != nil {
			return TextResult{}, err
		}
		cur, info = r.Cursor, r.Pane
	}
	src, err := WatchPane(ctx, c, info)
	if gone(err) {
		return exited(err)
	}
	if err != nil {
		return TextResult{}, err
	}
	defer src.Close()
	deadline := start.Add(opt.Timeout)
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	tick, report, stopTick := progressTicker(ctx, opt.PaneID, opt.Timeout, "text matching "+strings.Join(opt.Match.raw, " | "))
	defer stopTick()
	var last, lastChange time.Time
	var seen TextResult // the last look, for a pane that vanishes
	quiet := true       // no change came within minCheckGap of the one before
	for {
		if gap := time.Since(last); !quiet && gap < minCheckGap {
			// output keeps coming: look at most every minCheckGap, so a
			// flood does not turn into back-to-back checks competing with
			// tmux for the CPU (the first change after a quiet spell is
			// checked at once)
			select {
			case <-ctx.Done():
				return TextResult{}, ctx.Err()
			case <-time.After(minCheckGap - gap):
			}
			lastChange = time.Now() // what came while throttled counts as now
		}
		last = time.Now()
		res, done, err := checkText(ctx, c, src, opt, cur, &info)
		if err != nil {
			return res, err
		}
		res.Elapsed = time.Since(start)
		if res.Outcome == OutcomeExited && res.Output == nil {
			// the pane is gone with its lines: say what was seen last
			res.Output, res.Truncated, res.LinesDropped = seen.Output, seen.Truncated, seen.LinesDropped
		}
		if res.Outcome != OutcomeExited {
			// (a control client ends with its pane: no fallback to speak of)
			res.Note = joinNotes(res.Note, src.Note())
		}
		if done {
			return res, nil
		}
		seen = res
		if !time.Now().Before(deadline) {
			res.Outcome = OutcomeTimeout
			return res, nil
		}
	wait:
		for {
			select {
			case <-ctx.Done():
				return res, ctx.Err()
			case <-timer.C:
				deadline = time.Now() // one last look at the deadline
				quiet = true
				break wait
			case <-src.Changed():
				now := time.Now()
				quiet = now.Sub(lastChange) >= minCheckGap
				lastChange = now
				break wait
			case <-tick:
				report(time.Since(start))
			}
		}
	}
}

// read is pane.Read through the source's control client when one is
// attached (no tmux process), else through c; a control client that ended
// meanwhile falls back to c.
func read(ctx context.Context, c *tmux.Client, src Source, id string, cur pane.Cursor, opt pane.ReadOptions) (pane.ReadResult, error) {
	if v := src.Via(); v != nil {
		opt.Via = v
		r, err := pane.Read(ctx, c, id, cur, opt)
		if !errors.Is(err, tmux.ErrControlClosed) {
			return r, err
		}
		opt.Via = nil
	}
	return pane.Read(ctx, c, id, cur, opt)
}

// captureScreen is pane.CaptureScreen through the source's control client
// when one is attached (no tmux process), else through c.
func captureScreen(ctx context.Context, c *tmux.Client, src Source, id string) (pane.Screen, error) {
	if v := src.Via(); v != nil {
		s, err := pane.CaptureScreenVia(ctx, v, id, false)
		if !errors.Is(err, tmux.ErrControlClosed) {
			return s, err
		}
	}
	return pane.CaptureScreen(ctx, c, id, false)
}

// checkText reads everything after cur once (one snapshot when info holds
// the pane as last seen, through the control client when attached; info is
// updated) and looks for a match.
func checkText(ctx context.Context, c *tmux.Client, src Source, opt TextOptions, cur pane.Cursor, info *tmux.PaneInfo) (TextResult, bool, error) {
	r, err := read(ctx, c, src, opt.PaneID, cur, pane.ReadOptions{Guess: *info, Ledger: true})
	if err != nil {
		if gone(err) {
			return TextResult{Outcome: OutcomeExited, Cursor: cur, Note: goneNote(err)}, true, nil
		}
		return TextResult{}, false, err
	}
	*info = r.Pane
	res := TextResult{LinesDropped: r.LinesDropped, Cursor: r.Cursor, Note: r.Note}
	end := len(r.Lines)
	for i, line := range r.Lines {
		if r.IsEcho(i) {
			if opt.Stop.Len()+opt.Match.Len() > 0 {
				if _, ok := opt.Match.Match(line); ok {
					res.Discounted++
				} else if _, ok := opt.Stop.Match(line); ok {
					res.Discounted++
				}
			}
			continue
		}
		if p, ok := opt.Stop.Match(line); ok {
			res.Outcome, res.Matched, res.MatchedLine, end = OutcomeStopped, p, line, i+1
			break
		}
		if p, ok := opt.Match.Match(line); ok {
			res.Outcome, res.Matched, res.MatchedLine, end = OutcomeMatched, p, line, i+1
			break
		}
	}
	res.Output = r.Lines[:end]
	if opt.MaxLines > 0 && len(res.Output) > opt.MaxLines {
		res.Output = res.Output[len(res.Output)-opt.MaxLines:]
		res.Truncated = true
	}
	if res.Discounted > 0 {
		res.Note = joinNotes(res.Note, fmt.Sprintf("%d line(s) matched but were discounted as the echo of typed input", res.Discounted))
	}
	if n := opt.Match.TimedOut + opt.Stop.TimedOut; n > 0 {
		res.Note = joinNotes(res.Note, fmt.Sprintf("%d regex match(es) were abandoned after %v", n, MatchTimeout))
	}
	if res.Outcome != "" {
		return res, true, nil
	}
	if r.Pane.Dead {
		res.Outcome = OutcomeExited
		res.Note = joinNotes(res.Note, fmt.Sprintf("the pane's process exited with status %d", r.Pane.DeadStatus))
		return res, true, nil
	}
	return res, false, nil
}

// gone reports whether err means the pane the wait saw alive at its start
// is gone: closed, or its tmux server exited (a server exits with its last
// pane). Both end a wait with OutcomeExited (exit 5), and goneNote says
// which it was.
func gone(err error) bool {
	return errors.Is(err, tmux.ErrPaneNotFound) || errors.Is(err, tmux.ErrNoServer)
}

func goneNote(err error) string {
	if errors.Is(err, tmux.ErrNoServer) {
		return "the tmux server exited (with the pane) during the wait"
	}
	return "the pane was closed during the wait"
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

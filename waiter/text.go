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

// TextOptions is a wait-for-text request.
type TextOptions struct {
	PaneID   string
	Match    *Matcher      // patterns that end the wait with OutcomeMatched
	Stop     *Matcher      // patterns that end it with OutcomeStopped (may be nil)
	Timeout  time.Duration // 0: check once
	Cursor   pane.Cursor   // where new output starts; zero value: now
	HasStart bool          // Cursor is set (else the wait starts now)
	MaxLines int           // newest lines kept in the result
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
	if !opt.HasStart {
		var err error
		cur, _, err = pane.Now(ctx, c, opt.PaneID)
		if err != nil {
			return TextResult{}, err
		}
	}
	src, err := Watch(ctx, c, opt.PaneID)
	if err != nil {
		return TextResult{}, err
	}
	defer src.Close()
	deadline := start.Add(opt.Timeout)
	timer := time.NewTimer(opt.Timeout)
	defer timer.Stop()
	tick, report, stopTick := progressTicker(ctx, opt.PaneID, opt.Timeout, "text matching "+strings.Join(opt.Match.raw, " | "))
	defer stopTick()
	for {
		res, done, err := checkText(ctx, c, opt, cur)
		if err != nil {
			return res, err
		}
		res.Elapsed = time.Since(start)
		res.Note = joinNotes(res.Note, src.Note())
		if done {
			return res, nil
		}
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
				break wait
			case <-src.Changed():
				break wait
			case <-tick:
				report(time.Since(start))
			}
		}
	}
}

// checkText reads everything after cur once and looks for a match.
func checkText(ctx context.Context, c *tmux.Client, opt TextOptions, cur pane.Cursor) (TextResult, bool, error) {
	r, err := pane.Read(ctx, c, opt.PaneID, cur, pane.ReadOptions{})
	if err != nil {
		if errors.Is(err, tmux.ErrPaneNotFound) {
			return TextResult{Outcome: OutcomeExited, Cursor: cur, Note: "the pane was closed during the wait"}, true, nil
		}
		return TextResult{}, false, err
	}
	ledger, err := pane.LoadLedger(ctx, c, opt.PaneID)
	if err != nil {
		if errors.Is(err, tmux.ErrPaneNotFound) {
			return TextResult{Outcome: OutcomeExited, Cursor: cur, Note: "the pane was closed during the wait"}, true, nil
		}
		return TextResult{}, false, err
	}
	res := TextResult{LinesDropped: r.LinesDropped, Cursor: r.Cursor, Note: r.Note}
	end := len(r.Lines)
	for i, line := range r.Lines {
		if ledger.IsEcho(line) {
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

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

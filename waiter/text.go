package waiter

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/journal"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// minCheckGap is the least time between the starts of two checks of a wait.
const minCheckGap = 20 * time.Millisecond

// TextOptions is a wait-for-text request.
type TextOptions struct {
	PaneID   string
	Match    *Matcher      // patterns that end the wait with schema.OutcomeMatched
	Stop     *Matcher      // patterns that end it with schema.OutcomeStopped (may be nil)
	Timeout  time.Duration // 0: check once
	Cursor   pane.Cursor   // where new output starts; zero value: now
	HasStart bool          // Cursor is set (else the wait starts now)
	MaxLines int           // newest lines kept in the result
	// Pane, optional, is the pane as just described. With a cursor it saves a tmux call at the
	// start. Every read still checks it.
	Pane tmux.PaneInfo
}

// TextResult is how a wait-for-text ended.
type TextResult struct {
	Outcome      schema.Outcome
	Output       []string
	Truncated    bool
	LinesDropped int
	Cursor       pane.Cursor
	Matched      string
	MatchedLine  string
	Note         string
	Elapsed      time.Duration
	Discounted   int // lines not matched because they were the echo of typed input
	// unread: lines after the match were read but Cursor is after them. The read could not make
	// a cursor after the matched line (pane.ReadResult.CursorAfter).
	unread bool
}

// WaitForText waits until a logical line after the cursor matches a pattern or a stop pattern. The
// pane exiting or the timeout ends it too. Echo of text panectl typed never matches (the echo
// ledger). A process replaced by respawn-pane -k ends it as schema.OutcomeExited, with a note
// naming both (replaced.go). Without a match, a tab in a pattern on tmux before 3.6 gets a note
// (tabNote).
//
// Errors: ErrNoServer when the server goes away, and *tmux.NotFoundError for a pane unknown at the
// start. A *tmux.NotRespondingError comes about 5 s after the server stopped answering, or at the
// deadline plus its last look's margin. pane.ErrBadCursor is a cursor of another pane, or of a
// process the pane no longer ran.
//
// The wait captures once through its control client, aligned with the output stream. It then
// matches lines on the %output bytes as they arrive (pane.Stream). One command without a capture
// confirms a match. It reads the echo ledger, since a panectl process may have typed meanwhile, and
// the cursor, history, size and modes. When the stream cannot say what a capture would, the wait
// captures again (see apply).
func WaitForText(ctx context.Context, c *tmux.Client, opt TextOptions) (TextResult, error) {
	res, err := waitForText(ctx, c, opt)
	if err == nil && (res.Outcome == schema.OutcomeTimeout || res.Outcome == schema.OutcomeExited) &&
		(opt.Match.hasTab() || opt.Stop.hasTab()) {
		if cells, _ := c.Tabs(); !cells {
			res.Note = schema.JoinNotes(res.Note, tabNote)
		}
	}
	return res, err
}

// tabNote explains why a pattern with a tab did not match. tmux before 3.6 writes a tab as a cursor
// move over blank cells, so the screen holds spaces there. From 3.6 such a tab is kept as a tab
// cell. A journal keeps the tab, a task's or a journaled pane's.
const tabNote = "a pattern holds a tab, but this tmux (before 3.6) keeps a tab on the screen as the spaces it moved over, " +
	"so it matches only lines read from a journal; to match the screen, use --regex with \\s+ or ' +' where the tab is"

// waitForText is WaitForText without the note on tabs.
func waitForText(ctx context.Context, c *tmux.Client, opt TextOptions) (TextResult, error) {
	start := time.Now()
	if res, done := lookFirst(ctx, c, &opt); done {
		res.Elapsed = time.Since(start)
		return res, nil
	}
	cur, info, wasGone, err := textStart(ctx, c, opt)
	exited := func(err error) (TextResult, error) {
		return TextResult{Outcome: schema.OutcomeExited, Cursor: cur, Note: goneNote(err), Elapsed: time.Since(start)}, nil
	}
	if wasGone {
		return exited(err) // it was there a moment ago
	}
	if err != nil {
		return TextResult{}, err
	}
	src, err := watchPane(ctx, c, info, true)
	if gone(err) {
		return exited(err)
	}
	if err != nil {
		return TextResult{}, err
	}
	defer src.Close()
	w := &textWait{c: c, src: src, opt: opt, cur: cur, info: info, quiet: true, reread: true}
	if cur.Journal || cur.Special == pane.CursorHistory {
		// A journaled pane read from a journal point or its oldest line. Every check reads the
		// journal (journal.ReadPane), which loses nothing to history-limit.
		if w.journal, err = journal.DirOf(ctx, c, info); err != nil {
			return TextResult{}, err
		}
	}
	if sub := src.subscription(); sub != nil {
		pane.Prefetch(sub) // the pane's geometry and ledger come with its output
	}
	p := newPacer(src, start.Add(opt.Timeout))
	defer Waiting(ctx, opt.PaneID, opt.Timeout, "text matching "+strings.Join(opt.Match.raw, " | "))()
	for {
		res, done, checked, err := w.round(ctx)
		if err != nil {
			return res, err
		}
		if checked {
			res = w.finish(res, start)
			if done {
				return res, nil
			}
			w.seen = res
		}
		if p.due(time.Now()) {
			res = w.seen
			res.Elapsed = time.Since(start)
			res.Outcome = schema.OutcomeTimeout
			return res, nil
		}
		w.reread = false
		if err := w.pause(ctx, p); err != nil {
			return w.seen, err
		}
	}
}

// textStart finds where the wait starts and describes the pane. The start comes before subscribing,
// so output during the attach is after the cursor. Without a description, the start's snapshot
// gives one. wasGone says the pane described a moment ago is gone.
func textStart(ctx context.Context, c *tmux.Client, opt TextOptions) (_ pane.Cursor, _ tmux.PaneInfo, wasGone bool, _ error) {
	cur, info := opt.Cursor, opt.Pane
	described := info.ID == opt.PaneID && info.SessionID != ""
	switch {
	case !opt.HasStart:
		r, err := pane.Read(ctx, c, opt.PaneID, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1, Guess: info})
		if err != nil {
			return cur, info, gone(err) && described, err
		}
		return r.Cursor, r.Pane, false, nil
	case !described:
		info, err := c.Pane(ctx, opt.PaneID)
		return cur, info, false, err
	}
	return cur, info, false, nil
}

// lookFirst looks once through a tmux process before a control client attaches. It does so for a
// wait from a given cursor on a pane not yet described, where textStart would ask tmux anyway. A
// pattern already there ends the wait with no client attached. Else the look describes the pane
// (opt.Pane) for textStart, and the wait goes on as before: the first round reads again. A look
// from the oldest line counts only on a pane without a journal (its row says), which would be read
// instead.
func lookFirst(ctx context.Context, c *tmux.Client, opt *TextOptions) (TextResult, bool) {
	described := opt.Pane.ID == opt.PaneID && opt.Pane.SessionID != ""
	if !opt.HasStart || described || opt.Cursor.Journal {
		return TextResult{}, false
	}
	info := opt.Pane
	res, done, _, err := checkText(ctx, c, &source{}, *opt, opt.Cursor, &info, false)
	if err != nil || info.ID != opt.PaneID {
		return TextResult{}, false // textStart asks again and reports it
	}
	opt.Pane = info
	if opt.Cursor.Special == pane.CursorHistory && info.Journal != "" {
		return TextResult{}, false
	}
	return res, done && (res.Outcome == schema.OutcomeMatched || res.Outcome == schema.OutcomeStopped)
}

// round makes one check. It reads the pane when the stream cannot say what a capture would. Else it
// decides on the stream if a line may match. checked is false when nothing was decided.
func (w *textWait) round(ctx context.Context) (res TextResult, done, checked bool, err error) {
	if !w.reread && w.stream != nil {
		if !w.candidate() {
			return TextResult{}, false, false, nil
		}
		res, done, checked, err = w.onStream(ctx)
		if checked || w.stream != nil || err != nil {
			return res, done, checked, err
		}
		w.reread = true // it could not say: read the pane
	}
	if err := w.throttle(ctx); err != nil {
		return TextResult{}, false, false, err
	}
	res, done, err = w.capture(ctx)
	return res, done, true, err
}

// onStream decides on a stream line that may match. The pane as read right after the output needs
// no tmux command, so it waits for that read.
func (w *textWait) onStream(ctx context.Context) (TextResult, bool, bool, error) {
	switch {
	case w.fresh != nil:
		res, done, checked := w.decide(*w.fresh)
		return res, done, checked, nil
	case w.prefetching():
		return TextResult{}, false, false, nil
	}
	if err := w.throttle(ctx); err != nil {
		return TextResult{}, false, false, err
	}
	return w.confirm(ctx)
}

// throttle paces the checks. While output keeps coming, tmux is asked at most every minCheckGap. A
// flood then does not become back-to-back checks that compete with tmux for the CPU. The first
// change after a quiet spell is checked at once.
func (w *textWait) throttle(ctx context.Context) error {
	if gap := time.Since(w.last); !w.quiet && gap < minCheckGap {
		if !sleepCtx(ctx, minCheckGap-gap) {
			return ctx.Err()
		}
		w.lastChange = time.Now() // what came while throttled counts as now
		w.reread = w.follow() || w.reread
	}
	w.last = time.Now()
	return nil
}

// finish adds the time and the source's note. A pane gone keeps the lines last seen.
func (w *textWait) finish(res TextResult, start time.Time) TextResult {
	res.Elapsed = time.Since(start)
	if res.Outcome == schema.OutcomeExited && res.Output == nil {
		res.Output, res.Truncated, res.LinesDropped = w.seen.Output, w.seen.Truncated, w.seen.LinesDropped
	}
	if res.Outcome != schema.OutcomeExited {
		// a control client ends with its pane, so there is no fallback to speak of
		res.Note = schema.JoinNotes(res.Note, w.src.Note())
	}
	return res
}

// pause waits for a change, the journal's lag or the deadline. It then plans the next round.
func (w *textWait) pause(ctx context.Context, p *pacer) error {
	lag := time.Duration(math.MaxInt64)
	if !w.lagDue.IsZero() {
		lag = time.Until(w.lagDue)
	}
	changed, err := p.pause(ctx, lag)
	now := time.Now()
	switch {
	case err != nil:
		return err
	case changed:
		w.quiet = now.Sub(w.lastChange) >= minCheckGap
		w.lastChange = now
		w.reread = w.follow()
		if w.journal != "" {
			w.lagDue = now.Add(journalLagWait)
		}
	case p.due(now):
		w.quiet, w.reread = true, true // one last look at the deadline
	default:
		// pipe-pane may write the journal after the client saw the output: look again
		w.lagDue, w.reread = time.Time{}, true
	}
	return nil
}

// Test hooks: followStream off makes every look a capture. streamDecisions counts stream decisions.
var (
	followStream    = true
	streamDecisions atomic.Int64
)

// textWait is the state of one WaitForText between looks.
type textWait struct {
	c    *tmux.Client
	src  *source
	opt  TextOptions
	cur  pane.Cursor
	info tmux.PaneInfo // the pane as last seen: plans the next read

	// stream follows the pane since the last capture, nil when none or it gave up. frozenHits
	// counts the frozen lines below frozenChecked that match a pattern, echo or not.
	stream        *pane.Stream
	frozenChecked int
	frozenHits    int
	// fresh is the geometry and ledger prefetched after the stream's last output, else nil.
	fresh *described
	// journal is the journal directory of a journaled pane read from its journal (no stream).
	journal string

	// Pacing: last is when the last check began, lastChange when the last change came. lagDue is
	// when a journal wait looks again. seen is the last look, for a pane that vanishes. quiet says
	// no change came within minCheckGap of the previous. reread says the next round reads the pane.
	last, lastChange, lagDue time.Time
	seen                     TextResult
	quiet, reread            bool
}

// described is the pane's geometry and echo ledger at a point of the output stream.
type described struct {
	pane   tmux.PaneInfo
	ledger pane.Ledger
}

// journalLagWait is how long after a change a journal wait looks once more. The journal's writer
// copies output a moment after tmux reads it.
const journalLagWait = 50 * time.Millisecond

// follow feeds the stream what came since the last look. It returns true when the wait must look.
func (w *textWait) follow() bool {
	items, lost := w.src.take(false)
	return w.apply(items, lost)
}

// apply feeds recorded events to the stream in order. It returns true and drops the stream when the
// wait must capture. Output was lost, the pane may have changed otherwise, or the stream gave up.
// It gives up on output that moves to another row, the alternate screen or a clear.
func (w *textWait) apply(items []tmux.ControlEvent, lost bool) bool {
	if w.stream == nil {
		return true
	}
	for _, e := range items {
		switch e.Kind {
		case tmux.EventOutput:
			w.stream.Feed(e.Data)
			w.fresh = nil
		case tmux.EventDescribed:
			if e.Err == nil {
				w.fresh = &described{e.Pane, pane.LedgerOf(e.Options)}
			}
		case tmux.EventChange, tmux.EventPause:
			lost = true
		}
	}
	if lost || w.stream.Invalid() != "" {
		w.stream, w.fresh = nil, nil
		return true
	}
	return false
}

// prefetching reports whether the pane's state after the output is on its way.
func (w *textWait) prefetching() bool {
	sub := w.src.subscription()
	return sub != nil && sub.Prefetching()
}

// candidate reports whether a stream line after the cursor matches a pattern or a stop pattern,
// echo aside. Only then can the wait end. The ledger and the pane's state after the output decide.
func (w *textWait) candidate() bool {
	st := w.stream
	matches := func(line string) bool {
		if _, ok := w.opt.Stop.Match(line); ok {
			return true
		}
		_, ok := w.opt.Match.Match(line)
		return ok
	}
	for ; w.frozenChecked < st.FrozenLen(); w.frozenChecked++ {
		if matches(st.Frozen(w.frozenChecked)) {
			w.frozenHits++
		}
	}
	if w.frozenHits > 0 {
		return true
	}
	for _, l := range st.Open() {
		if matches(l) {
			return true
		}
	}
	return false
}

// capture reads everything after the cursor via the control client, decides, and seeds the stream.
func (w *textWait) capture(ctx context.Context) (TextResult, bool, error) {
	w.stream, w.fresh, w.frozenChecked, w.frozenHits = nil, nil, 0, 0
	if w.journal != "" {
		return w.readJournal(ctx)
	}
	sub := w.src.subscription()
	res, done, r, err := checkText(ctx, w.c, w.src, w.opt, w.cur, &w.info, sub != nil)
	_, lost := w.src.take(true) // what came before it is in the capture
	if err == nil && !done && r.Stream != nil && sub != nil && w.src.subscription() == sub && followStream {
		w.stream = r.Stream
	}
	if lost {
		w.stream = nil
	}
	return res, done, err
}

// readJournal reads the journal after the cursor (journal.ReadPane) and the echo ledger, and
// decides. It discounts echo by text, since a journal has no rows to place it in. That includes
// text submitted over pane.EchoWindow ago whose entry is held by place (pane.Ledger.Unplaced).
func (w *textWait) readJournal(ctx context.Context) (TextResult, bool, error) {
	w.src.take(true)
	r, err := journal.ReadPane(ctx, w.c, w.info, w.cur, pane.ReadOptions{})
	if err == nil {
		r.Ledger, err = pane.LoadLedgerVia(ctx, via(w.c, w.src), w.opt.PaneID)
	}
	note, ok := replacedErr(w.src.Process(), err)
	if !ok && err == nil {
		note, ok = replaced(w.src.Process(), r.Pane)
	}
	if ok {
		return TextResult{Outcome: schema.OutcomeExited, Cursor: w.cur, Note: note}, true, nil
	}
	if err != nil {
		if gone(err) {
			return TextResult{Outcome: schema.OutcomeExited, Cursor: w.cur, Note: goneNote(err)}, true, nil
		}
		return TextResult{}, false, err
	}
	w.info = r.Pane
	r.Unplaced = r.Ledger.Unplaced(r.Lines)
	r.Echo = r.Unplaced
	res, done := decideText(w.opt, r)
	return res, done, nil
}

// confirm reads the geometry and echo ledger with one command, without a capture, and decides on
// the stream. ok is false, and the stream dropped, when the stream cannot say what a capture would.
func (w *textWait) confirm(ctx context.Context) (TextResult, bool, bool, error) {
	sub := w.src.subscription()
	if sub == nil {
		w.stream = nil
		return TextResult{}, false, false, nil
	}
	info, ledger, err := pane.Describe(ctx, sub)
	if err != nil {
		if gone(err) {
			return TextResult{Outcome: schema.OutcomeExited, Cursor: w.cur, Note: goneNote(err)}, true, true, nil
		}
		w.stream = nil // (a client that ended meanwhile: a capture says why)
		return TextResult{}, false, false, nil
	}
	items, lost := w.src.take(true)
	if w.apply(items, lost) {
		return TextResult{}, false, false, nil
	}
	res, done, ok := w.decide(described{info, ledger})
	return res, done, ok, nil
}

// decide decides on the stream's lines with the geometry and ledger read after them. ok is false,
// and the stream dropped, when the pane is not where the stream says.
func (w *textWait) decide(d described) (TextResult, bool, bool) {
	st := w.stream
	if !st.Check(d.pane) {
		w.stream, w.fresh = nil, nil
		return TextResult{}, false, false
	}
	lines := st.Lines()
	echo, ok := st.EchoOf(d.ledger, len(lines))
	if !ok {
		// Echo is also discounted by where it landed, in rows and prompts, which only a capture can
		// say. For text submitted long before, the stream keeps what its capture found.
		w.stream, w.fresh = nil, nil
		return TextResult{}, false, false
	}
	w.info = d.pane
	streamDecisions.Add(1)
	r := pane.ReadResult{Lines: lines, Cursor: st.Cursor(), DroppedExact: true, Pane: d.pane, Ledger: d.ledger, Echo: echo}
	res, done := decideText(w.opt, r)
	if res.unread {
		// lines came after the match: a capture makes the cursor after it
		w.stream, w.fresh = nil, nil
		return TextResult{}, false, false
	}
	return res, done, true
}

// read is pane.Read through the source's control client when attached, starting no tmux process.
// Else, or once that client ended, it reads through c.
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

// captureScreen is pane.CaptureScreen through the source's control client if attached, else c.
func captureScreen(ctx context.Context, c *tmux.Client, src Source, id string) (pane.Screen, error) {
	if v := src.Via(); v != nil {
		s, err := pane.CaptureScreenVia(ctx, v, id, false)
		if !errors.Is(err, tmux.ErrControlClosed) {
			return s, err
		}
	}
	return pane.CaptureScreen(ctx, c, id, false)
}

// screenAndPrompt is shell.ScreenAndPrompt through the source's control client if attached, else c.
func screenAndPrompt(ctx context.Context, c *tmux.Client, src Source, id string) (pane.Screen, shell.Prompt, error) {
	if v := src.Via(); v != nil {
		s, p, err := shell.ScreenAndPrompt(ctx, v, id)
		if !errors.Is(err, tmux.ErrControlClosed) {
			return s, p, err
		}
	}
	return shell.ScreenAndPrompt(ctx, c, id)
}

// screenLook is what screenAndPrompt read.
type screenLook struct {
	scr    pane.Screen
	prompt shell.Prompt
	err    error
}

// screenBeside runs screenAndPrompt in the background. A read the caller makes meanwhile goes out
// beside it: one round trip through the control client for both.
func screenBeside(ctx context.Context, c *tmux.Client, src Source, id string) <-chan screenLook {
	ch := make(chan screenLook, 1)
	go func() {
		scr, prompt, err := screenAndPrompt(ctx, c, src, id)
		ch <- screenLook{scr, prompt, err}
	}()
	return ch
}

// checkText reads everything after cur once and looks for a match. It takes one snapshot when info
// is the pane as last seen, and updates info. With stream, the read also seeds r.Stream.
func checkText(ctx context.Context, c *tmux.Client, src Source, opt TextOptions, cur pane.Cursor, info *tmux.PaneInfo, stream bool) (TextResult, bool, pane.ReadResult, error) {
	r, err := read(ctx, c, src, opt.PaneID, cur, pane.ReadOptions{Guess: *info, Ledger: true, Stream: stream})
	if note, ok := replacedErr(src.Process(), err); ok {
		return TextResult{Outcome: schema.OutcomeExited, Cursor: cur, Note: note}, true, pane.ReadResult{}, nil
	}
	if err != nil {
		if gone(err) {
			return TextResult{Outcome: schema.OutcomeExited, Cursor: cur, Note: goneNote(err)}, true, r, nil
		}
		return TextResult{}, false, r, err
	}
	*info = r.Pane
	if note, ok := replaced(src.Process(), r.Pane); ok {
		// a cursor that names no process: screen or history
		return TextResult{Outcome: schema.OutcomeExited, Cursor: cur, Note: note}, true, pane.ReadResult{}, nil
	}
	res, done := decideText(opt, r)
	return res, done, r, nil
}

// decideText looks for a match in a read's lines, a capture's or a stream's. The first line that
// matches a stop pattern or a pattern ends the wait. Echo of typed input is skipped, by text and by
// place. If the read could not place the cursor (r.Uncertain), only lines from r.Fresh on count,
// and not those the cursor saw (r.Seen).
func decideText(opt TextOptions, r pane.ReadResult) (TextResult, bool) {
	res := TextResult{LinesDropped: r.LinesDropped, Cursor: r.Cursor, Note: r.Note}
	end := len(r.Lines)
	res.Note = schema.JoinNotes(res.Note, oldNote(r))
	unplaced := 0 // of Discounted: by text alone, their place unknown (ReadResult.Unplaced)
	for i, line := range r.Lines {
		if r.Old(i) {
			continue
		}
		if r.IsEcho(i) {
			if echoMatches(opt, line) {
				res.Discounted++
				if i < len(r.Unplaced) && r.Unplaced[i] && !r.Ledger.IsEcho(line) {
					unplaced++
				}
			}
			continue
		}
		if p, ok := opt.Stop.Match(line); ok {
			res.Outcome, res.Matched, res.MatchedLine, end = schema.OutcomeStopped, p, line, i+1
			break
		}
		if p, ok := opt.Match.Match(line); ok {
			res.Outcome, res.Matched, res.MatchedLine, end = schema.OutcomeMatched, p, line, i+1
			break
		}
	}
	res.Output = r.Lines[:end]
	if res.Outcome != "" && end < len(r.Lines) {
		// The next wait from this cursor starts right after the line that ended this one.
		if c, ok := r.CursorAfter(end - 1); ok {
			res.Cursor = c
		} else {
			res.unread = true
			res.Note = schema.JoinNotes(res.Note, fmt.Sprintf("the cursor is after %d line(s) read after the match", len(r.Lines)-end))
		}
	}
	if opt.MaxLines > 0 && len(res.Output) > opt.MaxLines {
		res.Output = res.Output[len(res.Output)-opt.MaxLines:]
		res.Truncated = true
	}
	if res.Discounted > 0 {
		res.Note = schema.JoinNotes(res.Note, fmt.Sprintf("%d line(s) matched but were discounted as the echo of typed input", res.Discounted))
	}
	if unplaced > 0 {
		res.Note = schema.JoinNotes(res.Note, fmt.Sprintf("%d of them only by their text: they show text submitted more than %v ago "+
			"whose rows cannot be placed (history trimmed or cleared before them, or a journal read), so output identical to it is discounted too", unplaced, pane.EchoWindow))
	}
	if n := timedOut(opt.Match) + timedOut(opt.Stop); n > 0 {
		res.Note = schema.JoinNotes(res.Note, fmt.Sprintf("%d regex match(es) were abandoned after %v", n, MatchTimeout))
	}
	if res.Outcome != "" {
		return res, true
	}
	if r.Pane.Dead {
		res.Outcome = schema.OutcomeExited
		res.Note = schema.JoinNotes(res.Note, fmt.Sprintf("the pane's process exited with status %d", r.Pane.DeadStatus))
		return res, true
	}
	return res, false
}

// oldNote says which lines of an uncertain read were not matched (ReadResult.Old).
func oldNote(r pane.ReadResult) string {
	note := ""
	if r.Uncertain && r.Fresh > 0 {
		note = fmt.Sprintf("the first %d line(s) may be from before the cursor and were not matched", r.Fresh)
	}
	seen := 0
	for i := r.Fresh; i < len(r.Seen); i++ {
		if r.Seen[i] {
			seen++
		}
	}
	if seen > 0 {
		note = schema.JoinNotes(note, fmt.Sprintf("%d line(s) were shown or in history when the cursor was made, and were not matched", seen))
	}
	return note
}

// echoMatches reports whether an echo line matches a pattern or stop pattern, and so is discounted.
func echoMatches(opt TextOptions, line string) bool {
	if opt.Stop.Len()+opt.Match.Len() == 0 {
		return false
	}
	if _, ok := opt.Match.Match(line); ok {
		return true
	}
	_, ok := opt.Stop.Match(line)
	return ok
}

// timedOut is m.TimedOut (0 for no matcher: Stop may be nil).
func timedOut(m *Matcher) int {
	if m == nil {
		return 0
	}
	return m.TimedOut
}

// gone reports whether err means the pane seen alive at the start is gone. It was closed, or its
// server exited with its last pane. Both end a wait as schema.OutcomeExited (exit 5); goneNote says
// which.
func gone(err error) bool {
	return errors.Is(err, tmux.ErrPaneNotFound) || errors.Is(err, tmux.ErrNoServer)
}

func goneNote(err error) string {
	if errors.Is(err, tmux.ErrNoServer) {
		return "the tmux server exited (with the pane) during the wait"
	}
	return "the pane was closed during the wait"
}

// goneDuring makes a gone error unwrap to tmux.ErrPaneExited (exit 5), for an action on a pane seen
// alive. A wait reports the same end (schema.OutcomeExited). Other errors pass unchanged.
func goneDuring(id, action string, err error) error {
	if err == nil || !gone(err) || errors.Is(err, tmux.ErrPaneExited) {
		return err
	}
	what := "the pane was closed"
	if errors.Is(err, tmux.ErrNoServer) {
		what = "the tmux server exited (with the pane)"
	}
	return fmt.Errorf("%w: pane %s: %s during %s (%v)", tmux.ErrPaneExited, id, what, action, err)
}

package waiter

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// Typing and submission (SPEC.md sections 3 and 8).
const (
	// burstSettle is the least time between typed text and its Enter. Agent composers (Codex,
	// Gemini CLI) take a CR within 50-150 ms of a burst as a pasted newline, not a submission.
	burstSettle = 200 * time.Millisecond
	// drawQuiet: a screen unchanged this long has drawn what it took.
	drawQuiet = 80 * time.Millisecond
	// unseenQuiet is how long the screen must rest before Enter while the text does not show. A
	// slow program may not have drawn it yet.
	unseenQuiet = 400 * time.Millisecond
	// settleMax bounds the wait for the text to show, verifyMax the wait for a submission.
	settleMax = 2 * time.Second
	verifyMax = 1500 * time.Millisecond
	// lookEvery paces the looks while settling and verifying.
	lookEvery = 20 * time.Millisecond
)

// SendOptions asks to type Text (send-text), validated Keys (send-keys) or Bytes (send-ascii).
type SendOptions struct {
	Info   tmux.PaneInfo // the pane as just described
	Action string        // "send-text", "send-keys", "send-ascii": names the lock holder
	Text   string
	Keys   []string
	Bytes  []byte
	Submit bool // send-text: press Enter once the program has taken the text, and verify
	// WhenReady waits for the pane to await input first, else types nothing (*NotReadyError).
	WhenReady *Readiness
	// Set classifies a program's screen, never a shell's. Before typing, a dialog refuses a
	// submission (*DialogError) and is named in plain typing's note. After a submission, busy means
	// it was taken. When Set is nil, Recognizers loads it on first use. With neither, only the
	// input line counts.
	Set         *recognize.Set
	Recognizers func() (*recognize.Set, error)
	Deadline    time.Time
}

// DialogError says the pane's program shows a dialog, so --submit typed nothing. Its recognizer
// says awaiting_approval. The text and Enter would have answered it: Enter picks the highlighted
// option, and Codex takes y, p, a. It unwraps to ErrRefused (exit 3).
type DialogError struct {
	PaneID string
	Result recognize.Result
}

// Error names the dialog by its evidence and says what to do.
func (e *DialogError) Error() string {
	return fmt.Sprintf("pane %s shows a dialog that awaits a decision (%s); --submit would have typed into it and its Enter would have answered it, so nothing was typed: answer the dialog first (panectl answer %s yes|no|always|N picks an option by its text; or send-keys, e.g. Escape, Down or Enter), or wait-for-turn until the pane awaits input, then send again (send-text --when-ready does both checks)", e.PaneID, describe(e.Result), e.PaneID)
}

// Unwrap is ErrRefused.
func (e *DialogError) Unwrap() error { return ErrRefused }

// describe is a classification as "state awaiting_approval, recognizer claude, rule
// dialog-option-list in bottom:14: \"❯ 1. Yes\"".
func describe(r recognize.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "state %s", r.State)
	if r.Recognizer != "" {
		fmt.Fprintf(&b, ", recognizer %s", r.Recognizer)
	}
	if ev := r.Evidence; ev.Rule != "" {
		fmt.Fprintf(&b, ", rule %s in %s: %q", ev.Rule, ev.Region, ev.Line)
	}
	return b.String()
}

// SendResult is what typing did.
type SendResult struct {
	Cursor    pane.Cursor // from just before typing
	Token     string      // Cursor to print, its record saved (pane.Token); "" if not yet
	Submitted *bool       // with Submit: whether the submission took effect (nil: not asked)
	Note      string
}

// LineTooLongError: a line is longer than a canonical terminal passes (proc.MaxCanonLine).
type LineTooLongError struct {
	PaneID string
	Len    int
}

// Error says why the line cannot be typed and what to do.
func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("pane %s: its terminal is in canonical mode (the program reads whole lines that the kernel edits) and a line there holds at most %d bytes; this line would be %d bytes and the kernel would cut it, so nothing was typed (send it in shorter lines, or from a file)", e.PaneID, proc.MaxCanonLine, e.Len)
}

// Unwrap makes it invalid input.
func (e *LineTooLongError) Unwrap() error { return ErrInvalid }

// checkPaste refuses multi-line text holding a bracketed-paste marker (ErrInvalid, exit 2). Such
// text goes as one bracketed paste (tmux.SendText). ESC[201~ would end the paste early, and the
// shell would run the rest without an Enter. So untrusted text could run commands. ESC[200~ would
// open a paste inside the paste. Terminals strip or refuse them for the same reason.
func checkPaste(text string) error {
	if !strings.Contains(text, "\n") {
		return nil // typed as keys, not pasted: its bytes reach the program as they are
	}
	for _, m := range []string{"\x1b[201~", "\x1b[200~"} {
		if i := strings.Index(text, m); i >= 0 {
			return fmt.Errorf("%w: the text holds the bracketed-paste marker ESC%s at byte %d; text with a newline is sent as one bracketed paste, which the marker would break (ESC[201~ ends it: the shell would run the lines after it at once), so nothing was typed; remove it, or send its lines one by one (send-text without a newline, send-keys Enter)", ErrInvalid, m[1:], i)
		}
	}
	return nil
}

// Send types into a pane. A dead pane, or one that goes away meanwhile, is tmux.ErrPaneExited (exit
// 5). So is a process replaced by respawn-pane during a submission, with both processes named. A
// pane in copy mode is taken out of it, and Note says so. With WhenReady the pane must await input.
// Send refuses a line too long for a canonical terminal (*LineTooLongError), and multi-line text
// with a paste marker.
//
// Submit holds the pane's action lock until Deadline (lock.Acquire in pane/lock). After waiting behind
// another action, the pane must be as it was, else nothing is typed (*ChangedWhileWaitingError).
// Enter is its own keystroke, once the program took the text. The submission is then verified, with
// one more Enter if the text still sits there. Submitted says how it went.
func Send(ctx context.Context, c *tmux.Client, opt SendOptions) (_ SendResult, err error) {
	defer func() { err = goneDuring(opt.Info.ID, opt.Action, err) }() // (exit 5, as the waits)
	id := opt.Info.ID
	var res SendResult
	if err := checkPaste(opt.Text); err != nil {
		return res, err
	}
	if err := alive(opt.Info); err != nil {
		return res, err
	}
	if opt.Submit {
		// behind another action: refused when the pane changed meanwhile
		lock, err := acquireUnchanged(ctx, c, id, opt.Action, opt.Deadline)
		if err != nil {
			return res, err
		}
		defer lock.Release(ctx)
	}
	info, rec, note, err := readyToType(ctx, c, opt)
	res.Note = note
	if err != nil {
		return res, err
	}
	set, shown, note, err := checkDialog(ctx, c, opt, info)
	res.Note = schema.JoinNotes(res.Note, note)
	if err != nil {
		return res, err
	}
	if shown != "" {
		rec = shown
	}
	r, err := pane.Read(ctx, c, id, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1, Guess: info, Ledger: true})
	if err != nil {
		return res, err
	}
	res.Cursor = r.Cursor
	// a wait then knows the frame this key was sent to (pane.KeyMark)
	before, err := pane.CaptureScreen(ctx, c, id, false)
	if err != nil {
		return res, err
	}
	// (the cursor's record is saved in the same tmux call)
	tok, save := pane.Token(id, r.Cursor)
	var with []tmux.Command
	if save != nil {
		with = append(with, save)
	}
	if err := pane.MarkKey(ctx, c, id, before, with...); err != nil {
		return res, err
	}
	res.Token = tok
	switch {
	case opt.Keys != nil:
		return res, sendKeys(ctx, c, id, r.Ledger, opt.Keys)
	case opt.Bytes != nil:
		return res, c.SendBytes(ctx, id, opt.Bytes)
	}
	l := r.Ledger.WithMarkers(echoPrefixes(set, rec))
	if n := len(r.Lines); n > 0 && secretPrompt().MatchString(r.Lines[n-1]) {
		l = l.WithSecret() // a password prompt a line editor draws (fish's read -s)
	}
	return typeText(ctx, c, opt, info, set, l, res)
}

// secretPrompt is a line that asks for a secret, the cursor after it. A
// line editor reads such a secret in raw mode, as it reads any line, so the
// terminal's mode cannot tell it.
var secretPrompt = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(pass(word|phrase|code)?|secret|token|pin|otp)\b[^:>]{0,40}[:>]\s*$`)
})

// echoPrefixes are the transcript markers of recognizer id (Manifest.EchoPrefixes). The echo of
// typed text shows after them. They are nil when the recognizer is not known.
func echoPrefixes(set *recognize.Set, id string) []string {
	if set == nil || id == "" {
		return nil
	}
	if m := set.Manifest(id); m != nil {
		return m.EchoPrefixes
	}
	return nil
}

// readyToType waits for readiness, describes the pane again if it may have changed, and leaves copy
// mode. rec is the recognizer that found the pane ready, "" without WhenReady.
func readyToType(ctx context.Context, c *tmux.Client, opt SendOptions) (info tmux.PaneInfo, rec, note string, err error) {
	info = opt.Info
	if opt.WhenReady != nil {
		r, err := WhenReady(ctx, c, info.ID, *opt.WhenReady, opt.Deadline)
		if err != nil {
			return info, "", "", err
		}
		rec = r.Recognizer
	}
	if opt.Submit || opt.WhenReady != nil || info.InMode {
		if info, err = c.Pane(ctx, info.ID); err != nil {
			return info, rec, "", err
		}
		if err := alive(info); err != nil {
			return info, rec, "", err
		}
	}
	if !info.InMode {
		return info, rec, "", nil
	}
	if err := c.LeaveMode(ctx, info.ID); err != nil {
		return info, rec, "", err
	}
	return info, rec, "the pane was in copy mode (pane_in_mode); it was left so that the keys reach the program", nil
}

// checkDialog loads the recognizers for text typed to a program, never a shell. A dialog refuses a
// submission (*DialogError). Plain typing goes on, and the note names the dialog. rec is the
// recognizer auto picked for the screen, "" when it did not look.
func checkDialog(ctx context.Context, c *tmux.Client, opt SendOptions, info tmux.PaneInfo) (set *recognize.Set, rec, note string, err error) {
	set = opt.Set
	text := opt.Keys == nil && opt.Bytes == nil
	if !text || isShell(info) {
		// a shell is not an agent: nothing to load or look at
		return set, "", "", nil
	}
	if set == nil && opt.Recognizers != nil {
		if set, err = opt.Recognizers(); err != nil {
			return set, "", "", err
		}
	}
	if opt.WhenReady != nil || set == nil {
		return set, "", "", nil
	}
	d, _, shown, err := dialogShown(ctx, c, info.ID, set, recognize.AutoID, opt.Submit)
	switch {
	case err != nil:
		return set, "", "", err
	case shown && opt.Submit:
		return set, d.Recognizer, "", &DialogError{PaneID: info.ID, Result: d}
	case shown:
		return set, d.Recognizer, fmt.Sprintf("the pane showed a dialog (%s): the text went to it, not to a prompt", describe(d)), nil
	}
	return set, d.Recognizer, "", nil
}

// typeText types opt.Text, submitting with opt.Submit. It refuses a line too long for a canonical
// tty.
func typeText(ctx context.Context, c *tmux.Client, opt SendOptions, info tmux.PaneInfo, set *recognize.Set, l pane.Ledger, res SendResult) (SendResult, error) {
	id := info.ID
	mode, _ := proc.ReadTTYMode(info.TTY) // unknown when unreadable: no canonical check
	if mode.Known && mode.Canonical && !mode.Echo {
		l = l.WithSecret() // a password prompt: no text at rest in tmux options
	}
	if mode.Known && mode.Canonical {
		l = l.WithAhead() // a shell's line editor may draw it again after its prompt
	}
	if mode.Known && mode.Canonical {
		pending, _ := l.Pending()
		if n := longestLine(pending, opt.Text, mode.CRToNL); n > proc.MaxCanonLine {
			return res, &LineTooLongError{PaneID: id, Len: n}
		}
	}
	if !opt.Submit {
		return res, pane.Type(ctx, c, id, l, opt.Text, false)
	}
	if mode.Known && mode.Canonical && mode.CRToNL {
		// The kernel ends the line at Enter whenever it comes: nothing to outwait or verify.
		if err := pane.Type(ctx, c, id, l, opt.Text, true); err != nil {
			return res, err
		}
		res.Submitted = ptr(true)
		res.Note = schema.JoinNotes(res.Note, "the terminal is in canonical mode: Enter ends the line for the program")
		return res, nil
	}
	s := newSubmission(ctx, c, opt, info, set)
	if opt.Text != "" {
		if err := pane.Type(ctx, c, id, l, opt.Text, false); err != nil {
			return res, err
		}
	} else {
		// Enter alone submits what is pending: outwait the burst of its typing
		pending, _ := l.Pending()
		s.key = inputKey(pending)
		if last := l.LastTyped(); !last.IsZero() {
			sleepCtx(ctx, burstSettle-time.Since(last))
		}
	}
	ok, note, err := s.run(ctx, opt.Text != "")
	res.Submitted = ptr(ok)
	res.Note = schema.JoinNotes(schema.JoinNotes(res.Note, s.dialogNote), note)
	return res, err
}

// newSubmission is the submission of opt.Text to the pane.
func newSubmission(ctx context.Context, c *tmux.Client, opt SendOptions, info tmux.PaneInfo, set *recognize.Set) *submission {
	s := &submission{c: c, id: info.ID, set: set, key: inputKey(opt.Text), text: opt.Text, pid: info.PID, action: opt.Action}
	s.shell = isShell(info)
	if s.shell {
		s.prompt, _ = shell.LoadPrompt(ctx, c, info.ID)
		s.sh, _ = shell.Of(proc.ForegroundOf(info))
	}
	return s
}

// dialogShown reports whether recognizer rec says awaiting_approval, with the screen it looked at.
// With confirm, the approval must hold look after look for ApprovalSettle. A frame drawn before the
// program reacted to an answering key is replaced within tens of milliseconds. Any other state ends
// it at once, so a pane without a dialog costs one look.
func dialogShown(ctx context.Context, c *tmux.Client, id string, set *recognize.Set, rec string, confirm bool) (recognize.Result, pane.Screen, bool, error) {
	start := time.Now()
	for {
		scr, err := pane.CaptureScreen(ctx, c, id, false)
		if err != nil {
			return recognize.Result{}, scr, false, err
		}
		r, err := set.Classify(rec, recognizeScreen(scr))
		if err != nil || r.State != recognize.AwaitingApproval {
			return r, scr, false, err
		}
		if !confirm || time.Since(start) >= ApprovalSettle {
			return r, scr, true, nil
		}
		if !sleepCtx(ctx, lookEvery) {
			return r, scr, false, ctx.Err()
		}
	}
}

// alive is tmux.ErrPaneExited for a dead pane.
func alive(info tmux.PaneInfo) error {
	if info.Dead {
		return fmt.Errorf("%w: pane %s is dead (its process exited with status %d; remain-on-exit keeps it); nothing was typed", tmux.ErrPaneExited, info.ID, info.DeadStatus)
	}
	return nil
}

// sendKeys presses keys. An Enter waits until burstSettle after the last text any panectl process
// typed. A composer then takes it as a submission.
func sendKeys(ctx context.Context, c *tmux.Client, id string, l pane.Ledger, keys []string) error {
	enter := false
	for _, k := range keys {
		enter = enter || k == "Enter"
	}
	if enter {
		if last := l.LastTyped(); !last.IsZero() {
			sleepCtx(ctx, burstSettle-time.Since(last))
		}
		// Enter submits whatever send-text left pending
		if err := pane.Record(ctx, c, id, "", true); err != nil {
			return err
		}
	}
	return c.SendKeys(ctx, id, keys...)
}

// longestLine is the longest line the program would read. The pending text's last line continues
// into text's first. CR ends a line too when the terminal maps it to NL.
func longestLine(pending, text string, crToNL bool) int {
	all := pending + text
	if crToNL {
		all = strings.ReplaceAll(all, "\r", "\n")
	}
	n := 0
	for rest := all; ; {
		line, after, found := strings.Cut(rest, "\n")
		n = max(n, len(line))
		if !found {
			return n
		}
		rest = after
	}
}

// isShell reports whether the foreground is an interactive shell, which takes the line at Enter.
func isShell(info tmux.PaneInfo) bool {
	_, ok := shell.Of(proc.ForegroundOf(info))
	return ok
}

// programStarted reports whether a program other than the shell took the pane after a submission.
// The alternate screen is on, or the foreground is no longer a shell. A shell at a continuation
// line is the foreground itself, on the normal screen.
func programStarted(info tmux.PaneInfo) bool {
	return info.AlternateOn || !isShell(info)
}

// submission presses Enter once the program took the text, and verifies.
type submission struct {
	c      *tmux.Client
	id     string
	set    *recognize.Set
	key    string // inputKey of the text ("" when there is none to look for)
	text   string // the text typed ("" for Enter alone)
	shell  bool
	enters int
	// dialogNote says the screen before Enter showed a dialog.
	dialogNote string
	// prompt is the prompt a run last saw, to tell a fresh prompt from a continuation.
	prompt shell.Prompt
	sh     shell.Shell
	// pid is the process the text went to. Another one ends the submission (tmux.ErrPaneExited).
	pid    int
	action string
	// wasBusy says the program was busy before Enter. Its busy after says nothing of the text.
	wasBusy bool
}

// look is one look at the pane for a submission.
type look struct {
	scr  pane.Screen
	held bool // the input line holds the text
	row  int  // the terminal cursor's absolute row (history_size + cursor_y)
}

func (s *submission) look(ctx context.Context) (look, error) {
	scr, err := pane.CaptureScreen(ctx, s.c, s.id, false)
	if err != nil {
		return look{}, err
	}
	if note, ok := replaced(s.pid, scr.Info); ok {
		return look{}, replacedDuring(s.id, s.action, note)
	}
	l := look{scr: scr, row: scr.Info.HistorySize + scr.Info.CursorY}
	if s.key != "" {
		l.held = strings.Contains(squeeze(beforeCursor(scr, s.shell)), s.key)
		if !l.held && !s.shell && s.set != nil {
			if box, _, err := s.set.InputBox(recognize.AutoID, recognizeScreen(scr)); err == nil {
				l.held = strings.Contains(squeeze(strings.Join(box, "")), s.key)
			}
		}
	}
	return l, nil
}

// run settles, presses Enter and verifies, pressing Enter again if the text still sits there.
func (s *submission) run(ctx context.Context, typed bool) (bool, string, error) {
	before, seen, err := s.settle(ctx, typed)
	if err != nil {
		return false, "", err
	}
	if d, ok := s.dialog(before.scr); ok {
		// A dialog came after the check before typing. Enter answers it: busy is its choice, not
		// the text.
		s.dialogNote = fmt.Sprintf("the screen before Enter showed a dialog (%s): Enter went to it, so the program turning busy does not count as the submission", describe(d))
	}
	s.wasBusy = s.busy(before.scr)
	if typed && !s.shell && incomplete(before.scr, s.text) {
		return false, incompleteNote, nil
	}
	if err := s.submit(ctx); err != nil {
		return false, "", err
	}
	return s.verify(ctx, before, seen)
}

// incompleteNote says why Enter was not pressed after text shown incomplete.
const incompleteNote = "the program's input line shows the text incomplete (keys lost on the way?): Enter was not pressed, " +
	"so nothing incomplete was submitted; clear the input line (C-u) and send the text again"

// incomplete reports whether a program's input line shows text's beginning
// but not all of it. It looks at the rows up to the cursor, as many as text
// can take. Each of text's lines must show, in order, blanks and frames
// aside (squeeze). A composer's marker before a line is no matter. Text
// not shown at all, or shown otherwise (a paste summary), is not judged.
func incomplete(scr pane.Screen, text string) bool {
	y := min(scr.Info.CursorY, len(scr.Rows))
	if y < 0 || text == "" {
		return false
	}
	rows := strings.Count(text, "\n") + 2 + ansi.StringWidth(text)/max(1, scr.Info.Width/2)
	got := squeeze(strings.Join(scr.Rows[max(0, y-rows):y], ""))
	if y < len(scr.Rows) {
		got += squeeze(shell.InputLineOf(scr).Left)
	}
	var want []string
	for _, l := range strings.Split(text, "\n") {
		if l = squeeze(l); l != "" {
			want = append(want, l)
		}
	}
	if len(want) == 0 {
		return false
	}
	head := string([]rune(want[0])[:min(12, len([]rune(want[0])))])
	at := strings.LastIndex(got, head)
	if at < 0 {
		return false // not shown: nothing to judge
	}
	rest := got[at:]
	for _, l := range want {
		i := strings.Index(rest, l)
		if i < 0 {
			return true
		}
		rest = rest[i+len(l):]
	}
	return false
}

// settle waits until the program took the typed text: it shows on the input line, or the screen
// rests, never within burstSettle. It returns the look before Enter and whether the text showed.
func (s *submission) settle(ctx context.Context, typed bool) (look, bool, error) {
	if !typed {
		cur, err := s.look(ctx)
		return cur, cur.held, err
	}
	start := time.Now()
	var last pane.Screen
	quietSince := start
	seen := false
	for {
		cur, err := s.look(ctx)
		if err != nil {
			return cur, seen, err
		}
		if cur.scr.Info.Dead {
			return cur, seen, alive(cur.scr.Info)
		}
		now := time.Now()
		if !cur.scr.Same(last) {
			last, quietSince = cur.scr, now
		}
		seen = seen || cur.held
		settled := now.Sub(start) >= burstSettle && (cur.held || now.Sub(quietSince) >= unseenQuiet)
		if s.shell && cur.held {
			settled = true // a shell's line editor has no paste-burst rule
		}
		if settled || now.Sub(start) >= settleMax {
			return cur, seen, nil
		}
		if !sleepCtx(ctx, lookEvery) {
			return cur, seen, ctx.Err()
		}
	}
}

// verify looks after Enter until the submission shows or verifyMax passes. Unsent, Enter goes
// again.
func (s *submission) verify(ctx context.Context, before look, seen bool) (bool, string, error) {
	enteredAt := time.Now()
	last, quietSince := before.scr, enteredAt
	for {
		if !sleepCtx(ctx, lookEvery) {
			return false, "", ctx.Err()
		}
		cur, err := s.look(ctx)
		if err != nil {
			return false, "", err
		}
		now := time.Now()
		if !cur.scr.Same(last) {
			last, quietSince = cur.scr, now
		}
		quiet := now.Sub(quietSince) >= drawQuiet
		seen = seen || cur.held // (a slow program may draw the text only now)
		switch {
		case cur.scr.Info.Dead:
			return true, "the pane's process exited after Enter", nil
		case s.leftInput(before, cur, seen):
			if done, ok, note, err := s.leftLine(ctx, cur, quiet); done {
				return ok, note, err
			}
		case !s.shell && seen && !cur.held && quiet && s.dialogNote != "":
			// The dialog may have taken the text before Enter (as a program that shows one while
			// text is typed does): its leaving the input line says nothing of the submission.
			return false, "the text is no longer on the input line, but Enter went to the dialog: whether the program took the text is not known", nil
		case !s.shell && seen && !cur.held && quiet:
			return true, "", nil // the input line no longer holds the text
		case s.dialogNote == "" && !s.wasBusy && s.busy(cur.scr):
			return true, "", nil
		case s.again(before, cur, now.Sub(quietSince), now.Sub(enteredAt)):
			if err := s.enter(ctx); err != nil {
				return false, "", err
			}
			enteredAt, quietSince = time.Now(), time.Now()
			continue
		}
		if now.Sub(enteredAt) >= verifyMax {
			return false, s.unverified(before, cur, seen), nil
		}
	}
}

// leftInput reports whether the cursor left the shell's input line: a new row, or the text gone.
func (s *submission) leftInput(before, cur look, seen bool) bool {
	return s.shell && (cur.row != before.row || seen && !cur.held)
}

// leftLine judges a look after the cursor left the shell's input line. It finds a new prompt, a
// started program, or a continuation line. A cleared screen belongs to the program, not to a
// continuation. done is false while a prompt may still be drawing.
func (s *submission) leftLine(ctx context.Context, cur look, quiet bool) (done, ok bool, note string, err error) {
	if programStarted(cur.scr.Info) {
		return true, true, "", s.markEnd(ctx, cur)
	}
	if cur.held && strings.HasSuffix(squeeze(beforeCursor(cur.scr, true)), s.key) {
		// A new input line ends with the text: the shell refused it and put it back, as fish does.
		return quiet, false, "the shell did not run the line: it refused it (its message is above the prompt) and put it back on the input line, where it still sits; edit it, or clear it (C-u; in fish C-c) before typing more", nil
	}
	mode, _ := proc.ReadTTYMode(cur.scr.Info.TTY)
	if shell.InputLineOf(cur.scr).Continuation(s.prompt, s.sh.HasLineEditor(), mode) {
		return quiet, false, "the shell did not run the line: it waits for the rest of an unfinished command (a continuation line; an open quote, bracket or a trailing backslash?); finish it, or cancel it with C-c", nil
	}
	return true, true, "", s.markEnd(ctx, cur)
}

// again reports whether to press Enter once more: the first became a newline in the composer. The
// text showed before Enter, still sits there, and the cursor moved. Or a lagging program took the
// text and Enter in one read, as a paste: the text shows only now, the cursor on a blank line after
// it (Codex's composer grows upwards, so the cursor may stay where it was). Enter goes well after
// the burst: burstSettle after Enter, and after the program last drew. A program that has not
// reacted is left alone: a second Enter could accept what the first opens.
func (s *submission) again(before, cur look, quietFor, sinceEnter time.Duration) bool {
	newline := s.newline(cur.scr)
	if before.held {
		newline = cursorMoved(before.scr, cur.scr)
	}
	return newline && cur.held && quietFor >= burstSettle && sinceEnter >= burstSettle && s.enters < 2
}

// newline reports whether a program's input line ends with the text, then a line break: the
// cursor's row holds only blanks and frames before it, and the row above ends with the text.
func (s *submission) newline(scr pane.Screen) bool {
	y := scr.Info.CursorY
	if s.shell || s.key == "" || y <= 0 || y > len(scr.Rows) {
		return false
	}
	if y < len(scr.Rows) && squeeze(shell.InputLineOf(scr).Left) != "" {
		return false
	}
	return strings.HasSuffix(squeeze(scr.Rows[y-1]), s.key)
}

// unverified says why a submission could not be verified in time.
func (s *submission) unverified(before, cur look, seen bool) string {
	if !seen {
		return "the typed text never showed on the program's input line, so the submission could not be verified"
	}
	if cur.scr.Same(before.scr) {
		return fmt.Sprintf("the program did not react to Enter within %v (pressed once): the submission could not be verified", verifyMax)
	}
	if s.wasBusy {
		return "the program was busy before Enter and the text still sits on its input line: it did not take it; wait for its turn (wait-for-turn) before submitting"
	}
	return fmt.Sprintf("Enter was pressed %d times but the text still sits on the program's input line", s.enters)
}

// markEnd records what the look after the shell took the line shows of its echo (pane.MarkEcho).
// The echo of a line taller than the pane ends at the cursor's row: fish draws its pieces below the
// rows it needs. A transient prompt, redrawn on Enter, is the echo's prompt now.
func (s *submission) markEnd(ctx context.Context, cur look) error {
	return pane.MarkEcho(ctx, s.c, s.id, cur.scr)
}

// enter presses Enter once more.
func (s *submission) enter(ctx context.Context) error {
	s.enters++
	return s.c.SendKeys(ctx, s.id, "Enter")
}

// submit presses Enter the first time. The same tmux command list marks the pending text submitted.
func (s *submission) submit(ctx context.Context) error {
	s.enters++
	l, err := pane.LoadLedger(ctx, s.c, s.id)
	if err != nil {
		return err
	}
	return pane.Type(ctx, s.c, s.id, l, "", true)
}

// dialog reports whether a program's screen shows a dialog (awaiting_approval).
func (s *submission) dialog(scr pane.Screen) (recognize.Result, bool) {
	if s.set == nil || s.shell {
		return recognize.Result{}, false
	}
	r, err := s.set.Classify(recognize.AutoID, recognizeScreen(scr))
	return r, err == nil && r.State == recognize.AwaitingApproval
}

// busy reports whether the recognizer says the program is working.
func (s *submission) busy(scr pane.Screen) bool {
	if s.set == nil || s.shell {
		return false
	}
	r, err := s.set.Classify(recognize.AutoID, recognizeScreen(scr))
	return err == nil && r.State == recognize.Busy
}

func recognizeScreen(scr pane.Screen) recognize.Screen { return ScreenFor(scr) }

// inputKey is what shows that the input line holds text: the last 12 characters of text's last
// non-blank line, "" when none. Blanks are dropped, since composers drop or move them when
// wrapping. Control characters are dropped, since a tab becomes a completion.
func inputKey(text string) string {
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		k := []rune(squeeze(lines[i]))
		if len(k) > 0 {
			return string(k[max(0, len(k)-12):])
		}
	}
	return ""
}

// squeeze drops blanks, control characters and the box-drawing and block characters of frames.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r >= 0x2500 && r <= 0x259f {
			return -1
		}
		return r
	}, s)
}

// beforeCursor is the input line's text up to the cursor. The row above comes first when it wrapped
// into the cursor's row. Outside a shell it does too when only blanks and frame characters precede
// the cursor: a composer's new line.
func beforeCursor(scr pane.Screen, inShell bool) string {
	y := scr.Info.CursorY
	if y < 0 || y >= len(scr.Rows) {
		if inShell || len(scr.Rows) == 0 {
			return ""
		}
		y = len(scr.Rows) // below the last row with text: the row above is that one
	}
	left := ""
	if y < len(scr.Rows) {
		left = shell.InputLineOf(scr).Left
	}
	if y == 0 {
		return left
	}
	above := strings.TrimRight(scr.Rows[y-1], " ")
	wrapped := ansi.StringWidth(above) >= scr.Info.Width && scr.Info.Width > 0
	if wrapped || !inShell && squeeze(left) == "" {
		return above + left
	}
	return left
}

// cursorMoved reports whether the cursor is elsewhere in b than in a.
func cursorMoved(a, b pane.Screen) bool {
	return a.Info.CursorX != b.Info.CursorX || a.Info.CursorY != b.Info.CursorY || a.Info.HistorySize != b.Info.HistorySize
}

// sleepCtx sleeps d (nothing when d <= 0); false when ctx ended first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func ptr[T any](v T) *T { return &v }

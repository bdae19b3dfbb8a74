package waiter

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// RunOptions is a run request. Info and Shell come from Ready.
type RunOptions struct {
	Info     tmux.PaneInfo
	Shell    shell.Shell
	Command  string
	Deadline time.Time
	MaxLines int           // newest lines kept (0: all)
	Grace    time.Duration // how long a begin marker may take before a probe (default 1s)
	// ClearLine kills text already on the input line first. Without it, such text refuses the run.
	ClearLine bool
}

// RunResult is how a run ended.
type RunResult struct {
	Outcome     schema.Outcome // completed, timeout, exited, interrupted
	ExitCode    int            // the command's status (completed), or the one the shell reported after an interrupt
	StatusKnown bool           // ExitCode holds a status
	Output      []string
	Truncated   bool
	Cursor      pane.Cursor
	Attempts    int // times the command was typed (more than 1: the shell threw input away)
	Note        string
}

// RejectedError: the shell rejected the line as a syntax error. It unwraps to ErrInvalid (exit 2).
type RejectedError struct {
	PaneID  string
	Shell   string
	Message string
}

// Error gives the shell's message.
func (e *RejectedError) Error() string {
	return fmt.Sprintf("pane %s: the shell (%s) rejected the command, nothing ran: %s", e.PaneID, e.Shell, e.Message)
}

// Unwrap makes it invalid input.
func (e *RejectedError) Unwrap() error { return ErrInvalid }

// interruptStatus is 128 + SIGINT, the status of a command ended by C-c.
const interruptStatus = 130

// promptQuiet is how long the screen must rest before a shell at its prompt without the end marker
// is believed, as after an interrupt. promptEvery paces those looks.
const (
	promptQuiet = 150 * time.Millisecond
	promptEvery = 250 * time.Millisecond
)

// Run types a command into the pane's shell and reads its output. shell.NewRun wraps it in a begin
// marker and an end marker with the status. The output between them is read from a cursor taken
// before typing. The echo ledger records the wrapper, so other waits discount its echo. Text
// already on the input line refuses the run (*RefusedError), unless ClearLine kills it first.
//
// A command too long to type (shell.TooLongToType) goes through a file the shell sources, and Note
// says why (shell.SourcedNote). A canonical terminal cuts lines at 4095 bytes, and line editors are
// slow with long lines. The file is mode 0600 in a 0700 directory and removes itself.
//
// Without a begin marker in the grace period, Run types a probe line. Shells read input in order.
// So a probe that prints first proves a start-up threw the line away, and it is typed again. A
// begin marker first means the shell was only slow. The command never runs twice.
//
// The run ends at the end marker, or when the shell is back at its prompt after the begin marker.
// The second is an interrupt from anyone, and a probe reads its status. A shell message without a
// begin marker is a rejection (*RejectedError). In fish, an end marker without a begin marker, with
// nothing lost, means eval could not parse the command. A process replaced by respawn-pane -k gives
// outcome exited, StatusKnown false and a note naming both processes. Nothing is pressed.
//
// At the timeout Run presses C-c and waits for a probe, so the next run finds the pane usable. A
// cancelled context presses C-c too, with outcome interrupted. A server that stops answering ends
// the run with the first *tmux.NotRespondingError, bounded by ctx's deadline. No C-c is sent then.
func Run(ctx context.Context, c *tmux.Client, opt RunOptions) (_ RunResult, err error) {
	id := opt.Info.ID
	defer func() { err = goneDuring(id, "run", err) }() // (exit 5, as the waits)
	defer Waiting(ctx, id, time.Until(opt.Deadline), "the command "+abbreviate(opt.Command, 40))()
	if opt.Grace == 0 {
		opt.Grace = time.Second
	}
	// Attach first. The start cursor, the ledger and every look then go through the control client,
	// aligned with its change stream.
	src, err := WatchPane(ctx, c, opt.Info)
	if err != nil {
		return RunResult{}, err
	}
	defer src.Close()
	s, err := newRunState(ctx, c, src, opt)
	if err != nil {
		return RunResult{}, err
	}
	if shell.TooLongToType(s.r.Typed) {
		sweepRunDirs()
		dir, err := os.MkdirTemp("", runDirPrefix+strconv.Itoa(os.Getpid())+"-")
		if err != nil {
			return s.res, err
		}
		defer os.RemoveAll(dir)
		if err := s.throughFile(filepath.Join(dir, "command")); err != nil {
			return s.res, err
		}
	}
	if err := s.typeLine(ctx, s.r.Typed); err != nil {
		return s.res, err
	}
	s.res.Attempts = 1
	s.typedAt = time.Now()
	s.interval, s.maxInterval = 4*time.Millisecond, 150*time.Millisecond
	if src.Via() != nil {
		// changes are events, so the timer only paces the grace checks
		s.interval, s.maxInterval = 100*time.Millisecond, 250*time.Millisecond
	}
	s.pace = newPacer(src, opt.Deadline)
	s.pace.changed = s.typedAt
	return s.loop(ctx)
}

// runState is one Run between its looks at the pane.
type runState struct {
	c    *tmux.Client
	src  Source
	opt  RunOptions // Shell follows the shell that reads the typed line
	id   string
	mode proc.TTYMode
	w    runWatch
	r    shell.Run
	res  RunResult

	start  pane.Cursor   // where the output is read from
	info   tmux.PaneInfo // the pane as last read
	ledger pane.Ledger
	fresh  bool // ledger is as read just now

	sourced string    // the file a long command goes through ("": typed whole)
	typedAt time.Time // when the command was typed last
	probes  []string  // printed forms of the probes typed since the last attempt
	began   bool      // the begin marker printed

	pace                      *pacer
	interval, maxInterval     time.Duration // the pause between cheap looks, growing
	lastFull, lastPromptCheck time.Time
	ahead                     <-chan screenLook // the screen read beside this round's full read, or nil
}

// newRunState runs the preflight and wraps the command for the shell.
func newRunState(ctx context.Context, c *tmux.Client, src Source, opt RunOptions) (*runState, error) {
	mode, _ := proc.ReadTTYMode(opt.Info.TTY)
	sr, scr, seen, err := preflight(ctx, c, src, opt, mode)
	if err != nil {
		return nil, err
	}
	s := &runState{
		c: c, src: src, opt: opt, id: opt.Info.ID, mode: mode,
		r:     shell.NewRun(opt.Shell, opt.Command),
		res:   RunResult{Cursor: sr.Cursor},
		start: sr.Cursor, info: sr.Pane, ledger: sr.Ledger, fresh: true,
	}
	s.w = runWatch{
		prompt: shell.InputLineOf(scr).Left, seen: seen, editor: mode.Known && !mode.Canonical,
		startRow: scr.Info.HistorySize + scr.Info.CursorY, shellName: shellName(proc.CurrentCommand(s.info)),
	}
	return s, nil
}

// throughFile makes the command go through a file the shell sources.
func (s *runState) throughFile(name string) (err error) {
	s.sourced = name
	s.res.Note = shell.SourcedNote(s.r.Typed, s.mode, s.w.shellName)
	s.r, err = s.wrap(s.opt.Shell)
	return err
}

// wrap wraps the command for shell sh, through the file when there is one.
func (s *runState) wrap(sh shell.Shell) (shell.Run, error) {
	if s.sourced == "" {
		return shell.NewRun(sh, s.opt.Command), nil
	}
	r, script := shell.NewSourcedRun(sh, s.sourced, s.opt.Command)
	return r, os.WriteFile(s.sourced, []byte(script), 0o600)
}

// typeLine types text and Enter, recording the echo in the same tmux process. Unless just read, it
// reads the ledger with the screen: the prompt where typing lands is the echo's place and form.
func (s *runState) typeLine(ctx context.Context, text string) error {
	if !s.fresh {
		r, err := read(ctx, s.c, s.src, s.id, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1, Ledger: true})
		if err != nil {
			return err
		}
		s.ledger = r.Ledger
	}
	s.fresh = false
	return pane.Type(ctx, s.c, s.id, s.ledger, text, true)
}

// loop looks at the pane until the run ends. A cheap look at the bottom finds the end marker. The
// whole output is read only then, or when readsInFull says so.
func (s *runState) loop(ctx context.Context) (RunResult, error) {
	for {
		restful, back, err := s.rested(ctx)
		if err != nil {
			return s.ended(ctx, err)
		}
		due := s.pace.due(time.Now())
		if !readsInFull(due, s.began, time.Since(s.lastFull), time.Since(s.typedAt), s.opt.Grace, restful) {
			info, seen, err := endVisible(ctx, s.c, s.src, s.id, s.r.End)
			if errors.Is(err, tmux.ErrNotResponding) {
				return s.ended(ctx, err)
			}
			if err == nil && !seen {
				if err := s.pause(ctx); err != nil {
					return s.ended(ctx, err)
				}
				continue
			}
			if err == nil {
				// the end is on the screen: the full read is planned from this look (not from
				// the pane before the output), and the prompt after the end is learned from a
				// screen read beside it
				s.info = info
				s.ahead = screenBeside(ctx, s.c, s.src, s.id)
			}
		}
		res, done, err := s.round(ctx, restful, back)
		s.ahead = nil
		if done || err != nil {
			return res, err
		}
		if err := s.pause(ctx); err != nil {
			return s.ended(ctx, err)
		}
	}
}

// readsInFull reports whether a round reads the whole output. It does at the deadline, once per
// grace period before the begin marker, and when the screen rested (restful).
func readsInFull(due, began bool, sinceFull, sinceTyped, grace time.Duration, restful bool) bool {
	return due || !began && sinceFull >= grace && sinceTyped >= grace || restful
}

// rested looks at the screen once it rested for promptQuiet, at most every promptEvery. After the
// begin marker, restful means the shell is back at its prompt.
func (s *runState) rested(ctx context.Context) (restful, back bool, err error) {
	if s.pace.quietFor(time.Now()) < promptQuiet || time.Since(s.lastPromptCheck) < promptEvery {
		return false, false, nil
	}
	s.lastPromptCheck = time.Now()
	if !s.began {
		return true, false, nil
	}
	back, err = s.w.backAtPrompt(ctx, s.c, s.src, s.id, s.r.Nonce)
	return back, back, err
}

// pause waits for a change or the next cheap look; the pause grows.
func (s *runState) pause(ctx context.Context) error {
	d := min(s.interval, promptQuiet)
	s.interval = min(s.interval*3/2+1, s.maxInterval)
	_, err := s.pace.pause(ctx, d)
	return err
}

func (s *runState) ended(ctx context.Context, err error) (RunResult, error) {
	return ended(ctx, s.c, s.id, s.res, err)
}

// runStep is what a run does after a full read (nextStep).
type runStep int

const (
	stepWait        runStep = iota // nothing to do: look again
	stepUnparsed                   // fish could not parse the command
	stepEnded                      // the end marker printed
	stepDead                       // the pane's process exited first
	stepRejected                   // the shell rejected every attempt
	stepInterrupted                // the shell is back at its prompt without the end marker
	stepRetype                     // the typed line was lost: type it again
	stepProbe                      // no begin marker yet: probe the shell
)

// runLook is what a full read found, for nextStep.
type runLook struct {
	began, ended bool // the markers printed
	fishWhole    bool // the shell is fish, and nothing was lost from the read
	dead         bool
	restful      bool // the screen rested (and, after the begin marker, the shell is back)
	back         bool // the shell is back at its prompt
	rejections   int  // the shell's messages, when restful
	attempts     int  // times the command was typed
	graceOver    bool // the grace period since the last typing is over
	lost         bool // a probe printed with no begin marker before it
	probeDue     bool // a probe may be typed: none yet, or the last one is a grace old
}

// nextStep decides what a run does after a full read. The order matters. A shell message without a
// begin marker means the parser accepted a line, in fish a whole eval line. A syntax error there
// means input was lost at start-up. So the line is typed again, and rejected once all attempts
// were.
func nextStep(l runLook) runStep {
	switch {
	case l.ended && !l.began && l.fishWhole:
		// fish's eval printed no begin marker, and nothing was lost: it could not parse the
		// command.
		return stepUnparsed
	case l.ended:
		return stepEnded
	case l.dead:
		return stepDead
	case l.restful && !l.began && l.rejections > 0 && l.rejections >= l.attempts && l.attempts >= 2:
		return stepRejected
	case l.restful && l.began && l.back:
		return stepInterrupted
	case !l.began && l.graceOver && l.lost:
		return stepRetype
	case !l.began && l.graceOver && l.probeDue:
		return stepProbe
	}
	return stepWait
}

// round reads the output in full and acts on it. done says the run ended.
func (s *runState) round(ctx context.Context, restful, back bool) (RunResult, bool, error) {
	s.lastFull = time.Now()
	rd, err := read(ctx, s.c, s.src, s.id, s.start, pane.ReadOptions{Guess: s.info})
	if res, done, err := s.readFailed(ctx, rd, err); done {
		return res, true, err
	}
	s.res.Cursor, s.info = rd.Cursor, rd.Pane
	sc := s.r.Scan(rd.Lines)
	s.began = sc.Began
	l := runLook{
		began: sc.Began, ended: sc.Ended, fishWhole: s.opt.Shell == shell.ShellFish && rd.Whole(),
		dead: rd.Pane.Dead, restful: restful, back: back, attempts: s.res.Attempts,
		graceOver: time.Since(s.typedAt) >= s.opt.Grace,
	}
	if restful {
		_, l.rejections = s.w.rejection(rd.Lines, s.r.Nonce)
	}
	if !l.began && l.graceOver {
		l.lost = lost(rd.Lines, s.r.Begin, s.probes)
		l.probeDue = len(s.probes) == 0 || time.Since(s.typedAt) >= s.opt.Grace*time.Duration(len(s.probes)+1)
	}
	switch nextStep(l) {
	case stepUnparsed:
		return s.res, true, &RejectedError{PaneID: s.id, Shell: s.w.shellName, Message: strings.Join(s.r.Unparsed(rd.Lines), " ")}
	case stepEnded:
		res, err := s.completed(ctx, rd, sc)
		return res, true, err
	case stepDead:
		res, err := s.died(ctx, rd, sc)
		return res, true, err
	case stepRejected:
		// a shell that keeps the rejected line (fish) gets it killed
		msg, _ := s.w.rejection(rd.Lines, s.r.Nonce)
		_ = killLine(ctx, s.c, s.id, s.opt.Shell, s.mode)
		return s.res, true, &RejectedError{PaneID: s.id, Shell: s.w.shellName, Message: msg}
	case stepInterrupted:
		typeLine := func(text string) error { return s.typeLine(ctx, text) }
		res, err := s.w.interrupted(ctx, s.c, s.src, s.id, s.opt.Shell, typeLine, s.res, sc, rd, s.opt.MaxLines)
		return res, true, err
	case stepRetype:
		if err := s.retype(ctx, rd); err != nil {
			return s.res, true, err
		}
	case stepProbe:
		if res, done, err := s.probe(ctx); done {
			return res, true, err
		}
	}
	if s.pace.due(time.Now()) {
		res, err := s.timedOut(ctx, sc)
		return res, true, err
	}
	return s.res, false, nil
}

// readFailed ends the run (done) when the full read failed or found the process replaced.
func (s *runState) readFailed(ctx context.Context, rd pane.ReadResult, err error) (_ RunResult, done bool, _ error) {
	note, replacedNow := replacedErr(s.src.Process(), err)
	if !replacedNow && err == nil {
		note, replacedNow = replaced(s.src.Process(), rd.Pane)
	}
	switch {
	case replacedNow:
		// The command's shell is gone, with its output and status. No C-c: the new process is not
		// the run's.
		s.res.Outcome = schema.OutcomeExited
		s.res.Note = schema.JoinNotes(s.res.Note, note+"; the command's exit status is unknown")
		return s.res, true, nil
	case err == nil:
		return s.res, false, nil
	case gone(err):
		s.res.Outcome = schema.OutcomeExited
		s.res.Note = schema.JoinNotes(s.res.Note, "the pane was closed while the command ran")
		return s.res, true, nil
	}
	res, err := s.ended(ctx, err)
	return res, true, err
}

// completed ends a run whose end marker printed.
func (s *runState) completed(ctx context.Context, rd pane.ReadResult, sc shell.RunOutput) (RunResult, error) {
	res := &s.res
	res.Outcome, res.ExitCode, res.StatusKnown = schema.OutcomeCompleted, sc.Status, true
	if sc.Status == interruptStatus {
		// fish's eval prints the end marker after C-c, on the line with the echoed ^C.
		res.Outcome = schema.OutcomeInterrupted
		res.Note = schema.JoinNotes(res.Note, "the command ended with status 130: interrupted (SIGINT)")
		sc.Lines = withoutCtrlC(sc.Lines)
	}
	res.Output, res.Truncated = keepNewest(sc.Lines, s.opt.MaxLines)
	if !sc.Began && rd.Whole() {
		// The history is whole, yet no begin marker printed. So text on the input line joined the
		// typed line, after a prompt preflight could not recognize.
		s.w.learnPrompt(ctx, s.c, s.src, s.id, s.r.Nonce, s.ahead)
		return *res, &RefusedError{s.id, fmt.Sprintf("the shell did not run the command line as typed: its begin marker never printed, though the pane's history is whole (text already on the input line, after a prompt panectl did not recognize, was probably joined to it); what ran ended with status %d and its output cannot be told apart. Look at the pane (panectl screen %s) and clear its input line before the next run", sc.Status, s.id)}
	}
	if !sc.Began {
		res.Truncated = true
		res.Note = schema.JoinNotes(res.Note, "the start of the output is gone from the pane's history (history-limit or a clear)")
	} else if rd.LinesDropped > 0 || rd.Reset {
		res.Truncated = true
		res.Note = schema.JoinNotes(res.Note, rd.Note)
	}
	ahead := s.ahead
	if len(s.probes) > 0 {
		// A probe typed while the shell was slow runs after the command. Let it print, for a clean
		// prompt (and look at the screen after it).
		_, _ = waitProbe(ctx, s.c, s.id, rd.Cursor, s.probes[len(s.probes)-1], 2*time.Second)
		ahead = nil
	}
	s.w.learnPrompt(ctx, s.c, s.src, s.id, s.r.Nonce, ahead)
	return *res, nil
}

// died ends a run whose shell exited, held by remain-on-exit. It waits a moment for the exit
// status. The output ends at the command's last line: tmux's "Pane is dead" line, and the blank
// rows it skipped to draw it at the bottom, are not output.
func (s *runState) died(ctx context.Context, rd pane.ReadResult, sc shell.RunOutput) (RunResult, error) {
	p, err := s.c.AwaitDeadStatus(ctx, rd.Pane)
	if err != nil {
		return s.ended(ctx, err)
	}
	if !rd.Pane.DeadKnown && p.DeadKnown {
		// tmux drew its line with the status, after the read
		if rd, err = read(ctx, s.c, s.src, s.id, s.start, pane.ReadOptions{Guess: p}); err != nil {
			return s.ended(ctx, err)
		}
		sc = s.r.Scan(rd.Lines)
	}
	banner, err := s.c.DeadBanner(ctx, p)
	if err != nil {
		return s.ended(ctx, err)
	}
	s.res.Outcome = schema.OutcomeExited
	s.res.Output, s.res.Truncated = keepNewest(withoutBanner(sc.Lines, banner), s.opt.MaxLines)
	how := "exited; its status is not known yet"
	switch {
	case p.DeadSignal != 0:
		how = fmt.Sprintf("was killed by signal %d", p.DeadSignal)
	case p.DeadKnown:
		how = fmt.Sprintf("exited with status %d", p.DeadStatus)
	}
	s.res.Note = schema.JoinNotes(s.res.Note, "the pane's process "+how+" before the command finished")
	return s.res, nil
}

// withoutBanner drops tmux's dead-pane line (banner, "" for none) from the end of lines, then the
// blank lines before it. The line may be joined to the bottom row's text, which tmux marks wrapped.
func withoutBanner(lines []string, banner string) []string {
	if n := len(lines); n > 0 && banner != "" {
		if rest, ok := strings.CutSuffix(lines[n-1], banner); ok {
			lines = append(lines[:n-1:n-1], rest)
		}
	}
	for n := len(lines); n > 0 && strings.TrimSpace(lines[n-1]) == ""; n = len(lines) {
		lines = lines[:n-1]
	}
	return lines
}

// retype types the command again after the shell threw it away. It wraps it for the shell reading
// now, since a start-up may exec another.
func (s *runState) retype(ctx context.Context, rd pane.ReadResult) error {
	if sh, ok := shell.Of(proc.ForegroundOf(rd.Pane)); ok && sh != s.opt.Shell {
		s.opt.Shell = sh
		var err error
		if s.r, err = s.wrap(sh); err != nil {
			return err
		}
	}
	if err := clearLine(ctx, s.c, s.id); err != nil {
		return err
	}
	if err := s.typeLine(ctx, s.r.Typed); err != nil {
		return err
	}
	s.res.Attempts++
	s.probes = nil
	s.typedAt = time.Now()
	return nil
}

// probe types a probe line, but only into a shell at its prompt. A shell running the command would
// feed the probe to it. done says the run ended, by an error or a silent server.
func (s *runState) probe(ctx context.Context) (_ RunResult, done bool, _ error) {
	ok, err := mayProbe(ctx, s.c, s.src, s.id, s.w.seen)
	if err != nil {
		res, err := s.ended(ctx, err)
		return res, true, err
	}
	if !ok {
		return s.res, false, nil
	}
	typed, printed := shell.Probe()
	if err := clearLine(ctx, s.c, s.id); err != nil {
		return s.res, true, err
	}
	if err := s.typeLine(ctx, typed); err != nil {
		return s.res, true, err
	}
	s.probes = append(s.probes, printed)
	return s.res, false, nil
}

// timedOut ends a run at its deadline.
func (s *runState) timedOut(ctx context.Context, sc shell.RunOutput) (RunResult, error) {
	s.res.Outcome = schema.OutcomeTimeout
	s.res.Output, s.res.Truncated = keepNewest(sc.Lines, s.opt.MaxLines)
	note, err := recoverPrompt(ctx, s.c, s.id, s.w.seen)
	s.res.Note = schema.JoinNotes(s.res.Note, note)
	return s.res, err
}

// runWatch tells how a run ended when its end marker never came.
type runWatch struct {
	prompt    string       // the input line up to the cursor before typing: the prompt
	seen      shell.Prompt // the prompt a run saw last (@panectl_prompt), as preflight read it
	editor    bool         // the shell edits its line itself (the terminal was not canonical)
	startRow  int          // the cursor's absolute row when typing began
	shellName string       // as the shell names itself in its messages ("bash", "fish")
}

// shellName is pane_current_command without a login dash or a path.
func shellName(command string) string {
	return path.Base(strings.TrimPrefix(command, "-"))
}

// backAtPrompt reports whether the shell reads a new command line. The shell must be in the
// foreground, the cursor below the starting row. The input line must be the prompt seen before
// typing, or any empty prompt for a line editor. Its only errors are a server that does not answer
// and ctx's. Any other failed look is "no", for the full read to report.
func (w runWatch) backAtPrompt(ctx context.Context, c *tmux.Client, src Source, id, nonce string) (bool, error) {
	scr, err := captureScreen(ctx, c, src, id)
	if errors.Is(err, tmux.ErrNotResponding) || ctx.Err() != nil {
		return false, cmp.Or(err, ctx.Err())
	}
	if err != nil || scr.Info.Dead {
		return false, nil
	}
	fg := proc.ForegroundOf(scr.Info)
	sh, ok := shell.Of(fg)
	if !ok {
		return false, nil
	}
	if scr.Info.HistorySize+scr.Info.CursorY <= w.startRow {
		return false, nil
	}
	line := shell.InputLineOf(scr)
	if strings.Contains(line.Left+line.Right, nonce) {
		return false, nil
	}
	mode, modeErr := proc.ReadTTYMode(scr.Info.TTY)
	if shell.AwayFromPrompt(sh, fg.Args, mode, line, w.seen) != "" {
		// The command's own read holds the terminal, so the shell still runs it. Examples are
		// fish's "read> ", a question, or a canonical terminal under a line editor.
		return false, nil
	}
	if line.Left == w.prompt && line.Right == "" {
		return true, nil
	}
	if !w.editor {
		return false, nil
	}
	return modeErr == nil && !mode.Canonical && line.Prompted(), nil
}

// rejection returns the shell's first message since typing, "" when none, and how many there are.
// bash, zsh, fish and dash start a syntax error with their name and a colon. The echo of the
// command line does not count.
func (w runWatch) rejection(lines []string, nonce string) (string, int) {
	var msg []string
	n := 0
	for i, l := range lines {
		// skip panectl's own lines: a probe or any run's marker
		if !strings.HasPrefix(l, w.shellName+": ") || strings.Contains(l, nonce) || strings.Contains(l, "ANECTL") {
			continue
		}
		n++
		if len(msg) > 0 {
			continue
		}
		msg = append(msg, strings.TrimSpace(l))
		for _, more := range lines[i+1:] {
			t := strings.TrimSpace(more)
			if t == "" || strings.Contains(more, nonce) || strings.Contains(more, "ANECTL") || strings.Trim(t, "^~ ") == "" || len(msg) >= 5 || (shell.InputLine{Left: more}).Prompted() {
				break
			}
			msg = append(msg, t)
		}
	}
	return strings.Join(msg, " "), n
}

// interrupted ends a run the shell abandoned after an interrupt. It reads the status with a probe.
func (w runWatch) interrupted(ctx context.Context, c *tmux.Client, src Source, id string, sh shell.Shell,
	typeLine func(string) error, res RunResult, sc shell.RunOutput, rd pane.ReadResult, maxLines int) (RunResult, error) {
	res.Outcome = schema.OutcomeInterrupted
	res.Output, res.Truncated = keepNewest(w.withoutPrompt(sc.Lines), maxLines)
	typed, printed := shell.StatusProbe(sh)
	if err := typeLine(typed); err != nil {
		return res, err
	}
	by := time.Now().Add(2 * time.Second)
	for time.Now().Before(by) {
		r, err := read(ctx, c, src, id, rd.Cursor, pane.ReadOptions{})
		if err != nil {
			break
		}
		if st, ok := shell.ScanStatus(r.Lines, printed); ok {
			res.ExitCode, res.StatusKnown = st, true
			res.Note = schema.JoinNotes(res.Note, fmt.Sprintf("the command was interrupted: the shell came back to its prompt without finishing it and reports status %d", st))
			return res, nil
		}
		if !sleepCtx(ctx, lookEvery) {
			break
		}
	}
	res.Note = schema.JoinNotes(res.Note, "the command was interrupted: the shell came back to its prompt without finishing it; its status could not be read")
	return res, nil
}

// withoutPrompt drops the last line's prompt and the echoed C-c after an interrupted command.
func (w runWatch) withoutPrompt(lines []string) []string {
	if n := len(lines); n > 0 {
		last := strings.TrimRight(lines[n-1], " ")
		if last == strings.TrimRight(w.prompt, " ") || (shell.InputLine{Left: last}).Prompted() {
			lines = lines[:n-1]
		}
	}
	return withoutCtrlC(lines)
}

// withoutCtrlC drops trailing blank or "^C" lines, the terminal's echo of C-c. zsh and fish mark
// output without a final newline ("^C%", "^C⏎").
func withoutCtrlC(lines []string) []string {
	for n := len(lines); n > 0; n = len(lines) {
		t := strings.TrimSpace(lines[n-1])
		if after, ok := strings.CutPrefix(t, "^C"); t != "" && (!ok || strings.Trim(after, "%#⏎ ") != "") {
			break
		}
		lines = lines[:n-1]
	}
	return lines
}

// promptSettle is how long a prompt without a known ending must rest to be learned. emptySettle is
// that for an empty prompt, since a wrong one would hide a prompt drawn late. learnLooks bounds
// looks.
const (
	promptSettle = 40 * time.Millisecond
	emptySettle  = 120 * time.Millisecond
	learnLooks   = 4
)

// learnPrompt records the prompt drawn after the end marker, for the next preflight. It is the
// input line when the wrapper is not on it. Its first look is ahead's when not nil.
func (w runWatch) learnPrompt(ctx context.Context, c *tmux.Client, src Source, id, nonce string, ahead <-chan screenLook) {
	var last shell.InputLine
	lastY := -1
	for look := 0; look < learnLooks; look++ {
		l := screenLook{}
		if ahead != nil {
			l, ahead = <-ahead, nil
		} else {
			l.scr, l.prompt, l.err = screenAndPrompt(ctx, c, src, id)
		}
		scr, old, err := l.scr, l.prompt, l.err
		if err != nil || scr.Info.HistorySize+scr.Info.CursorY <= w.startRow {
			return
		}
		line := shell.InputLineOf(scr)
		empty := line.Left == "" // (an empty prompt, or one not drawn yet)
		if !promptAlone(line, nonce) {
			return
		}
		if empty && w.editor {
			// bash's and zsh's line editors take the terminal in raw mode before drawing the
			// prompt. Canonical now means it is not drawn yet. fish stays raw while it runs a
			// builtin, so the row must rest.
			if mode, err := proc.ReadTTYMode(scr.Info.TTY); err != nil || mode.Canonical {
				return
			}
		}
		// A prompt without a known ending ("[ready]"), or none, is learned once the cursor's row
		// rests. A prompt still being drawn would be learned in part, or as empty.
		if !empty && line.Prompted() || line == last && scr.Info.CursorY == lastY {
			if !old.Seen || old.Text != line.Left {
				_ = shell.SavePrompt(ctx, c, id, line.Left)
			}
			return
		}
		last, lastY = line, scr.Info.CursorY
		settle := promptSettle
		if empty {
			settle = emptySettle
		}
		if !sleepCtx(ctx, settle) {
			return
		}
	}
}

// promptAlone reports whether an input line may hold a prompt alone: not blanks only, nothing after
// the cursor, no panectl marker. An empty line may be an empty prompt, or one not drawn yet.
func promptAlone(line shell.InputLine, nonce string) bool {
	if line.Left != "" && strings.TrimSpace(line.Left) == "" || strings.TrimSpace(line.Right) != "" {
		return false
	}
	return !strings.Contains(line.Left, nonce) && !strings.Contains(line.Left, "PANECTL")
}

func abbreviate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// clearLine presses C-u before a probe or a retype, to erase what a lost line left. fish keeps a
// line that failed to parse. C-u erases the edited line in every line editor and in a cooked
// terminal (VKILL). It never interrupts anything.
func clearLine(ctx context.Context, c *tmux.Client, id string) error {
	return c.SendKeys(ctx, id, "C-u")
}

// endVisible reports whether the end marker is on the screen or the last history rows, where it
// sits right after the command ends. It is also true for a dead pane or a replaced process. Then
// the output is read in full, planned from the pane as this look found it.
func endVisible(ctx context.Context, c *tmux.Client, src Source, id, end string) (tmux.PaneInfo, bool, error) {
	info, texts, _, err := via(c, src).SnapshotOptions(ctx, id, "", tmux.CaptureSpec{Start: -10, ToBottom: true, Join: true})
	if err != nil {
		return info, true, err // let the full read report it
	}
	_, respawned := replaced(src.Process(), info)
	return info, info.Dead || respawned || strings.Contains(texts[0], end+":"), nil
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

// runDirPrefix names the private directory a run's command file is in:
// $TMPDIR/panectl-run-PID-RANDOM, PID the panectl that made it.
const runDirPrefix = "panectl-run-"

var runDirRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^panectl-run-([0-9]+)-[0-9]+$`) })

// sweepRunDirs removes the run directories of this user whose panectl is
// gone: one killed with SIGKILL could not remove its own. A pid reused
// since keeps its directory: a leak, never a loss.
func sweepRunDirs() {
	tmp := os.TempDir()
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		m := runDirRE().FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || proc.Alive(pid) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		if st, err := os.Lstat(dir); err == nil && st.IsDir() && st.Sys().(*syscall.Stat_t).Uid == uint32(os.Getuid()) {
			_ = os.RemoveAll(dir)
		}
	}
}

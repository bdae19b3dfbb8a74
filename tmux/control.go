package tmux

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/panectl/panectl/tmux/socketlock"
)

// A control-mode client (tmux(1), CONTROL MODE) delivers a pane's output as it
// happens, so a wait reacts at once instead of polling. panectl attaches one to
// the session that holds the pane:
//
//	tmux -S SOCK -C attach-session -t $SESSION -r -E -f ignore-size,read-only,pause-after=N
//
// It attaches by session id, since attach-session -t %N would make the pane
// active. It ignores size, so no pane is resized for it. Only subscribed panes
// get output, the others are paused per pane (control_sub.go). tmux 3.3a's
// no-output flag would make refresh-client -A %N:on void, so output is on.
//
// The client is read-only by construction. panectl sends it only commands that
// read (readOnlyCommand), refresh-client for its output flow, and writes of its
// own pane user options (@panectl_*: the echo ledger, the action lock;
// ownOptionWrite). It never types, sets another option, resizes or selects.
// Command refuses anything else. tmux's -r flag is set only below 3.7
// (readOnlyFlag says why).
//
// Every attached client has side effects. session_attached rises, and the
// client-attached and client-detached hooks run. With focus-events on, the
// current window's active pane counts as focused (WouldSendFocus). A command
// from outside tmux that acts on "the current client" may take panectl's
// (DefaultKeepIdle says when). A client moved by switch-client ends, and its
// waits capture and poll. One detached by detach-client is attached again by
// the next wait. All clients of one panectl process share a client_name,
// client-PID, as panectl's own client sends no tty name. panectl never names
// its clients in a command, since a command through a client acts on it. So
// nothing in panectl confuses them.

// ControlEventKind says what a control-mode notification means for a wait.
type ControlEventKind int

const (
	// EventOutput: the subscribed pane wrote bytes (%output, %extended-output).
	EventOutput ControlEventKind = iota
	// EventPause: the client fell behind and tmux paused the pane (%pause). The
	// client already asked to continue. Re-read the lost output.
	EventPause
	// EventChange: the pane, window or session may have changed: a mode, a
	// layout (a pane closed), a window closed or unlinked, a session changed or
	// closed, the client's end.
	EventChange
	// EventCommandDone: one per command sent through this subscription, just
	// before it returns, after every EventOutput from before the command ran.
	EventCommandDone
	// EventDescribed: Pane and Options read right after output arrived
	// (Subscription.Prefetch), with every earlier EventOutput in them. Err: the
	// read failed.
	EventDescribed
)

// ControlEvent is one notification about a subscribed pane.
type ControlEvent struct {
	Kind ControlEventKind
	// Data holds one %output's raw bytes, decoded, valid only during the
	// callback. A UTF-8 character or escape sequence may go on in the next one.
	Data            []byte
	Line            string // the notification as tmux wrote it, without its newline
	DescribeFollows bool   // an EventDescribed follows, so a wait can sleep for it
	// Pane and Options: an EventDescribed's description and the pane's user
	// options with the prefetch's prefix. Err is its failure.
	Pane    PaneInfo
	Options map[string]string
	Err     error
}

// ControlOptions configure Control.
type ControlOptions struct {
	// PauseAfter is tmux's pause-after flag in seconds (flow control). 0 means 1.
	PauseAfter int
	// OnEvent gets each event about the target pane on the reading goroutine.
	// It must never block, since tmux pauses a pane whose client lags.
	OnEvent func(ControlEvent)
	// AttachTimeout bounds the wait for tmux to confirm the attach; 0 means 2s.
	AttachTimeout time.Duration
}

// Control is an attached control-mode client, detached by Close. It serves any
// number of subscriptions (Subscribe), Command and snapshot calls until it
// ends. Nothing stays attached when panectl dies (docs/architecture.md).
type Control struct {
	// PaneID is the pane of Client.Control's subscription, "" if kept.
	PaneID  string
	Session string // the id of the session the client is attached to

	stdin   *os.File         // the client's command input (our end of its stdin)
	end     controlEnd       // the `tmux -C` process or panectl's own client
	lock    *socketlock.Lock // the socket lock, for a client attached under it (nil otherwise)
	opts    ControlOptions
	ready   chan struct{} // closed when tmux confirmed the attach (the first %session-changed)
	done    chan struct{} // closed when the client has ended and everything is released
	readEnd chan struct{} // closed when the control stream reached its end
	sawLine atomic.Bool   // the control stream has had a line
	// born is when the client was made. lastLine is when the stream last had a
	// line, in monotonic nanoseconds since born.
	born     time.Time
	lastLine atomic.Int64
	// stalled: no answer (checkStallLocked) until the server's next line.
	stalled     atomic.Bool
	quick       bool       // Close does not wait for tmux's exit handshake (Client.QuickDetach)
	mu          sync.Mutex // guards writes to stdin and everything below
	closed      bool
	mute        bool    // a command got no answer: Close does not wait for a detach
	socket      string  // the server's socket, for errors
	owner       *Client // the client that attached it (Answering)
	reason      string  // why the client ended (%exit reason, EOF)
	attachErr   string  // tmux's message when the attach command failed
	once        sync.Once
	pending     []pendingBlock           // one entry per command this client wrote, in order
	lineSeq     uint64                   // numbers command lines (pendingBlock.line)
	deadlineSet time.Time                // when stdin's write deadline was last set (writeLocked)
	panes       map[string]*paneInterest // every known pane's subscriptions and output (control_sub.go)
	// primary is Client.Control's subscription, nil for a kept client.
	// Snapshot, Pane, SnapshotOptions and WatchDeath act on it.
	primary *Subscription
	// deathWatching: the death watch goroutine runs (control_death.go).
	// deathAsking: its last question is unanswered.
	deathWatching bool
	deathAsking   bool
	// stall is a stalled client's error. stallCh closes when it stalls, and
	// waiting commands give up. It is remade when the server answers again.
	stall   *NotRespondingError
	stallCh chan struct{}
}

// controlEnd is what differs between the kinds of control client.
type controlEnd interface {
	// kill ends the client at once, without the exit handshake.
	kill()
	// failure is tmux's stderr once the client is done, "" for panectl's own.
	failure() string
}

// blockResult is the output of one command run through the control client.
type blockResult struct {
	out string
	err error
}

// ErrControlUnavailable: the control-mode client could not attach.
var ErrControlUnavailable = errors.New("control mode unavailable")

// attachMode is how Control attaches (docs/architecture.md).
type attachMode int

const (
	// attachProto: panectl's own client, which identifies and attaches in one
	// write (tmux 3.2 to 3.6).
	attachProto attachMode = iota + 1
	// attachLocked: `tmux -C`, with the socket lock around attach, detach and
	// notifying commands, for an unknown version or binary, or after a refusal.
	attachLocked
	// attachPlain: `tmux -C` as is, for tmux 3.7 and later (fixed upstream).
	attachPlain
)

// forceAttach replaces the choice of attachMode in tests. attachPlain on a tmux
// with the bug is the pattern that crashes it.
var forceAttach attachMode

// attachMode chooses how to attach from the version of c.Bin (tmux -V).
func (c *Client) attachMode() attachMode {
	if forceAttach != 0 {
		return forceAttach
	}
	return modeFor(c.version())
}

// versions caches `tmux -V` per binary path (NewClient fills it).
var versions sync.Map

// version is `tmux -V` of c.Bin.
func (c *Client) version() string {
	if v, ok := versions.Load(c.Bin); ok {
		return v.(string)
	}
	v, _ := binaryVersion(c.Bin)
	versions.Store(c.Bin, v)
	return v
}

// binaryVersion returns `BIN -V`, trimmed, bounded by DefaultCallTimeout.
func binaryVersion(bin string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), DefaultCallTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-V")
	cmd.WaitDelay = waitDelay
	files, err := attachStreams(cmd, nil)
	if err != nil {
		return "", err
	}
	defer files.close()
	if err := cmd.Run(); err != nil {
		return "", err
	}
	return strings.TrimSpace(read(files.out)), nil
}

// Control attaches a client of its own to p's session, delivering p's output to
// opts.OnEvent. It detaches when ctx ends or on Close. opts.AttachTimeout and
// ctx bound the attach. Errors wrap ErrControlUnavailable with tmux's message,
// or are ErrNoServer. Long-lived processes share kept clients (KeepControl).
func (c *Client) Control(ctx context.Context, p PaneInfo, opts ControlOptions) (*Control, error) {
	if !strings.HasPrefix(p.ID, "%") {
		return nil, fmt.Errorf("%w: pane %q has no session", ErrControlUnavailable, p.ID)
	}
	sub := &Subscription{PaneID: p.ID, pid: p.PID, fn: opts.OnEvent}
	k, err := c.attachSession(ctx, p.SessionID, opts, sub)
	if err != nil {
		return nil, err
	}
	k.PaneID = p.ID
	go func() {
		select {
		case <-ctx.Done():
			k.Close()
		case <-k.done:
		}
	}()
	return k, nil
}

// attachSession attaches a client to session ("$N") with subs already in place,
// so their panes' output is never switched off. ctx bounds the attach.
func (c *Client) attachSession(ctx context.Context, session string, opts ControlOptions, subs ...*Subscription) (*Control, error) {
	if opts.PauseAfter <= 0 {
		opts.PauseAfter = 1
	}
	if opts.AttachTimeout <= 0 {
		opts.AttachTimeout = 2 * time.Second
	}
	if !strings.HasPrefix(session, "$") {
		return nil, fmt.Errorf("%w: no session to attach to (%q)", ErrControlUnavailable, session)
	}
	// -E: the attach leaves the session's environment alone.
	argv := []string{"attach-session", "-t", session, "-E"}
	flags := "ignore-size"
	if readOnlyFlag(c.version()) {
		argv = append(argv, "-r")
		flags += ",read-only"
	}
	argv = append(argv, "-f", fmt.Sprintf("%s,pause-after=%d", flags, opts.PauseAfter))
	deadline := time.Now().Add(opts.AttachTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	mode := c.attachMode()
	if mode == attachProto {
		layout := layoutFor(c.version())
		k, err := c.attach(ctx, session, opts, deadline, subs, func(k *Control) error {
			return c.controlProto(ctx, k, argv, layout, deadline)
		})
		if !errors.Is(err, errRefused) {
			return k, err
		}
		mode = attachLocked
	}
	return c.attach(ctx, session, opts, deadline, subs, func(k *Control) error {
		return c.controlExec(ctx, k, argv, mode == attachLocked, deadline)
	})
}

// attach starts a client and waits for tmux's confirmation, the client's end,
// deadline or ctx.
func (c *Client) attach(ctx context.Context, session string, opts ControlOptions, deadline time.Time, subs []*Subscription, start func(*Control) error) (*Control, error) {
	k := &Control{Session: session, socket: c.Server.Socket, owner: c, opts: opts, ready: make(chan struct{}),
		done: make(chan struct{}), readEnd: make(chan struct{}), panes: map[string]*paneInterest{}, quick: c.QuickDetach,
		born: time.Now(), stallCh: make(chan struct{})}
	for _, s := range subs {
		s.k = k
		k.interest(s.PaneID).add(s)
	}
	if len(subs) == 1 {
		k.primary = subs[0]
	}
	if err := start(k); err != nil {
		return nil, err
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case <-k.ready:
	case <-k.done:
		if pc, ok := k.end.(ownClient); ok && pc.RefusedAttach(k.sawLine.Load()) {
			return nil, fmt.Errorf("%w: %s", errRefused, k.Reason())
		}
		k.mu.Lock()
		msg := k.attachErr
		k.mu.Unlock()
		if msg == "" {
			msg = k.end.failure()
		}
		if msg == "" {
			msg = k.Reason()
		}
		if classify(msg) == ErrNoServer {
			return nil, &NoServerError{Socket: c.Server.Socket, Stderr: msg}
		}
		return nil, fmt.Errorf("%w: attach-session -t %s: %s", ErrControlUnavailable, session, msg)
	case <-timer.C:
		k.Close()
		return nil, fmt.Errorf("%w: tmux did not confirm the attach within %v", ErrControlUnavailable, opts.AttachTimeout)
	case <-ctx.Done():
		k.Close()
		return nil, ctx.Err()
	}
	return k, nil
}

// startReader reads the stream r. At its end finish reaps and closes it, then
// the command pipe and Done close.
func (k *Control) startReader(r io.Reader, finish func()) {
	go k.read(r)
	go func() {
		<-k.readEnd
		finish()
		k.mu.Lock()
		k.closed = true
		_ = k.stdin.Close() // again after Close: harmless
		k.mu.Unlock()
		k.releaseAttachLock()
		close(k.done)
	}()
}

// releaseAttachLock gives up the attach's socket lock, if any, once the client
// has identified (its first line) or ended.
func (k *Control) releaseAttachLock() {
	if k.lock != nil {
		k.lock.Release("attach")
	}
}

// Done is closed when the client has ended: by Close, %exit, EOF or a kill.
func (k *Control) Done() <-chan struct{} { return k.done }

// Reason says why the client ended ("" while it runs): tmux's %exit reason,
// "server exited", or "closed".
func (k *Control) Reason() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.reason
}

func (k *Control) setReason(r string) {
	k.mu.Lock()
	if k.reason == "" {
		k.reason = r
	}
	k.mu.Unlock()
}

// pendingBlock is who gets one command's output: a Command caller (ch), an
// internal probe (fn, on the reader), or nobody. sub gets EventCommandDone.
// line numbers the command line. tmux skips the rest of a line after a failed
// command, without output blocks.
type pendingBlock struct {
	ch   chan blockResult
	fn   func(blockResult)
	sub  *Subscription
	line uint64
	// sent is when the command was written. name is its first word, for errors.
	sent time.Time
	name string
}

// sendLocked writes a line whose output nobody reads. k.mu must be held.
func (k *Control) sendLocked(line string) {
	k.writeLocked(line, pendingBlock{}, 1)
}

// writeLocked writes a line of n commands whose blocks go to b, reporting
// success. A write not taken within writeTimeout ends the client. Hold k.mu.
func (k *Control) writeLocked(line string, b pendingBlock, n int) bool {
	if k.closed {
		return false
	}
	// the deadline moves after half of it passed. Setting it re-arms a runtime
	// timer, which each command of a wait would pay.
	now := time.Now()
	if now.After(k.deadlineSet.Add(writeTimeout / 2)) {
		_ = k.stdin.SetWriteDeadline(now.Add(writeTimeout))
		k.deadlineSet = now
	}
	if _, err := io.WriteString(k.stdin, line+"\n"); err != nil {
		// part of the line may be in the pipe, so the client is unusable
		k.closed = true
		go k.end.kill()
		return false
	}
	k.lineSeq++
	b.line, b.sent = k.lineSeq, now
	b.name, _, _ = strings.Cut(line, " ")
	b.name = strings.Trim(b.name, "'")
	for range n {
		k.pending = append(k.pending, b)
	}
	return true
}

// writeTimeout bounds one write of a command line to the client.
const writeTimeout = 5 * time.Second

// ErrControlClosed: the control client ended before a command's output came.
var ErrControlClosed = errors.New("the control client ended")

// errSkipped: tmux did not run the command after an earlier one failed.
var errSkipped = errors.New("not run: an earlier command of the list failed")

// readOnlyCommand lists what Command sends, all CMD_READONLY in tmux. The
// client writes its own refresh-client -A.
var readOnlyCommand = map[string]bool{
	"display-message": true, "capture-pane": true, "show-options": true,
	"list-panes": true, "list-windows": true, "list-sessions": true,
}

// readOnly reports whether c is a readOnlyCommand that prints its answer:
// display-message and capture-pane need -p, or they act on the client.
func readOnly(c []string) bool {
	if len(c) == 0 || !readOnlyCommand[c[0]] {
		return false
	}
	return c[0] != "display-message" && c[0] != "capture-pane" || slices.Contains(c[1:], "-p")
}

// typingCommand reports whether c types into one pane in exactly the shapes
// Client.SendTextOptions uses: text set in a buffer of panectl's and pasted,
// literal keys, or Enter.
//
//	set-buffer -b panectl-NONCE -- TEXT
//	paste-buffer -d -b panectl-NONCE -t %N [-p] [-S]
//	send-keys -l -t %N -- TEXT
//	send-keys -t %N Enter
//
// Each names its pane and no client, so the client that sends it does not
// matter: the effect is a tmux process's.
func typingCommand(c []string) bool {
	buffer := func(name string) bool {
		n, ok := strings.CutPrefix(name, bufferPrefix)
		return ok && len(n) == 16 && strings.Trim(n, "0123456789abcdef") == ""
	}
	switch {
	case len(c) == 5 && c[0] == "set-buffer" && c[1] == "-b" && c[3] == "--":
		return buffer(c[2])
	case len(c) >= 6 && len(c) <= 8 && c[0] == "paste-buffer" && c[1] == "-d" && c[2] == "-b" && c[4] == "-t":
		rest := c[6:]
		if len(rest) > 0 && rest[0] == "-p" {
			rest = rest[1:]
		}
		if len(rest) > 0 && rest[0] == "-S" {
			rest = rest[1:]
		}
		return buffer(c[3]) && paneArg(c[5]) && len(rest) == 0
	case len(c) == 6 && c[0] == "send-keys" && c[1] == "-l" && c[2] == "-t" && c[4] == "--":
		return paneArg(c[3])
	case len(c) == 4 && c[0] == "send-keys" && c[1] == "-t" && c[3] == "Enter":
		return paneArg(c[2])
	}
	return false
}

// bufferPrefix starts the name of every paste buffer panectl makes (a nonce follows).
const bufferPrefix = "panectl-"

// paneArg reports whether id is a pane id (%N) and nothing else.
func paneArg(id string) bool { return len(id) > 1 && id[0] == '%' && plainToken(id[1:]) }

// ownOptionWrite reports whether c only sets, unsets or compares-and-sets one
// of panectl's pane user options (@panectl_*) to a plain token. The echo
// ledger, the action lock and CompareAndSetPaneOption write them:
//
//	set-option -p -t %N @panectl_NAME VALUE
//	set-option -p -u -t %N @panectl_NAME
//	set-option -p -t %N -F @panectl_NAME '#{?#{==:#{@panectl_NAME},OLD},NEW,#{@panectl_NAME}}'
//	set-option -p -F -t %N @panectl_NAME '#{=-KEEP:@panectl_NAME}.RECORD'
//
// The last appends RECORD and keeps the newest KEEP characters: the saved
// cursors (package pane).
func ownOptionWrite(c []string) bool {
	own := func(name string) bool { return strings.HasPrefix(name, "@panectl") && plainToken(name[1:]) }
	switch {
	case len(c) == 6 && c[0] == "set-option" && c[1] == "-p" && c[2] == "-t":
		return paneArg(c[3]) && own(c[4]) && plainToken(c[5])
	case len(c) == 6 && c[0] == "set-option" && c[1] == "-p" && c[2] == "-u" && c[3] == "-t":
		return paneArg(c[4]) && own(c[5])
	case len(c) == 7 && c[0] == "set-option" && c[1] == "-p" && c[2] == "-t" && c[4] == "-F":
		if !paneArg(c[3]) || !own(c[5]) {
			return false
		}
		rest, ok := strings.CutPrefix(c[6], "#{?#{==:#{"+c[5]+"},")
		old, rest, ok2 := strings.Cut(rest, "},")
		new, ok3 := strings.CutSuffix(rest, ",#{"+c[5]+"}}")
		return ok && ok2 && ok3 && plainToken(old) && plainToken(new)
	case len(c) == 7 && c[0] == "set-option" && c[1] == "-p" && c[2] == "-F" && c[3] == "-t":
		if !paneArg(c[4]) || !own(c[5]) {
			return false
		}
		rest, ok := strings.CutPrefix(c[6], "#{=-")
		keep, rec, ok2 := strings.Cut(rest, ":"+c[5]+"}.")
		_, err := strconv.Atoi(keep)
		return ok && ok2 && err == nil && plainToken(rec)
	}
	return false
}

// commandLine quotes cmds as one control-mode line, joined by " ; ".
// Commands must be readOnly, ownOptionWrite or typingCommand. Arguments
// are quoted by quoteArg.
func commandLine(cmds [][]string) (string, error) {
	var parts []string
	for _, c := range cmds {
		if !readOnly(c) && !ownOptionWrite(c) && !typingCommand(c) {
			return "", fmt.Errorf("tmux: %q is not a command panectl sends through its control client", c)
		}
		q := make([]string, len(c))
		for i, a := range c {
			var ok bool
			if q[i], ok = quoteArg(a); !ok {
				return "", fmt.Errorf("tmux: control command argument %q holds a NUL byte or is not UTF-8", a)
			}
		}
		parts = append(parts, strings.Join(q, " "))
	}
	return strings.Join(parts, " ; "), nil
}

// quoteArg quotes a as one token of tmux's command parser, taken literally.
// Text goes in single quotes, where nothing is special. A quote or a newline
// goes between double quotes, as "'" and "\n": a newline would end the
// control-mode line. The parts join into one token. ok is false for a NUL
// byte or text that is not UTF-8: the parser reads a line as C chars, and
// byte 0xff would read as its end.
func quoteArg(a string) (string, bool) {
	if !utf8.ValidString(a) || strings.ContainsRune(a, 0) {
		return "", false
	}
	if !strings.ContainsAny(a, "'\n") {
		return "'" + a + "'", true
	}
	var b strings.Builder
	open := false // inside single quotes
	for _, r := range a {
		switch r {
		case '\'', '\n':
			if open {
				b.WriteByte('\'')
				open = false
			}
			if r == '\'' {
				b.WriteString(`"'"`)
			} else {
				b.WriteString(`"\n"`)
			}
		default:
			if !open {
				b.WriteByte('\'')
				open = true
			}
			b.WriteRune(r)
		}
	}
	if open {
		b.WriteByte('\'')
	}
	return b.String(), true
}

// Command runs cmds through the client as one line and returns each output.
// tmux runs them back to back, reading no pane output in between. Their output
// comes in the stream in order with %output. So a capture this way is aligned
// with the stream: it holds every %output before its result and none after. A
// failed command gives a *Error with tmux's message, and the rest do not run.
func (k *Control) Command(ctx context.Context, cmds ...[]string) ([]string, error) {
	return k.command(ctx, nil, cmds)
}

func (k *Control) command(ctx context.Context, sub *Subscription, cmds [][]string) ([]string, error) {
	// A command's output is copied raw between its guard lines, so a pane can
	// print a line that looks like its end ("%end TIME NUMBER FLAGS", the
	// number guessed), and more blocks after it. So every line ends with a
	// check: a nonce no pane has seen, printed last. Its block completes the
	// line only as tmux wrote it; a forged block cannot hold the nonce (read
	// checks what comes between blocks).
	check := "panectl-check-" + Nonce()
	cmds = append(cmds[:len(cmds):len(cmds)], []string{"display-message", "-p", check})
	line, err := commandLine(cmds)
	if err != nil {
		return nil, err
	}
	ch := make(chan blockResult, len(cmds))
	k.mu.Lock()
	if k.stall != nil {
		// no answer for stallAfter, and asking more would wait as long
		err := *k.stall
		k.mu.Unlock()
		return nil, &err
	}
	stallCh := k.stallCh
	ok := k.writeLocked(line, pendingBlock{ch: ch, sub: sub}, len(cmds))
	if ok {
		k.pending[len(k.pending)-1].sub = nil // the check is no command of the subscription's
	}
	k.mu.Unlock()
	if !ok {
		return nil, ErrControlClosed
	}
	// bounded like a tmux process (DefaultCallTimeout): a server that stopped
	// answering is an error, not an endless wait
	started := time.Now()
	var timeout <-chan time.Time
	outs := make([]string, 0, len(cmds))
	var firstErr error
	for i := range cmds {
		var r blockResult
		select {
		case r = <-ch:
		default:
			if timeout == nil {
				t := time.NewTimer(DefaultCallTimeout)
				defer t.Stop()
				timeout = t.C
			}
			select {
			case r = <-ch:
			case <-k.readEnd:
				return nil, ErrControlClosed
			case <-stallCh:
				return nil, k.stallError()
			case <-ctx.Done():
				if ctx.Err() == context.Canceled {
					return nil, ctx.Err()
				}
				return nil, k.notResponding(cmds[i], started)
			case <-timeout:
				return nil, k.notResponding(cmds[i], started)
			}
		}
		atomic.StoreInt32(&k.owner.silent, 0)
		if r.err != nil && firstErr == nil {
			firstErr = &Error{Args: cmds[i], ExitCode: 1, Stderr: r.err.Error(), kind: classify(r.err.Error())}
		}
		outs = append(outs, r.out)
	}
	switch {
	case firstErr != nil && len(cmds) > 1:
		// A failure skips the rest of the line, the check too, and a forged
		// %error would do the same: a check of its own after it.
		if _, err := k.command(ctx, nil, nil); err != nil {
			return nil, err
		}
	case outs[len(outs)-1] != check+"\n":
		k.forged("a command's check printed something else")
		return nil, ErrControlClosed
	}
	return outs[:len(outs)-1], firstErr
}

// forged ends a client whose stream was forged: a pane printed lines that
// look like tmux's block guards. Commands in flight end with ErrControlClosed
// (a process answers them), subscriptions see the client's end.
func (k *Control) forged(what string) {
	k.setReason("tmux's stream cannot be trusted: " + what + " (a pane's output that looks like a command's end)")
	k.broadcast(ControlEvent{Kind: EventChange, Line: "%exit"})
	k.mu.Lock()
	k.closed = true
	_ = k.stdin.Close() // EOF detaches it (tmux(1), CONTROL MODE); its end does the rest
	k.mu.Unlock()
}

// notResponding marks the client mute, so Close waits for no detach.
func (k *Control) notResponding(cmd []string, started time.Time) error {
	k.mu.Lock()
	k.mute = true
	k.mu.Unlock()
	atomic.StoreInt32(&k.owner.silent, 1)
	return &NotRespondingError{Socket: k.socket, Command: cmd[0] + " (through the control client)", After: time.Since(started).Round(time.Millisecond)}
}

// finishBlock hands a command's output to its waiter. A failed command takes
// the rest of its line along, as tmux writes no block for them.
func (k *Control) finishBlock(out []byte, failed bool) {
	k.mu.Lock()
	var b pendingBlock
	var skipped []pendingBlock
	if len(k.pending) > 0 {
		b = k.pending[0]
		k.pending = k.pending[1:]
		if failed && b.line != 0 {
			for len(k.pending) > 0 && k.pending[0].line == b.line {
				skipped = append(skipped, k.pending[0])
				k.pending = k.pending[1:]
			}
		}
	}
	k.mu.Unlock()
	r := blockResult{out: string(out)}
	if failed {
		r.err = errors.New(strings.TrimSpace(string(out)))
	}
	k.deliverBlock(b, r)
	for _, s := range skipped {
		k.deliverBlock(s, blockResult{err: errSkipped})
	}
}

func (k *Control) deliverBlock(b pendingBlock, r blockResult) {
	switch {
	case b.fn != nil:
		b.fn(r)
	case b.ch != nil:
		if b.sub != nil {
			b.sub.deliver(ControlEvent{Kind: EventCommandDone})
		}
		b.ch <- r // buffered for every command of the line
	}
}

// Close detaches the client and waits at most 500 ms for it to exit, then kills
// it. It is safe to call more than once and concurrently. With
// Client.QuickDetach it skips tmux's exit handshake and closes the command pipe
// at once. panectl's own client's socket and output pipe close in the
// background, and tmux detaches a client whose connection closes. Go's Close of
// a file waits about 0.1 ms for its reader, which an ending process need not
// spend. A `tmux -C` process exits by itself, or with panectl (Pdeathsig).
func (k *Control) Close() {
	k.once.Do(func() {
		k.setReason("closed")
		if k.lock != nil {
			// A `tmux -C` under the lock detaches under it, until it is reaped,
			// taking over the attach's hold if it never wrote a line.
			if k.lock.Acquire(context.Background(), "detach", time.Now().Add(lockWait), true) == nil {
				defer k.lock.Release("detach")
			}
		}
		k.mu.Lock()
		k.closed = true
		// Closing stdin detaches (tmux(1) CONTROL MODE: "... or EOF detaches")
		_ = k.stdin.Close()
		grace := 500 * time.Millisecond
		if k.mute || !k.owner.Answering() {
			grace = 0 // a server that does not answer will not detach it
		}
		quick := k.quick && k.lock == nil
		k.mu.Unlock()
		if quick {
			if pc, ok := k.end.(ownClient); ok {
				go pc.Kill()
			}
			return
		}
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-k.done:
		case <-t.C:
			k.end.kill()
			<-k.done
		}
	})
}

// read decodes notifications until the stream ends. It closes k.ready once tmux
// confirms the attach with %session-changed.
func (k *Control) read(r io.Reader) {
	defer close(k.readEnd)
	br := bufio.NewReaderSize(r, 64<<10)
	readyOnce := sync.OnceFunc(func() { close(k.ready) })
	inBlock, attached := false, false
	var buf, block []byte
	var blockID string // "TIME NUMBER" of the open block
	var blockMine bool // the block answers a command this client sent (flags 1)
	end := func(reason string) {
		k.setReason(reason)
		k.broadcast(ControlEvent{Kind: EventChange, Line: "%exit"})
	}
	for {
		line, err := readLine(br, &buf, MaxControlLine)
		if errors.Is(err, errLineTooLong) {
			end(fmt.Sprintf("tmux sent a line longer than %d MiB: not a tmux server panectl can read", MaxControlLine>>20))
			return
		}
		if err != nil {
			end("server exited or the client lost its connection")
			return
		}
		k.lastLine.Store(int64(time.Since(k.born)))
		if k.stalled.Load() {
			k.answering() // the server writes again
		}
		if !k.sawLine.Swap(true) {
			// tmux writes nothing before the client has identified
			k.releaseAttachLock()
		}
		if inBlock {
			// %begin ... %end/%error is output of this client's command, or
			// with flags 0 of the attach.
			if id, failed, ok := blockEnd(line); ok && id == blockID {
				inBlock = false
				if blockMine {
					k.finishBlock(block, failed)
				} else if failed && !attached {
					k.mu.Lock()
					k.attachErr = strings.TrimSpace(string(block))
					k.mu.Unlock()
				}
				continue
			}
			if blockMine || !attached {
				if len(block)+len(line) >= MaxControlBlock {
					end(fmt.Sprintf("tmux sent a command's output longer than %d MiB: not a tmux server panectl can read", MaxControlBlock>>20))
					return
				}
				block = append(append(block, line...), '\n')
			}
			continue
		}
		name, rest, _ := bytes.Cut(line, []byte(" "))
		if len(line) == 0 || line[0] != '%' || string(name) == "%end" || string(name) == "%error" {
			// tmux writes only notifications between blocks: a block's end
			// was forged, and this is the rest of its output
			k.forged("output between command blocks")
			return
		}
		switch string(name) {
		case "%begin":
			f := strings.Fields(string(rest))
			inBlock, block, blockMine = true, block[:0], false
			if len(f) == 3 {
				blockID = f[0] + " " + f[1]
				blockMine = f[2] == "1"
			}
		case "%output":
			pane, data, _ := bytes.Cut(rest, []byte(" "))
			k.output(string(pane), data, line)
		case "%extended-output":
			// %extended-output %N age ... : data
			pane, tail, _ := bytes.Cut(rest, []byte(" "))
			if i := bytes.Index(tail, []byte(" : ")); i >= 0 {
				k.output(string(pane), tail[i+3:], line)
			} else if bytes.HasSuffix(tail, []byte(" :")) {
				k.output(string(pane), nil, line)
			}
		case "%pause":
			k.paused(string(rest), line)
		case "%session-changed":
			if attached {
				// switch-client moved this client: no more for subscriptions
				k.broadcast(ControlEvent{Kind: EventChange, Line: string(line)})
				go k.Close()
			}
			attached = true // the first one confirms the attach
			readyOnce()
		case "%exit":
			reason := strings.TrimSpace(string(rest))
			if reason == "" {
				reason = "the session was closed or the client detached"
			}
			k.setReason("tmux: " + reason)
			k.broadcast(ControlEvent{Kind: EventChange, Line: string(line)})
		case "%continue", "%client-session-changed", "%client-detached", "%paste-buffer-changed",
			"%paste-buffer-deleted", "%subscription-changed", "%message", "%config-error",
			"%window-renamed", "%session-renamed", "%session-window-changed":
			// nothing that changes a pane's text or life
		default:
			// %layout-change, %window-add, %window-close, %window-pane-changed,
			// %pane-mode-changed, %sessions-changed, %unlinked-window-*, newer
			// ones: a pane may be gone or changed, so subscribers look
			k.broadcast(ControlEvent{Kind: EventChange, Line: string(line)})
		}
	}
}

// The bounds of what a control client reads from its server. tmux writes a
// pane's output in pieces far below them; a peer past them is no tmux.
const (
	MaxControlLine  = 4 << 20  // one notification line, escapes included
	MaxControlBlock = 16 << 20 // one command's output (%begin to %end)
)

var errLineTooLong = errors.New("line too long")

// readLine reads one line without its "\n", reusing *buf for long lines.
// A line of max bytes or more is errLineTooLong.
func readLine(br *bufio.Reader, buf *[]byte, max int) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == nil {
		return line[:len(line)-1], nil
	}
	if err != bufio.ErrBufferFull {
		return nil, err
	}
	*buf = append((*buf)[:0], line...)
	for {
		if len(*buf) >= max {
			return nil, errLineTooLong
		}
		line, err = br.ReadSlice('\n')
		*buf = append(*buf, line...)
		if err == nil {
			return (*buf)[:len(*buf)-1], nil
		}
		if err != bufio.ErrBufferFull {
			return nil, err
		}
	}
}

// blockEnd reports whether a line ends a block ("%end|%error TIME NUMBER
// FLAGS") and returns "TIME NUMBER". It must match the %begin, so output that
// looks like an %end does not end the block.
func blockEnd(line []byte) (id string, failed, ok bool) {
	f := strings.Fields(string(line))
	if len(f) != 4 || (f[0] != "%end" && f[0] != "%error") {
		return "", false, false
	}
	return f[1] + " " + f[2], f[0] == "%error", true
}

// DecodeOutput decodes a %output value. tmux writes bytes below 32 and "\" as
// "\" and three octal digits, others as is. Malformed escapes stay verbatim.
func DecodeOutput(b []byte) []byte {
	if bytes.IndexByte(b, '\\') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+3 < len(b) && isOctal(b[i+1]) && isOctal(b[i+2]) && isOctal(b[i+3]) {
			out = append(out, (b[i+1]-'0')<<6|(b[i+2]-'0')<<3|(b[i+3]-'0'))
			i += 3
			continue
		}
		out = append(out, b[i])
	}
	return out
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// WouldSendFocus reports whether attaching to p's session would send p's
// program a focus-in event. It does when focus-events is on, p is active in the
// current window and no client is attached yet. tmux counts each client as
// focused (tmux(1), focus-events).
func WouldSendFocus(p PaneInfo) bool {
	return p.FocusEvents && p.Active && p.WindowActive && p.Attached == 0
}

// Pane describes the watched pane through the client, aligned with the stream.
func (k *Control) Pane(ctx context.Context) (PaneInfo, error) {
	p, _, err := k.Snapshot(ctx)
	return p, err
}

// Snapshot is Client.Snapshot through the client, aligned like Command.
func (k *Control) Snapshot(ctx context.Context, specs ...CaptureSpec) (PaneInfo, []string, error) {
	p, texts, _, err := k.SnapshotOptions(ctx, k.PaneID, "", specs...)
	return p, texts, err
}

// SnapshotOptions is Client.SnapshotOptions through the client, aligned like
// Command, for the watched pane id only. So *Control is a Snapshotter.
func (k *Control) SnapshotOptions(ctx context.Context, id, prefix string, specs ...CaptureSpec) (PaneInfo, []string, map[string]string, error) {
	if k.primary == nil || id != k.PaneID {
		return PaneInfo{}, nil, nil, fmt.Errorf("tmux: the control client watches %s, not %s", k.PaneID, id)
	}
	return k.primary.SnapshotOptions(ctx, id, prefix, specs...)
}

// WatchDeath makes the client check every deathEvery whether the pane died or
// left (Subscription.WatchDeath).
func (k *Control) WatchDeath() {
	if k.primary != nil {
		k.primary.WatchDeath()
	}
}

// snapshotOptions runs id's description, captures and options as one line. sub,
// if set, gets EventCommandDone.
func (k *Control) snapshotOptions(ctx context.Context, sub *Subscription, id, prefix string, specs ...CaptureSpec) (PaneInfo, []string, map[string]string, error) {
	r := newPaneRow()
	cmds := [][]string{{"display-message", "-p", "-t", id, r.Format()}}
	for _, s := range specs {
		cmds = append(cmds, s.args(id))
	}
	if prefix != "" {
		cmds = append(cmds, []string{"show-options", "-p", "-t", id})
	}
	outs, err := k.command(ctx, sub, cmds)
	if err != nil {
		if errors.Is(err, ErrPaneNotFound) {
			return PaneInfo{}, nil, nil, &NotFoundError{Target: id, Socket: k.socket}
		}
		return PaneInfo{}, nil, nil, err
	}
	p, _, err := r.Parse(outs[0])
	if err == errNoPane || (err == nil && p.ID != id) {
		return PaneInfo{}, nil, nil, &NotFoundError{Target: id, Socket: k.socket}
	}
	if err != nil {
		return PaneInfo{}, nil, nil, err
	}
	var opts map[string]string
	if prefix != "" {
		if opts, err = parseOptions(id, outs[len(outs)-1], prefix); err != nil {
			return PaneInfo{}, nil, nil, err
		}
	}
	return p, outs[1 : 1+len(specs)], opts, nil
}

// Snapshotter takes atomic snapshots: a pane's description, captures and user
// options in one list. *Client uses a tmux process or a kept client, *Control
// and *Subscription an attached client.
type Snapshotter interface {
	SnapshotOptions(ctx context.Context, id, prefix string, specs ...CaptureSpec) (PaneInfo, []string, map[string]string, error)
}

var (
	_ Snapshotter = (*Client)(nil)
	_ Snapshotter = (*Control)(nil)
	_ Snapshotter = (*Subscription)(nil)
)

package tmux

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// A control-mode client (tmux(1), CONTROL MODE) delivers a pane's output as
// it happens, so a wait can react at once instead of polling. panectl attaches
// one for the length of one wait:
//
//	tmux -S SOCK -C attach-session -t $SESSION -r -f ignore-size,read-only,pause-after=N
//
// It attaches by session id, never by pane (attach-session -t %N would make
// the pane active), is read-only (it types nothing: panectl sends no key
// commands through it), ignores size (no pane is ever resized for it), and
// turns output off for every pane but the target (refresh-client -A %M:off)
// as soon as another pane speaks. tmux 3.3a's no-output flag cannot be
// combined with per-pane output (refresh-client -A %N:on has no effect under
// it), so output is on by default and switched off per pane.
//
// Known side effects that tmux gives every attached client: the session's
// session_attached count rises for the length of the wait, client-attached
// and client-detached hooks run, and when the server option focus-events is
// on, a pane whose window is current in its session counts as focused while
// the client is attached (WouldSendFocus reports that case so a caller can
// poll instead).

// ControlEventKind says what a control-mode notification means for a wait.
type ControlEventKind int

const (
	// EventOutput: the target pane wrote bytes (%output / %extended-output).
	EventOutput ControlEventKind = iota
	// EventPause: tmux paused the pane's output because the client fell behind
	// (%pause); the client has already asked tmux to continue. Output was
	// lost: re-read the pane.
	EventPause
	// EventChange: the pane, its window or session may have changed: pane
	// mode, layout (a pane closed), window closed or unlinked, session
	// changed or closed.
	EventChange
	// EventCommandDone: the output of a command sent with Command has come;
	// every EventOutput before it happened before the command ran, every
	// later one after. Sent just before Command returns.
	EventCommandDone
)

// ControlEvent is one notification about the target pane.
type ControlEvent struct {
	Kind ControlEventKind
	// Data holds the raw bytes of one %output notification, octal escapes
	// decoded. A notification may end in the middle of a UTF-8 character or
	// an escape sequence; the rest comes in the next one. Data is only valid
	// during the callback.
	Data []byte
	// Line is the notification as tmux wrote it (without its newline).
	Line string
}

// ControlOptions configure Control.
type ControlOptions struct {
	// PauseAfter is tmux's pause-after flag in seconds (flow control); 0
	// means 1.
	PauseAfter int
	// OnEvent is called from the reading goroutine for each event about the
	// target pane. It must return quickly (never block on a channel): tmux
	// pauses a pane whose client does not keep up.
	OnEvent func(ControlEvent)
	// AttachTimeout bounds the wait for tmux to confirm the attach; 0 means 2s.
	AttachTimeout time.Duration
}

// Control is an attached control-mode client. Close detaches it; it also
// detaches when ctx ends, and the kernel kills it if panectl dies (Linux:
// Pdeathsig).
type Control struct {
	PaneID  string
	Session string

	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  io.Closer // the read end of the client's stdout (Close forces EOF with it)
	socket  string
	stderr  bytes.Buffer
	opts    ControlOptions
	done    chan struct{} // closed when the tmux client has exited and been reaped
	readEnd chan struct{} // closed when stdout reached EOF
	mu      sync.Mutex    // guards writes to stdin, closed, reason
	closed  bool
	mute    bool   // a command got no answer: Close does not wait for a detach
	reason  string // why the client ended (%exit reason, EOF)
	once    sync.Once
	off     map[string]bool // panes whose output was switched off (reader goroutine only)
	// pending holds, in the order they were sent, one entry per command
	// line this client wrote: a channel for the caller of Command, or nil
	// for fire-and-forget commands (refresh-client). Guarded by mu.
	pending []chan blockResult
}

// blockResult is the output of one command run through the control client.
type blockResult struct {
	out string
	err error
}

// ErrControlUnavailable: the control-mode client could not attach.
var ErrControlUnavailable = errors.New("control mode unavailable")

// Control attaches a read-only control-mode client to the session that
// holds pane p, with output delivered for p only. The returned client is
// attached and its events flow to opts.OnEvent. Errors wrap
// ErrControlUnavailable (with tmux's message) or are ErrNoServer.
func (c *Client) Control(ctx context.Context, p PaneInfo, opts ControlOptions) (*Control, error) {
	if opts.PauseAfter <= 0 {
		opts.PauseAfter = 1
	}
	if opts.AttachTimeout <= 0 {
		opts.AttachTimeout = 2 * time.Second
	}
	if p.SessionID == "" || !strings.HasPrefix(p.ID, "%") {
		return nil, fmt.Errorf("%w: pane %q has no session", ErrControlUnavailable, p.ID)
	}
	flags := fmt.Sprintf("ignore-size,read-only,pause-after=%d", opts.PauseAfter)
	// Not exec.CommandContext: Close detaches cleanly first, then kills.
	cmd := exec.Command(c.Bin, "-S", c.Server.Socket, "-C", "attach-session", "-t", p.SessionID, "-r", "-f", flags)
	cmd.Env = tmuxEnv()
	cmd.WaitDelay = waitDelay // a stopped server holds the client's pipes (see Close)
	cmd.SysProcAttr = controlSysProcAttr()
	k := &Control{PaneID: p.ID, Session: p.SessionID, cmd: cmd, opts: opts,
		done: make(chan struct{}), readEnd: make(chan struct{}), off: map[string]bool{}}
	cmd.Stderr = &k.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrControlUnavailable, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrControlUnavailable, err)
	}
	k.stdin, k.stdout, k.socket = stdin, stdout, c.Server.Socket
	if err := startControl(cmd); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrControlUnavailable, err)
	}
	ready := make(chan struct{})
	go k.read(stdout, ready)
	go func() {
		<-k.readEnd
		_ = cmd.Wait()
		close(k.done)
	}()
	timer := time.NewTimer(opts.AttachTimeout)
	defer timer.Stop()
	select {
	case <-ready:
	case <-k.done:
		msg := strings.TrimSpace(k.stderr.String())
		if msg == "" {
			msg = k.Reason()
		}
		if classify(msg) == ErrNoServer {
			return nil, &NoServerError{Socket: c.Server.Socket, Stderr: msg}
		}
		return nil, fmt.Errorf("%w: tmux -C attach-session -t %s: %s", ErrControlUnavailable, p.SessionID, msg)
	case <-timer.C:
		k.Close()
		return nil, fmt.Errorf("%w: tmux did not confirm the attach within %v", ErrControlUnavailable, opts.AttachTimeout)
	case <-ctx.Done():
		k.Close()
		return nil, ctx.Err()
	}
	go func() {
		select {
		case <-ctx.Done():
			k.Close()
		case <-k.done:
		}
	}()
	return k, nil
}

// Done is closed when the client has ended: detached by Close, the session
// or server gone (%exit, EOF), or killed.
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

// send writes one command line to the client (ignored after Close).
func (k *Control) send(line string) {
	k.sendN(line, nil, 1)
}

// sendN writes a command line holding n commands; each one's output block
// goes to ch (nil: discarded). It reports whether the line was written.
func (k *Control) sendN(line string, ch chan blockResult, n int) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return false
	}
	if _, err := io.WriteString(k.stdin, line+"\n"); err != nil {
		return false
	}
	for range n {
		k.pending = append(k.pending, ch)
	}
	return true
}

// ErrControlClosed: the control client ended before a command's output came.
var ErrControlClosed = errors.New("the control client ended")

// Command runs commands through the control client, as one command line
// (so tmux runs them back to back, reading no pane output in between), and
// returns each one's output. Because tmux writes a command's output into
// the same stream as %output notifications, in order, a capture run this way
// is aligned with the output stream: every %output delivered before
// Command's result is in the capture, every later one is not. Each command
// is a list of arguments; an argument must not hold a single quote or a
// newline. A command that fails gives a *Error with tmux's message.
func (k *Control) Command(ctx context.Context, cmds ...[]string) ([]string, error) {
	var parts []string
	for _, c := range cmds {
		q := make([]string, len(c))
		for i, a := range c {
			if strings.ContainsAny(a, "'\n") {
				return nil, fmt.Errorf("tmux: control command argument %q holds a quote or newline", a)
			}
			q[i] = "'" + a + "'"
		}
		parts = append(parts, strings.Join(q, " "))
	}
	ch := make(chan blockResult, len(cmds))
	// bounded like a tmux process (see DefaultCallTimeout): a server that
	// stopped answering is an error, not a wait without end
	started := time.Now()
	callCtx, cancel := context.WithTimeout(ctx, DefaultCallTimeout)
	defer cancel()
	if !k.sendN(strings.Join(parts, " ; "), ch, len(cmds)) {
		return nil, ErrControlClosed
	}
	outs := make([]string, 0, len(cmds))
	var firstErr error
	for i := range cmds {
		select {
		case r := <-ch:
			if r.err != nil && firstErr == nil {
				firstErr = &Error{Args: cmds[i], ExitCode: 1, Stderr: r.err.Error(), kind: classify(r.err.Error())}
			}
			outs = append(outs, r.out)
		case <-k.readEnd:
			return nil, ErrControlClosed
		case <-callCtx.Done():
			if ctx.Err() == context.Canceled {
				return nil, ctx.Err()
			}
			k.mu.Lock()
			k.mute = true
			k.mu.Unlock()
			return nil, &NotRespondingError{Socket: k.socket, Command: cmds[i][0] + " (through the control client)", After: time.Since(started).Round(time.Millisecond)}
		}
	}
	return outs, firstErr
}

// finishBlock hands the output of a command this client sent to whoever
// is waiting for it.
func (k *Control) finishBlock(out []byte, failed bool) {
	k.mu.Lock()
	var ch chan blockResult
	if len(k.pending) > 0 {
		ch = k.pending[0]
		k.pending = k.pending[1:]
	}
	k.mu.Unlock()
	if ch == nil {
		return
	}
	k.event(ControlEvent{Kind: EventCommandDone})
	r := blockResult{out: string(out)}
	if failed {
		r.err = errors.New(strings.TrimSpace(string(out)))
	}
	ch <- r // buffered for every command of the line
}

// Close detaches the client and waits (at most 500 ms) until it has
// exited; then it is killed. Safe to call more than once and concurrently.
func (k *Control) Close() {
	k.once.Do(func() {
		k.setReason("closed")
		k.mu.Lock()
		k.closed = true
		// Closing stdin makes a control client detach and exit (tmux(1),
		// CONTROL MODE: "an empty line ... or EOF detaches").
		_ = k.stdin.Close()
		grace := 500 * time.Millisecond
		if k.mute {
			grace = 0 // a server that does not answer will not detach it
		}
		k.mu.Unlock()
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-k.done:
		case <-t.C:
			if k.cmd.Process != nil {
				_ = k.cmd.Process.Kill()
			}
			// The client hands its stdout to the server (tmux passes it
			// as a file descriptor), so a stopped or hung server keeps
			// the pipe open after the client is dead: EOF may never
			// come. Closing the read end ends the reader, then Wait.
			select {
			case <-k.done:
			case <-time.After(waitDelay):
				_ = k.stdout.Close()
				<-k.done
			}
		}
	})
}

// read decodes notifications until EOF. ready is closed once tmux has
// confirmed the attach (%session-changed, sent on attach).
func (k *Control) read(r io.Reader, ready chan struct{}) {
	defer close(k.readEnd)
	br := bufio.NewReaderSize(r, 64<<10)
	readyOnce := sync.OnceFunc(func() { close(ready) })
	inBlock, attached := false, false
	var buf, block []byte
	var blockID string // "TIME NUMBER" of the open block
	var blockMine bool // the block answers a command this client sent (flags 1)
	for {
		line, err := readLine(br, &buf)
		if err != nil {
			k.setReason("server exited or the client lost its connection")
			return
		}
		if inBlock {
			// Command output (%begin ... %end/%error): the lines belong to
			// a command this client sent (or, flags 0, to the attach).
			if id, failed, ok := blockEnd(line); ok && id == blockID {
				inBlock = false
				if blockMine {
					k.finishBlock(block, failed)
				}
				continue
			}
			if blockMine {
				block = append(append(block, line...), '\n')
			}
			continue
		}
		name, rest, _ := bytes.Cut(line, []byte(" "))
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
			if string(rest) == k.PaneID {
				k.send(fmt.Sprintf("refresh-client -A '%s:continue'", k.PaneID))
				k.event(ControlEvent{Kind: EventPause, Line: string(line)})
			}
		case "%session-changed":
			if attached {
				k.event(ControlEvent{Kind: EventChange, Line: string(line)})
			}
			attached = true // the first one confirms the attach
			readyOnce()
		case "%exit":
			reason := strings.TrimSpace(string(rest))
			if reason == "" {
				reason = "the session was closed or the client detached"
			}
			k.setReason("tmux: " + reason)
			k.event(ControlEvent{Kind: EventChange, Line: string(line)})
		case "%subscription-changed":
			if k.deathChanged(rest) {
				k.event(ControlEvent{Kind: EventChange, Line: string(line)})
			}
		case "%continue", "%client-session-changed", "%client-detached", "%paste-buffer-changed",
			"%paste-buffer-deleted", "%message", "%config-error",
			"%window-renamed", "%session-renamed", "%session-window-changed", "%window-add":
			// nothing that changes the target pane's text or life
		default:
			// %layout-change, %window-close, %unlinked-window-close,
			// %window-pane-changed, %pane-mode-changed, %sessions-changed,
			// %unlinked-window-*, and anything newer tmux versions add: the
			// pane may be gone or changed; let the caller look.
			k.event(ControlEvent{Kind: EventChange, Line: string(line)})
		}
	}
}

func (k *Control) output(pane string, data, line []byte) {
	if pane != k.PaneID {
		if !k.off[pane] && strings.HasPrefix(pane, "%") {
			k.off[pane] = true
			k.send(fmt.Sprintf("refresh-client -A '%s:off'", pane))
		}
		return
	}
	if k.opts.OnEvent == nil {
		return
	}
	k.opts.OnEvent(ControlEvent{Kind: EventOutput, Data: DecodeOutput(data), Line: string(line)})
}

func (k *Control) event(e ControlEvent) {
	if k.opts.OnEvent != nil {
		k.opts.OnEvent(e)
	}
}

// readLine reads one line without its "\n", reusing *buf for long lines.
func readLine(br *bufio.Reader, buf *[]byte) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == nil {
		return line[:len(line)-1], nil
	}
	if err != bufio.ErrBufferFull {
		return nil, err
	}
	*buf = append((*buf)[:0], line...)
	for {
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

// blockEnd reports whether a line ends a command's output block, "%end
// TIME NUMBER FLAGS" or "%error TIME NUMBER FLAGS", and returns "TIME
// NUMBER" (which must match the %begin, so that output lines looking like
// an %end do not end the block) and whether the command failed.
func blockEnd(line []byte) (id string, failed, ok bool) {
	f := strings.Fields(string(line))
	if len(f) != 4 || (f[0] != "%end" && f[0] != "%error") {
		return "", false, false
	}
	return f[1] + " " + f[2], f[0] == "%error", true
}

// DecodeOutput decodes the value of a %output notification: tmux writes
// bytes below 32 and the backslash as a backslash and three octal digits,
// every other byte (UTF-8 included) as is. A malformed escape is kept
// verbatim.
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

// WouldSendFocus reports whether attaching a control client to pane p's
// session would make tmux send the pane's program a focus-in event: the
// server option focus-events is on, the pane is the active pane of its
// session's current window, and no client is attached to the session yet
// (tmux(1), focus-events; tmux counts every attached client as focused).
func WouldSendFocus(p PaneInfo) bool {
	return p.FocusEvents && p.Active && p.WindowActive && p.Attached == 0
}

// Pane describes the watched pane through the client (no tmux process is
// started), aligned with the output stream like Command.
func (k *Control) Pane(ctx context.Context) (PaneInfo, error) {
	p, _, err := k.Snapshot(ctx)
	return p, err
}

// Snapshot is Client.Snapshot run through the control client: the pane's
// description and the captures of one instant, aligned with the output
// stream (see Command).
func (k *Control) Snapshot(ctx context.Context, specs ...CaptureSpec) (PaneInfo, []string, error) {
	p, texts, _, err := k.SnapshotOptions(ctx, k.PaneID, "", specs...)
	return p, texts, err
}

// SnapshotOptions is Client.SnapshotOptions run through the control client
// (no tmux process is started), aligned with the output stream (see
// Command). id must be the watched pane. With it, *Control and *Client are
// both a Snapshotter.
func (k *Control) SnapshotOptions(ctx context.Context, id, prefix string, specs ...CaptureSpec) (PaneInfo, []string, map[string]string, error) {
	if id != k.PaneID {
		return PaneInfo{}, nil, nil, fmt.Errorf("tmux: the control client watches %s, not %s", k.PaneID, id)
	}
	cmds := [][]string{{"display-message", "-p", "-t", k.PaneID, paneFormat}}
	for _, s := range specs {
		cmds = append(cmds, s.args(k.PaneID))
	}
	if prefix != "" {
		cmds = append(cmds, []string{"show-options", "-p", "-t", k.PaneID})
	}
	outs, err := k.Command(ctx, cmds...)
	if err != nil {
		if errors.Is(err, ErrPaneNotFound) {
			return PaneInfo{}, nil, nil, &NotFoundError{Target: k.PaneID}
		}
		return PaneInfo{}, nil, nil, err
	}
	p, err := parsePane(strings.TrimSuffix(outs[0], "\n"))
	if err == errNoPane || (err == nil && p.ID != k.PaneID) {
		return PaneInfo{}, nil, nil, &NotFoundError{Target: k.PaneID}
	}
	if err != nil {
		return PaneInfo{}, nil, nil, err
	}
	var opts map[string]string
	if prefix != "" {
		if opts, err = parseOptions(k.PaneID, outs[len(outs)-1], prefix); err != nil {
			return PaneInfo{}, nil, nil, err
		}
	}
	return p, outs[1 : 1+len(specs)], opts, nil
}

// Snapshotter takes atomic snapshots of a pane (its description, captures
// and user options in one command list): *Client starts a tmux process for
// each, *Control runs them through an attached control client.
type Snapshotter interface {
	SnapshotOptions(ctx context.Context, id, prefix string, specs ...CaptureSpec) (PaneInfo, []string, map[string]string, error)
}

var (
	_ Snapshotter = (*Client)(nil)
	_ Snapshotter = (*Control)(nil)
)

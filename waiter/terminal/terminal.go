// Package terminal streams a pane as ACP v2 terminal updates
// (terminal_update, terminal_output_chunk): what `panectl watch --format
// acp` prints. It follows the pane through tmux's control mode.
package terminal

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/panectl/panectl/pane/acp"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/tmux"
)

// Options configure Watch.
type Options struct {
	// TerminalID names the terminal in every update; "" means the pane id.
	TerminalID string
	// Emit receives each update in order, on Watch's goroutine. Its error ends the watch.
	Emit func(acp.SessionUpdate) error
	// Once looks once, as a timeout of 0: the first update, and the exit update if already exited.
	Once bool
	// Deadline ends the watch without an exit update (zero: none). The context should outlast it,
	// as a look begun before may end after it. A look unanswered by ctx's end is a
	// *tmux.NotRespondingError.
	Deadline time.Time
}

// Result says how a watch ended without error.
type Result struct {
	Note   string // how output was followed, when worth saying ("polling: ...")
	Exited bool   // the stream ended with the exit update (else: Once or the deadline)
}

// How often the pane's cwd, size, foreground command and death are looked at. Soon after output,
// and at a modest rate while idle. Through the control client a look starts no process.
const (
	lookAfterOutput = 50 * time.Millisecond
	lookIdle        = 250 * time.Millisecond
	maxChunk        = 64 << 10
)

// Watch streams pane p as ACP terminal updates (SPEC.md section 10) until its process
// exits. First comes a full terminal_update with command, cwd, size and an output snapshot
// (acp.ScreenCapture). A control-mode client's new bytes go out as terminal_output_chunk. Changes
// of cwd, size and foreground command are terminal_update patches. When tmux paused the output,
// bytes were lost, and a fresh snapshot goes out. Last comes a terminal_update with exitStatus. It
// returns nil after the exit update, or ctx's error first. Without a control client (see Watch),
// each change of the captured screen goes out as a new snapshot, and Note says why.
//
// The pane must outlive its process for the exit status to be read. So c.HoldExit sets
// remain-on-exit for the watch, drawing no "Pane is dead" line (tmux.PaneHold). Afterwards a dead
// pane is killed if its own setting would have closed it. Else its settings are put back. A tmux
// guard client does this even if panectl is killed. A killed pane, rather than an exited one, ends
// with an exitStatus of neither code nor signal.
func Watch(ctx context.Context, c *tmux.Client, p tmux.PaneInfo, opt Options) (res Result, err error) {
	w := &termWatch{c: c, id: p.ID, tid: opt.TerminalID, emit: opt.Emit, q: newTermQueue()}
	if w.tid == "" {
		w.tid = p.ID
	}
	hold, err := c.HoldExit(ctx, p.ID)
	if err != nil {
		return res, err
	}
	defer hold.Release(ctx)

	if res.Note, err = w.subscribe(ctx, p); err != nil {
		return res, err
	}
	if w.k != nil {
		defer w.k.Close()
	}
	info, err := w.first(ctx)
	if err != nil {
		return res, err
	}
	if info.Dead {
		res.Exited = true
		return res, w.exit(ctx, &info)
	}
	if opt.Once {
		return res, nil
	}
	return w.follow(ctx, opt.Deadline, res)
}

// subscribe attaches a control client to the pane, or the watch polls and the note says why. Its
// only errors are a server gone and ctx's.
func (w *termWatch) subscribe(ctx context.Context, p tmux.PaneInfo) (string, error) {
	if tmux.WouldSendFocus(p) {
		return "polling: control mode unavailable: attaching would send the pane a focus-in event (focus-events is on and no client is attached)", nil
	}
	k, err := w.c.Subscribe(ctx, p, w.q.push)
	switch {
	case err == nil:
		w.k = k
		return "", nil
	case errors.Is(err, tmux.ErrNoServer) || ctx.Err() != nil:
		return "", err
	}
	return "polling: " + err.Error(), nil
}

// first emits the full-state terminal_update: command, cwd, size and an output snapshot.
func (w *termWatch) first(ctx context.Context) (tmux.PaneInfo, error) {
	info, data, err := w.snapshot(ctx)
	if err != nil {
		return info, err
	}
	info.Command = proc.CurrentCommand(info) // a task's command, not its supervisor
	w.cur = info
	w.lastSnap = data
	return info, w.emit(acp.NewTerminalUpdate(w.tid, info.Command, info.CWD, sizeOf(info), data))
}

// follow streams updates until the pane's process exits, the deadline passes or ctx ends.
func (w *termWatch) follow(ctx context.Context, deadline time.Time, res Result) (Result, error) {
	w.lookAt = time.Now().Add(lookIdle)
	timer := time.NewTimer(lookIdle)
	defer timer.Stop()
	var end <-chan time.Time // the deadline
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		end = t.C
	}
	for {
		var kdone <-chan struct{}
		if w.k != nil {
			kdone = w.k.Done()
		}
		select {
		case <-ctx.Done():
			return res, ctx.Err()
		case <-end:
			return res, nil
		case <-w.q.ch:
		case <-timer.C:
		case <-kdone:
			// The session or server went away, or the client was killed. Look now; tmux processes
			// from here on.
			w.k = nil
			w.lookAt = time.Now()
			if res.Note == "" {
				res.Note = "polling: the control client ended"
			}
		}
		var done bool
		var err error
		if res, done, err = w.step(ctx, res); done || err != nil {
			return res, err
		}
		timer.Reset(max(time.Until(w.lookAt), time.Millisecond))
	}
}

// step sends what the control client brought, and looks at the pane when due. done ends the watch.
func (w *termWatch) step(ctx context.Context, res Result) (_ Result, done bool, _ error) {
	data, paused, changed := w.q.take()
	now := time.Now()
	if len(data) > 0 {
		if err := w.chunks(data); err != nil {
			return res, true, err
		}
		if soon := now.Add(lookAfterOutput); soon.Before(w.lookAt) {
			w.lookAt = soon
		}
	}
	if paused {
		// tmux dropped output to let the client catch up: replace it all
		info, snap, err := w.snapshot(ctx)
		if err != nil {
			res, err := w.gone(ctx, res, err)
			return res, true, err
		}
		if err := w.replace(info, snap); err != nil {
			return res, true, err
		}
	}
	if changed {
		w.lookAt = now
	}
	if now.Before(w.lookAt) {
		return res, false, nil
	}
	info, err := w.look(ctx)
	if err != nil {
		res, err := w.gone(ctx, res, err)
		return res, true, err
	}
	if err := w.patch(info); err != nil {
		return res, true, err
	}
	if info.Dead {
		res.Exited = true
		return res, true, w.exit(ctx, &info)
	}
	w.lookAt = now.Add(lookIdle)
	return res, false, nil
}

// replace sends a fresh snapshot that replaces all output, then a patch for the rest.
func (w *termWatch) replace(info tmux.PaneInfo, snap []byte) error {
	w.lastSnap = snap
	if err := w.emit(acp.TerminalUpdate{TerminalID: w.tid, Output: acp.Some(acp.TerminalOutput{Data: snap})}); err != nil {
		return err
	}
	return w.patch(info)
}

type termWatch struct {
	c        *tmux.Client
	k        *tmux.Subscription // nil: polling
	id, tid  string
	emit     func(acp.SessionUpdate) error
	q        *termQueue
	cur      tmux.PaneInfo // what the stream has told so far
	lastSnap []byte        // the last output snapshot sent (polling compares)
	lookAt   time.Time     // when the pane's description is looked at next
}

func sizeOf(p tmux.PaneInfo) acp.TerminalSize {
	return acp.TerminalSize{Cols: uint16(max(1, p.Width)), Rows: uint16(max(1, p.Height))}
}

// chunks emits data as output chunks of at most maxChunk bytes.
func (w *termWatch) chunks(data []byte) error {
	for len(data) > 0 {
		n := min(len(data), maxChunk)
		if err := w.emit(acp.NewOutputChunk(w.tid, data[:n])); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// look describes the pane through the control client, aligned with the output stream and starting
// no process. Else it runs tmux. When polling, a changed screen goes out as a new snapshot.
func (w *termWatch) look(ctx context.Context) (tmux.PaneInfo, error) {
	if w.k != nil {
		info, _, _, err := w.k.SnapshotOptions(ctx, w.id, "")
		if err == nil || ctx.Err() != nil || errors.Is(err, tmux.ErrNotResponding) {
			return info, err
		}
		w.k = nil // fall through to a process, which tells whether the pane is gone
	}
	info, snap, err := w.snapshot(ctx)
	if err != nil {
		return info, err
	}
	if string(snap) != string(w.lastSnap) {
		w.lastSnap = snap
		if err := w.emit(acp.TerminalUpdate{TerminalID: w.tid, Output: acp.Some(acp.TerminalOutput{Data: snap})}); err != nil {
			return info, err
		}
	}
	return info, nil
}

// patch emits a terminal_update with what changed since the last one.
func (w *termWatch) patch(info tmux.PaneInfo) error {
	u := acp.TerminalUpdate{TerminalID: w.tid}
	any := false
	if info.CWD != "" && info.CWD != w.cur.CWD {
		u.Cwd, any = acp.Some(info.CWD), true
		w.cur.CWD = info.CWD
	}
	if info.Width != w.cur.Width || info.Height != w.cur.Height {
		u.Size, any = acp.Some(sizeOf(info)), true
		w.cur.Width, w.cur.Height = info.Width, info.Height
	}
	if cmd := proc.CurrentCommand(info); cmd != "" && cmd != w.cur.Command {
		u.Command, any = acp.Some(cmd), true
		w.cur.Command = cmd
	}
	if !any {
		return nil
	}
	return w.emit(u)
}

// exit emits the final update: a dead pane's exit status, or unknown for a nil info. Then the pane
// is gone, or the status never came. tmux drops output not yet sent to a control client when a pane
// dies. So a dead pane's final update has a snapshot that replaces all output, last bytes included.
func (w *termWatch) exit(ctx context.Context, info *tmux.PaneInfo) error {
	u := acp.TerminalUpdate{TerminalID: w.tid}
	st := acp.TerminalExitStatus{}
	if info != nil {
		if _, snap, err := w.snapshot(ctx); err == nil {
			u.Output = acp.Some(acp.TerminalOutput{Data: snap})
		}
		if code, sig, ok := w.deadStatus(ctx); ok && sig != 0 {
			st = acp.ExitStatusSignal(acp.SignalName(sig))
		} else if ok {
			st = acp.ExitStatusCode(int64(code))
		}
	}
	u.ExitStatus = acp.Some(st)
	return w.emit(u)
}

// deadStatus reads a dead pane's exit status. tmux marks a pane dead when its terminal closes,
// maybe before reaping it. Until then pane_dead_status and pane_dead_signal are empty. So they are
// read again for up to two seconds, nudging the server after the first miss. A task supervisor's
// record (task.RecordTaskExit) comes first. tmux 3.3a sometimes never reports the status, nor ever
// a signal.
func (w *termWatch) deadStatus(ctx context.Context) (code, sig int, ok bool) {
	const format = "#{pane_dead_status},#{pane_dead_signal},#{@panectl_task_exit}"
	deadline := time.Now().Add(2 * time.Second)
	nudged := false
	for {
		var out string
		var err error
		if w.k != nil {
			var outs []string
			if outs, err = w.k.Command(ctx, []string{"display-message", "-p", "-t", w.id, format}); err == nil {
				out = strings.TrimSuffix(outs[0], "\n")
			}
		} else {
			out, err = w.c.Format(ctx, w.id, format)
		}
		if err != nil {
			return 0, 0, false
		}
		st, rest, _ := strings.Cut(out, ",")
		sg, task, _ := strings.Cut(rest, ",")
		if kind, n, ok := strings.Cut(task, ":"); ok {
			v, _ := strconv.Atoi(n)
			if kind == "signal" {
				return 0, v, true
			}
			return v, 0, true
		}
		if st != "" || sg != "" {
			code, _ = strconv.Atoi(st)
			sig, _ = strconv.Atoi(sg)
			return code, sig, true
		}
		if time.Now().After(deadline) {
			return 0, 0, false
		}
		if !nudged {
			// tmux 3.3a can miss the SIGCHLD (tmux.Client.NudgeReap)
			nudged = true
			_ = w.c.NudgeReap(ctx)
		}
		select {
		case <-ctx.Done():
			return 0, 0, false
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// gone ends the watch after a failed look. A pane that no longer exists was killed, its status
// unknown. Anything else is an error.
func gone(err error) bool {
	return errors.Is(err, tmux.ErrPaneNotFound) || errors.Is(err, tmux.ErrNoServer)
}

func (w *termWatch) gone(ctx context.Context, res Result, err error) (Result, error) {
	if ctx.Err() != nil && !errors.Is(err, tmux.ErrNotResponding) {
		return res, ctx.Err()
	}
	if gone(err) {
		res.Exited = true
		return res, w.exit(ctx, nil)
	}
	return res, err
}

// snapshot captures history, screen and cursor as replayable bytes (acp.ScreenCapture). Through the
// control client, output queued before the capture is dropped, since the capture holds it.
func (w *termWatch) snapshot(ctx context.Context) (tmux.PaneInfo, []byte, error) {
	var info tmux.PaneInfo
	var err error
	if w.k != nil {
		info, _, _, err = w.k.SnapshotOptions(ctx, w.id, "")
	} else {
		info, err = w.c.Pane(ctx, w.id)
	}
	if err != nil {
		return info, nil, err
	}
	for try := 0; ; try++ {
		specs := captureSpecs(info)
		var got tmux.PaneInfo
		var texts []string
		if w.k != nil {
			got, texts, _, err = w.k.SnapshotOptions(ctx, w.id, "", specs...)
			if err == nil {
				w.q.dropBeforeMark()
			}
		} else {
			got, texts, err = w.c.Snapshot(ctx, w.id, specs...)
		}
		if err != nil {
			return got, nil, err
		}
		if got.AlternateOn != info.AlternateOn || (got.HistorySize > 0) != (info.HistorySize > 0) {
			if try < 3 {
				info = got // the screen switched between the two looks
				continue
			}
		}
		sc := acp.ScreenCapture{CursorX: got.CursorX, CursorY: got.CursorY}
		if !info.AlternateOn {
			sc.Rows = texts[0]
			if got.Dead {
				sc.Rows = w.c.TrimDeadLine(sc.Rows) // tmux's line, before 3.3
			}
		} else {
			if info.HistorySize > 0 {
				sc.Rows, texts = texts[0], texts[1:]
			}
			sc.Rows += texts[0]
			sc.Alternate, sc.AltRows, sc.SavedY = true, texts[1], got.AltSavedY
		}
		return got, sc.Bytes(), nil
	}
}

// captureSpecs are a snapshot's captures. The normal screen takes one, of history and screen. The
// alternate screen takes the history if any, the saved normal screen and the alternate screen.
// Without history tmux would return visible rows.
func captureSpecs(info tmux.PaneInfo) []tmux.CaptureSpec {
	if !info.AlternateOn {
		return []tmux.CaptureSpec{{FromOldest: true, ToBottom: true, Escapes: true}}
	}
	var specs []tmux.CaptureSpec
	if info.HistorySize > 0 {
		specs = append(specs, tmux.CaptureSpec{FromOldest: true, End: -1, Escapes: true})
	}
	return append(specs,
		tmux.CaptureSpec{Alternate: true, Start: 0, ToBottom: true, Escapes: true},
		tmux.CaptureSpec{Start: 0, ToBottom: true, Escapes: true})
}

// termQueue collects control-mode events for the watch loop. OnEvent must never block, so bytes are
// appended under a lock and the loop is woken.
type termQueue struct {
	mu            sync.Mutex
	data          []byte
	mark          int // len(data) when the last command's output came
	paused, chang bool
	ch            chan struct{}
}

func newTermQueue() *termQueue { return &termQueue{ch: make(chan struct{}, 1)} }

func (q *termQueue) push(e tmux.ControlEvent) {
	q.mu.Lock()
	switch e.Kind {
	case tmux.EventOutput:
		q.data = append(q.data, e.Data...)
	case tmux.EventPause:
		q.paused = true
	case tmux.EventChange:
		q.chang = true
	case tmux.EventCommandDone:
		q.mark = len(q.data)
		q.mu.Unlock()
		return
	}
	q.mu.Unlock()
	select {
	case q.ch <- struct{}{}:
	default:
	}
}

// take returns and clears what was queued.
func (q *termQueue) take() (data []byte, paused, changed bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	data, paused, changed = q.data, q.paused, q.chang
	q.data, q.mark, q.paused, q.chang = nil, 0, false, false
	return data, paused, changed
}

// dropBeforeMark drops the bytes before the last command's output, which its capture holds.
func (q *termQueue) dropBeforeMark() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.data = append([]byte(nil), q.data[q.mark:]...)
	q.mark = 0
	q.paused = false
}

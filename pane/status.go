package pane

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/panectl/panectl/tmux"
)

// StatusOption is the pane user option holding what the previous `status`
// of the pane saw: its cursor, the foreground command and the dead flag.
const StatusOption = "@panectl_status"

const statusMagic = "st1"

// statusState is StatusOption decoded.
type statusState struct {
	Cursor  Cursor
	Command string
	Dead    bool
}

// encode renders the state as a plain token: "st1.<cursor>.<command
// base64url>.<0|1>" (a cursor token holds no '.').
func (s statusState) encode() string {
	dead := "0"
	if s.Dead {
		dead = "1"
	}
	return statusMagic + "." + s.Cursor.Encode() + "." + base64.RawURLEncoding.EncodeToString([]byte(s.Command)) + "." + dead
}

func parseStatusState(v string) (statusState, bool) {
	f := strings.Split(v, ".")
	if len(f) != 4 || f[0] != statusMagic {
		return statusState{}, false
	}
	cur, err := ParseCursor(f[1])
	if err != nil || cur.Special != "" {
		return statusState{}, false
	}
	cmd, err := base64.RawURLEncoding.DecodeString(f[2])
	if err != nil {
		return statusState{}, false
	}
	return statusState{Cursor: cur, Command: string(cmd), Dead: f[3] == "1"}, true
}

// StatusOptions tune Status.
type StatusOptions struct {
	Verbose    bool // return the visible screen's lines whether or not anything changed
	Scrollback int  // prepend this many lines of history before the output
	MaxLines   int  // keep the newest MaxLines lines of new output (0: no limit)
}

// StatusResult is what changed in a pane since its previous Status.
type StatusResult struct {
	Lines        []string // new lines (or the screen with Verbose), history context first
	Changed      bool     // new output, a new foreground command, or the pane died
	First        bool     // no previous status of this pane (or of this process in it)
	Cursor       Cursor   // the point after the lines read
	LinesDropped int
	Truncated    bool
	Reset        bool
	Note         string
	Pane         tmux.PaneInfo
	// Command is the pane's foreground program by name (CurrentCommand: a
	// background task's command, not panectl's supervisor).
	Command string
}

// Status returns what changed in the pane since the previous Status of the
// same pane (by any panectl process: the point is kept in the pane's options
// as a cursor) and records the new point. The first look returns the visible
// screen and counts as a change.
func Status(ctx context.Context, c *tmux.Client, id string, opt StatusOptions) (StatusResult, error) {
	info, err := c.Pane(ctx, id)
	if err != nil {
		return StatusResult{}, err
	}
	raw, err := c.PaneOption(ctx, id, StatusOption)
	if err != nil {
		return StatusResult{}, err
	}
	prev, ok := parseStatusState(raw)
	if ok && prev.Cursor.Check(info.ID, info.PID) != nil {
		ok = false // respawned: start over
	}
	cur := Cursor{Special: CursorScreen}
	if ok {
		cur = prev.Cursor
	}
	r, err := ReadAny(ctx, c, info, cur, ReadOptions{MaxLines: opt.MaxLines})
	if err != nil {
		return StatusResult{}, err
	}
	p := r.Pane
	for i := 0; p.Dead && !p.DeadKnown && i < 25; i++ {
		// the pty closed before tmux reaped the process: its exit status
		// follows within moments, or never on a tmux that missed the
		// SIGCHLD (tmux.Client.NudgeReap)
		if i == 0 {
			_ = c.NudgeReap(ctx)
		}
		select {
		case <-ctx.Done():
			return StatusResult{}, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if p, err = c.Pane(ctx, id); err != nil {
			return StatusResult{}, err
		}
	}
	if p.Dead {
		// A background task's pane runs panectl's supervisor, whose own
		// status says nothing: the supervisor recorded how the command ended.
		if t, err := LoadTask(ctx, c, TaskIDOf(id)); err == nil && (t.Exit != nil || t.Signal != 0) {
			p.DeadKnown, p.DeadSignal = true, t.Signal
			if t.Exit != nil {
				p.DeadStatus = *t.Exit
			}
		}
	}
	res := StatusResult{
		Lines: r.Lines, First: !ok, Cursor: r.Cursor, LinesDropped: r.LinesDropped,
		Truncated: r.Truncated, Reset: r.Reset, Note: r.Note, Pane: p, Command: CurrentCommand(p),
	}
	res.Changed = !ok || len(r.Lines) > 0 || r.Reset || r.LinesDropped > 0 ||
		prev.Command != res.Command || prev.Dead != p.Dead
	if !res.Changed {
		res.Lines = nil
	}
	if opt.Verbose {
		v, err := Read(ctx, c, id, Cursor{Special: CursorScreen}, ReadOptions{MaxLines: opt.MaxLines})
		if err != nil {
			return StatusResult{}, err
		}
		res.Lines = v.Lines
	}
	if opt.Scrollback > 0 && (res.Changed || opt.Verbose) {
		// the lines before the output: read the tail of everything and cut
		// the output off its end
		all, err := Read(ctx, c, id, Cursor{Special: CursorHistory}, ReadOptions{MaxLines: opt.Scrollback + len(res.Lines)})
		if err != nil {
			return StatusResult{}, err
		}
		ctxLines := all.Lines[:max(0, len(all.Lines)-len(res.Lines))]
		if len(ctxLines) > opt.Scrollback {
			ctxLines = ctxLines[len(ctxLines)-opt.Scrollback:]
		}
		res.Lines = append(append([]string{}, ctxLines...), res.Lines...)
	}
	st := statusState{Cursor: r.Cursor, Command: res.Command, Dead: p.Dead}
	if err := c.SetPaneOptions(ctx, id, map[string]string{StatusOption: st.encode()}, nil); err != nil {
		return StatusResult{}, fmt.Errorf("saving the status point of %s: %w", id, err)
	}
	return res, nil
}

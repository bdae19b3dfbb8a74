// Package tool holds the bodies of panectl's tools, which the CLI, call
// and MCP share. It is the one place that combines several pane
// packages for one answer.
package tool

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/journal"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/tmux"
)

// StatusOption is the pane user option holding what the previous `status`
// of the pane saw: its cursor, the foreground command and the dead flag.
const StatusOption = "@panectl_status"

const statusMagic = "st1"

// statusState is StatusOption decoded.
type statusState struct {
	Cursor  pane.Cursor
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
	cur, err := pane.ParseCursor(f[1])
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
	Lines        []string    // new lines (or the screen with Verbose), history context first
	Changed      bool        // new output, a new foreground command, or the pane died
	First        bool        // no previous status of this pane (or of this process in it)
	Cursor       pane.Cursor // the point after the lines read
	LinesDropped int
	Truncated    bool
	Reset        bool
	Note         string
	Pane         tmux.PaneInfo
	// Command is the pane's foreground program by name (CurrentCommand: a
	// background task's command, not panectl's supervisor); for a task
	// that has ended, the task's command as given.
	Command string
	// Task is the background task whose pane this is (nil for any other
	// pane): its output was read from its journal, and its Status, Exit and
	// Signal say how it ended, as its supervisor recorded it.
	Task *task.Task
}

// Status returns what changed in the pane since the previous Status of the
// same pane (by any panectl process: the point is kept in the pane's options
// as a cursor) and records the new point. The first look returns the visible
// screen and counts as a change.
//
// A background task's pane is read from the task's journal, never from what
// tmux shows (its "Pane is dead" banner, the blank rows above it): the first
// look returns the journal from its start, a later one what the journal
// gained since, Verbose the journal (its newest MaxLines lines), and the
// Scrollback lines come from the journal too. How it ended is the task's
// record (Result.Task), not tmux's status of panectl's supervisor.
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
	tk := taskOfPane(ctx, c, info)
	r, err := journal.ReadPane(ctx, c, info, statusCursor(prev, ok, tk), pane.ReadOptions{MaxLines: opt.MaxLines})
	if err != nil {
		return StatusResult{}, err
	}
	p, err := c.AwaitDeadStatus(ctx, r.Pane)
	if err != nil {
		return StatusResult{}, err
	}
	tk, p = taskEnd(tk, p)
	res := StatusResult{
		Lines: r.Lines, First: !ok, Cursor: r.Cursor, LinesDropped: r.LinesDropped,
		Truncated: r.Truncated, Reset: r.Reset, Note: r.Note, Pane: p, Command: proc.CurrentCommand(p), Task: tk,
	}
	if tk != nil && tk.Status != task.TaskRunning {
		res.Command = tk.Spec.Command // the supervisor's name says nothing
	}
	res.Changed = !ok || len(r.Lines) > 0 || r.Reset || r.LinesDropped > 0 ||
		prev.Command != res.Command || prev.Dead != p.Dead
	if !res.Changed {
		res.Lines = nil
	}
	if res.Lines, err = statusLines(ctx, c, id, tk, opt, res); err != nil {
		return StatusResult{}, err
	}
	st := statusState{Cursor: r.Cursor, Command: res.Command, Dead: p.Dead}
	if err := c.SetPaneOptions(ctx, id, map[string]string{StatusOption: st.encode()}, nil); err != nil {
		return StatusResult{}, fmt.Errorf("saving the status point of %s: %w", id, err)
	}
	return res, nil
}

// statusCursor is where Status reads from. The first look reads the
// screen, or a task's journal from its start; a later one the previous
// point. A task's previous point counts only when it was in the journal.
func statusCursor(prev statusState, ok bool, tk *task.Task) pane.Cursor {
	cur := pane.Cursor{Special: pane.CursorScreen}
	if tk != nil {
		cur = pane.Cursor{Special: pane.CursorHistory} // the journal from its start
	}
	if ok && (tk == nil || prev.Cursor.Journal) {
		cur = prev.Cursor
	}
	return cur
}

// taskEnd is the task as its record says, and the pane with its exit. A
// background task's pane runs panectl's supervisor, whose own status says
// nothing: the supervisor recorded how the command ended. It returns a nil
// task and p unchanged for any other pane.
func taskEnd(tk *task.Task, p tmux.PaneInfo) (*task.Task, tmux.PaneInfo) {
	if tk == nil {
		return nil, p
	}
	t := task.Of(tk.ID, tk.Dir, tk.Spec, p)
	if p.Dead && (t.Exit != nil || t.Signal != 0) {
		p.DeadKnown, p.DeadStatus, p.DeadSignal = true, 0, t.Signal
		if t.Exit != nil {
			p.DeadStatus = *t.Exit
		}
	}
	return &t, p
}

// statusLines are the lines Status returns: res.Lines, or the screen with
// Verbose, and then the Scrollback lines before them.
func statusLines(ctx context.Context, c *tmux.Client, id string, tk *task.Task, opt StatusOptions, res StatusResult) ([]string, error) {
	lines := res.Lines
	if opt.Verbose {
		v, err := statusNewest(ctx, c, id, tk, pane.Cursor{Special: pane.CursorScreen}, opt.MaxLines)
		if err != nil {
			return nil, err
		}
		lines = v
	}
	if opt.Scrollback > 0 && (res.Changed || opt.Verbose) {
		// the lines before the output: read the tail of everything and cut
		// the output off its end
		all, err := statusNewest(ctx, c, id, tk, pane.Cursor{Special: pane.CursorHistory}, opt.Scrollback+len(lines))
		if err != nil {
			return nil, err
		}
		ctxLines := all[:max(0, len(all)-len(lines))]
		if len(ctxLines) > opt.Scrollback {
			ctxLines = ctxLines[len(ctxLines)-opt.Scrollback:]
		}
		lines = append(append([]string{}, ctxLines...), lines...)
	}
	return lines, nil
}

// statusNewest reads the pane's newest n lines from cur (screen or
// history). A task's come from its journal, whatever the cursor.
func statusNewest(ctx context.Context, c *tmux.Client, id string, tk *task.Task, cur pane.Cursor, n int) ([]string, error) {
	if tk != nil {
		j, err := journal.ReadAfter(tk.Journal, pane.Cursor{Special: pane.CursorHistory}, pane.ReadOptions{MaxLines: n})
		return j.Lines, err
	}
	v, err := pane.Read(ctx, c, id, cur, pane.ReadOptions{MaxLines: n})
	return v.Lines, err
}

// taskOfPane returns the background task whose pane info is (its journal is
// the pane's journal), nil for any other pane.
func taskOfPane(ctx context.Context, c *tmux.Client, info tmux.PaneInfo) *task.Task {
	dir, err := journal.DirOf(ctx, c, info)
	if err != nil || dir == "" {
		return nil
	}
	t, err := task.LoadTask(ctx, c, task.TaskIDOf(info.ID))
	if err != nil || t.Journal != dir {
		return nil
	}
	return &t
}

package tool

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/journal"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/pane/statedir"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

func summary(p tmux.PaneInfo) schema.PaneSummary {
	return schema.PaneSummary{
		PaneID: p.ID, SessionID: p.SessionID, SessionName: p.SessionName, WindowID: p.WindowID,
		Command: proc.CurrentCommand(p), PID: p.PID, CWD: p.CWD, Width: p.Width, Height: p.Height, Dead: p.Dead, Title: p.Title,
	}
}

func runList(ctx context.Context, f *Env, _ schema.ListPanesInput) (schema.ListPanesOutput, error) {
	c, err := f.Client()
	if err != nil {
		return schema.ListPanesOutput{}, err
	}
	panes, bad, err := c.ListPanes(ctx)
	if err != nil {
		return schema.ListPanesOutput{}, err
	}
	out := schema.ListPanesOutput{Panes: []schema.PaneSummary{}}
	for _, p := range panes {
		out.Panes = append(out.Panes, summary(p))
	}
	for _, b := range bad {
		out.Note = schema.JoinNotes(out.Note, fmt.Sprintf("pane %s left out: %v", cmp.Or(b.Pane.ID, "(unknown)"), b.Err))
	}
	return out, nil
}

func runNew(ctx context.Context, f *Env, in schema.NewPaneInput) (schema.NewPaneOutput, error) {
	opts := tmux.NewOptions{SessionName: in.Name, WindowIn: in.WindowIn, CWD: in.CWD, Env: in.Env, Command: in.Command, HistoryLimit: in.HistoryLimit}
	if in.Size != "" {
		w, h, ok := strings.Cut(strings.ToLower(in.Size), "x")
		var err1, err2 error
		opts.Width, err1 = strconv.Atoi(w)
		opts.Height, err2 = strconv.Atoi(h)
		if !ok || err1 != nil || err2 != nil || opts.Width < 2 || opts.Height < 2 || opts.Width > schema.MaxPaneSize || opts.Height > schema.MaxPaneSize {
			return schema.NewPaneOutput{}, Usagef("invalid size %q: want COLSxROWS, e.g. 120x40", in.Size)
		}
	}
	if in.HistoryLimit < 0 || in.HistoryLimit > schema.MaxHistoryLimit {
		return schema.NewPaneOutput{}, Usagef("history_limit %d is out of range: want 0..%d (0: the server's default)", in.HistoryLimit, schema.MaxHistoryLimit)
	}
	for _, e := range in.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
			return schema.NewPaneOutput{}, Usagef("invalid env %q: want K=V", e)
		}
	}
	if err := checkSessionName(in.Name); err != nil {
		return schema.NewPaneOutput{}, err
	}
	if in.CWD != "" {
		// tmux would silently start in another directory
		abs, err := filepath.Abs(in.CWD)
		if err == nil {
			var st os.FileInfo
			if st, err = os.Stat(abs); err == nil && !st.IsDir() {
				err = fmt.Errorf("not a directory")
			}
		}
		if err != nil {
			return schema.NewPaneOutput{}, Usagef("cwd %q must be an existing directory: %v", in.CWD, err)
		}
		opts.CWD = abs
	}
	if len(in.Command) > 0 {
		// a command that exits at once is exit 5, every time (tmux.NewPane)
		opts.ExitCheck = newExitCheck
	}
	c, err := f.Client()
	if err != nil {
		return schema.NewPaneOutput{}, err
	}
	if in.Journal {
		self, err := os.Executable()
		if err != nil {
			return schema.NewPaneOutput{}, fmt.Errorf("cannot find the panectl binary to write the journal: %w", err)
		}
		// the state directory now, when the server runs: the writer then
		// starts without asking tmux
		state, _ := statedir.Dir(ctx, c)
		opts.Then = journal.PipeCommand([]string{self, "-S", c.Server.Socket}, state)
	}
	p, err := c.NewPane(ctx, opts)
	if err != nil {
		return schema.NewPaneOutput{}, err
	}
	out := schema.NewPaneOutput{PaneSummary: summary(p), Cursor: pane.Cursor{Special: pane.CursorHistory}.Encode()}
	if in.Journal {
		if out.Journal, err = journal.Attach(ctx, c, p.ID); err != nil {
			return out, err
		}
	}
	return out, nil
}

// newExitCheck is how long `new -- COMMAND` holds the new pane to see
// whether COMMAND exits at once (exit 5).
const newExitCheck = 150 * time.Millisecond

// checkSessionName refuses a session name tmux would change: tmux
// replaces ":" and "." with "_" (they separate a target's parts) and
// escapes control characters, so the session would not be found by the
// name given.
func checkSessionName(name string) error {
	if i := strings.IndexAny(name, ":."); i >= 0 {
		return Usagef("session name %q holds %q, which tmux would replace with \"_\" (\":\" and \".\" separate the parts of a target); choose a name without \":\" and \".\"", name, name[i:i+1])
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return Usagef("session name %q holds a control character, which tmux would escape; choose a printable name", name)
		}
	}
	return nil
}

func runKill(ctx context.Context, f *Env, in schema.PaneInput) (schema.KillPaneOutput, error) {
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.KillPaneOutput{}, err
	}
	if err := task.KillPane(ctx, c, p); err != nil {
		return schema.KillPaneOutput{}, err
	}
	return schema.KillPaneOutput{PaneID: p.ID, Killed: true}, nil
}

func runCursor(ctx context.Context, f *Env, in schema.PaneInput) (schema.CursorOutput, error) {
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.CursorOutput{}, err
	}
	// (on a journaled pane the cursor carries the journal point too, so a
	// later read from it loses nothing: journal.ReadPane)
	r, err := journal.ReadPane(ctx, c, p, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1})
	if err != nil {
		return schema.CursorOutput{}, err
	}
	return schema.CursorOutput{PaneID: p.ID, Cursor: cursorToken(ctx, f, c, p.ID, r.Cursor)}, nil
}

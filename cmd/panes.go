package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/spf13/cobra"
)

func summary(p tmux.PaneInfo) schema.PaneSummary {
	return schema.PaneSummary{
		PaneID: p.ID, SessionID: p.SessionID, SessionName: p.SessionName, WindowID: p.WindowID,
		Command: proc.CurrentCommand(p), PID: p.PID, CWD: p.CWD, Width: p.Width, Height: p.Height, Dead: p.Dead, Title: p.Title,
	}
}

func newListCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the panes of the server",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			out, err := runList(c.Context(), f, schema.ListPanesInput{})
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) {
				for _, p := range out.Panes {
					dead := ""
					if p.Dead {
						dead = " (dead)"
					}
					fmt.Fprintf(w, "%s\t%s:%s\t%s\t%dx%d\t%s\t%s%s\n", p.PaneID, p.SessionName, p.WindowID, p.Command, p.Width, p.Height, p.CWD, p.Title, dead)
				}
			})
		},
	}
}

func runList(ctx context.Context, f *Factory, _ schema.ListPanesInput) (schema.ListPanesOutput, error) {
	c, err := f.Client()
	if err != nil {
		return schema.ListPanesOutput{}, err
	}
	panes, err := c.ListPanes(ctx)
	if err != nil {
		return schema.ListPanesOutput{}, err
	}
	out := schema.ListPanesOutput{Panes: []schema.PaneSummary{}}
	for _, p := range panes {
		out.Panes = append(out.Panes, summary(p))
	}
	return out, nil
}

func newNewCmd(f *Factory) *cobra.Command {
	var in schema.NewPaneInput
	cmd := &cobra.Command{
		Use:   "new [flags] [-- COMMAND [ARG...]]",
		Short: "Create a detached session (or a window) running a shell or COMMAND",
		Long: `Create a detached session (or, with --window-in, a window in an existing
session) running your shell or COMMAND, and print the new pane's id. Focus
and attached clients are left alone.

Every argument reaches tmux as given (';', '#' and quotes too). --name must
not hold ':' or '.', and --cwd must be an existing directory (exit 2).
COMMAND that exits at once is exit 5, with its status and last lines; its
pane then closes as tmux would have closed it.

--history-limit changes no other pane's history. On tmux 3.7 and later it is
the new session's own option; with --window-in it must equal that session's
limit, else it is refused (exit 1): 3.7 applies one limit to every pane of a
session (panectl help tmux-versions).

See: panectl help arguments, panectl help deaths`,
		Example: `  panectl new --name build --size 120x40
  panectl new --history-limit 50000 -- python3 -q`,
		RunE: func(c *cobra.Command, args []string) error {
			in.Command = args
			out, err := runNew(c.Context(), f, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { fmt.Fprintln(w, out.PaneID) })
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&in.Name, "name", "n", "", `session name (no ":" or ".")`)
	fl.StringVar(&in.WindowIn, "window-in", "", "create a window in this existing session instead")
	fl.StringVarP(&in.CWD, "cwd", "c", "", "working directory (must exist)")
	fl.StringVar(&in.Size, "size", "", "size as COLSxROWS, e.g. 120x40")
	fl.IntVar(&in.HistoryLimit, "history-limit", 0, "history-limit of this pane, in rows")
	fl.StringArrayVarP(&in.Env, "env", "e", nil, "environment variable K=V (repeatable)")
	fl.BoolVar(&in.Journal, "journal", false, "keep the pane's whole output in a journal (capture and status read it; see: panectl help journals)")
	return cmd
}

func runNew(ctx context.Context, f *Factory, in schema.NewPaneInput) (schema.NewPaneOutput, error) {
	opts := tmux.NewOptions{SessionName: in.Name, WindowIn: in.WindowIn, CWD: in.CWD, Env: in.Env, Command: in.Command, HistoryLimit: in.HistoryLimit}
	if in.Size != "" {
		w, h, ok := strings.Cut(strings.ToLower(in.Size), "x")
		var err1, err2 error
		opts.Width, err1 = strconv.Atoi(w)
		opts.Height, err2 = strconv.Atoi(h)
		if !ok || err1 != nil || err2 != nil || opts.Width < 2 || opts.Height < 2 || opts.Width > 10000 || opts.Height > 10000 {
			return schema.NewPaneOutput{}, usageErrorf("invalid size %q: want COLSxROWS, e.g. 120x40", in.Size)
		}
	}
	if in.HistoryLimit < 0 || in.HistoryLimit > maxHistoryLimit {
		return schema.NewPaneOutput{}, usageErrorf("history_limit %d is out of range: want 0..%d (0: the server's default)", in.HistoryLimit, maxHistoryLimit)
	}
	for _, e := range in.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
			return schema.NewPaneOutput{}, usageErrorf("invalid env %q: want K=V", e)
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
			return schema.NewPaneOutput{}, usageErrorf("cwd %q must be an existing directory: %v", in.CWD, err)
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
		state, _ := pane.StateDir(ctx, c)
		opts.Then = pane.JournalPipe([]string{self, "-S", c.Server.Socket}, state)
	}
	p, err := c.NewPane(ctx, opts)
	if err != nil {
		return schema.NewPaneOutput{}, err
	}
	out := schema.NewPaneOutput{PaneSummary: summary(p), Cursor: pane.Cursor{Special: pane.CursorHistory}.Encode()}
	if in.Journal {
		if out.Journal, err = pane.AttachJournal(ctx, c, p.ID); err != nil {
			return out, err
		}
	}
	return out, nil
}

// maxHistoryLimit is tmux's own bound on history-limit (INT_MAX).
const maxHistoryLimit = 1<<31 - 1

// newExitCheck is how long `new -- COMMAND` holds the new pane to see
// whether COMMAND exits at once (exit 5).
const newExitCheck = 150 * time.Millisecond

// checkSessionName refuses a session name tmux would change: tmux
// replaces ":" and "." with "_" (they separate a target's parts) and
// escapes control characters, so the session would not be found by the
// name given.
func checkSessionName(name string) error {
	if i := strings.IndexAny(name, ":."); i >= 0 {
		return usageErrorf("session name %q holds %q, which tmux would replace with \"_\" (\":\" and \".\" separate the parts of a target); choose a name without \":\" and \".\"", name, name[i:i+1])
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return usageErrorf("session name %q holds a control character, which tmux would escape; choose a printable name", name)
		}
	}
	return nil
}

func newKillCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "kill PANE",
		Short: "Kill a pane (a task's pane: stop the task; a journaled pane: remove its journal)",
		Long: `Kill a pane and the processes in it (kill-pane). For a background task (tN, or
its pane), the task is marked killed first and kill waits (up to 5 s) until
its supervisor has stopped the command's whole process group (SIGHUP, as a
closing terminal sends, then SIGTERM and SIGKILL 2 s apart; panectl task kill
starts with SIGINT, as C-c, and keeps the pane); the task's record and journal
stay for panectl tasks, task wait and task output until panectl tasks --prune.
A pane made with new --journal has its journal removed with it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			out, err := runKill(c.Context(), f, schema.PaneInput{PaneID: args[0]})
			if err != nil {
				return err
			}
			return f.emit(out, nil)
		},
	}
}

func runKill(ctx context.Context, f *Factory, in schema.PaneInput) (schema.KillPaneOutput, error) {
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.KillPaneOutput{}, err
	}
	if err := task.KillPane(ctx, c, p); err != nil {
		return schema.KillPaneOutput{}, err
	}
	return schema.KillPaneOutput{PaneID: p.ID, Killed: true}, nil
}

func newCursorCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "cursor PANE",
		Short: "Print a cursor at the current end of the pane's output",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			out, err := runCursor(c.Context(), f, schema.PaneInput{PaneID: args[0]})
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { fmt.Fprintln(w, out.Cursor) })
		},
	}
}

func runCursor(ctx context.Context, f *Factory, in schema.PaneInput) (schema.CursorOutput, error) {
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.CursorOutput{}, err
	}
	// (on a journaled pane the cursor carries the journal point too, so a
	// later read from it loses nothing: pane.ReadAny)
	r, err := pane.ReadAny(ctx, c, p, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1})
	if err != nil {
		return schema.CursorOutput{}, err
	}
	return schema.CursorOutput{PaneID: p.ID, Cursor: r.Cursor.Encode()}, nil
}

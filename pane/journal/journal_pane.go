package journal

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/panectl/panectl/pane/statedir"
	"github.com/panectl/panectl/tmux"
)

// Journaled panes (new --journal). tmux's pipe-pane feeds everything the
// pane's program writes to its terminal to a writer, `panectl __journal-write
// %N`, which appends it to the pane's journal (JournalWriter: bounded, see
// journal.go). The pipe is opened in the same tmux command list that makes
// the pane: tmux runs a command list to its end before it reads the new
// pane's terminal, so not one byte comes before the pipe. (Opened by a
// second tmux process instead, the pipe misses what the program wrote in
// the meantime: 20 of 20 panes lost their first line when measured.) The
// program keeps the pane's terminal to itself: its size, signals, and the
// foreground command and directory tmux reports stay its own.
//
// A background task's journal is written by its supervisor instead (see
// task.Supervise), which also knows when the output is complete.

// PaneDir is the journal directory of journaled pane paneID.
func PaneDir(stateDir, paneID string) string {
	return filepath.Join(stateDir, "p"+strings.TrimPrefix(paneID, "%"), "journal")
}

// PipeCommand is the tmux command that opens the journal pipe of the pane
// being made, for the command list that makes it: self is the panectl
// binary and its leading arguments (-S socket), state the server's state
// directory ("" when the server is not running yet: the writer finds it).
// Every argument is quoted for the shell tmux runs the pipe with, and for
// tmux's format and time expansion of the pipe command, so it arrives
// unchanged.
func PipeCommand(self []string, state string) []string {
	var b strings.Builder
	b.WriteString("exec")
	argv := append(append([]string{}, self...), "__journal-write")
	if state != "" {
		argv = append(argv, "--state", state)
	}
	for _, a := range argv {
		b.WriteString(" ")
		b.WriteString(pipeQuote(a))
	}
	b.WriteString(" '#{pane_id}'")                 // expanded by tmux to the new pane's id
	return []string{"pipe-pane", "-O", b.String()} // (tmux.Arg escapes a final ";")
}

// pipeQuote quotes s for sh -c, then escapes what tmux's pipe-pane would
// expand in it: "#" (formats) and "%" (strftime).
func pipeQuote(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	q = strings.ReplaceAll(q, "#", "##")
	return strings.ReplaceAll(q, "%", "%%")
}

// Attach records, once the pane exists, where its journal is: the
// directory is made and the pane's option points to it. It returns the
// directory.
func Attach(ctx context.Context, c *tmux.Client, paneID string) (string, error) {
	state, err := statedir.Dir(ctx, c)
	if err != nil {
		return "", err
	}
	dir := PaneDir(state, paneID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	return dir, c.SetPaneOption(ctx, paneID, Option, dir)
}

// Copy is the journal writer of a journaled pane: it appends its
// input to the pane's journal until the pipe closes (the pane is gone).
// state is the server's state directory ("": ask the server).
func Copy(ctx context.Context, c *tmux.Client, state, paneID string, in io.Reader) error {
	if state == "" {
		var err error
		if state, err = statedir.Dir(ctx, c); err != nil {
			return err
		}
	}
	w, err := Create(PaneDir(state, paneID), 0)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, in)
	if _, cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// Prune removes the journals of journaled panes that are gone, and
// the state of servers that no longer run.
func Prune(ctx context.Context, c *tmux.Client) error {
	state, err := statedir.Find(ctx, c)
	if err != nil || state == "" {
		return err
	}
	panes, bad, err := c.ListPanes(ctx)
	if err != nil {
		return err
	}
	for _, b := range bad {
		if b.Pane.ID == "" {
			return nil // a pane tmux could not name may be any: keep every journal
		}
		panes = append(panes, b.Pane)
	}
	live := map[string]bool{}
	for _, p := range panes {
		live["p"+strings.TrimPrefix(p.ID, "%")] = true
	}
	entries, err := os.ReadDir(state)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || len(name) < 2 || name[0] != 'p' || strings.Trim(name[1:], "0123456789") != "" || live[name] {
			continue
		}
		if err := os.RemoveAll(filepath.Join(state, name)); err != nil {
			return err
		}
	}
	return nil
}

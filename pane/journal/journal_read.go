package journal

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/statedir"
	"github.com/panectl/panectl/tmux"
)

// DirOf returns the journal directory of a pane ("" when it has none,
// or when its journal was removed). The option comes with the pane's row
// (a described info); else it is asked for. It is data, not a path to
// trust: it is used only when it names the pane's own journal in the
// server's checked state directory (PaneDir, or its task's journal).
func DirOf(ctx context.Context, c *tmux.Client, info tmux.PaneInfo) (string, error) {
	id, dir := info.ID, info.Journal
	if info.SessionID == "" {
		var err error
		if dir, err = c.PaneOption(ctx, id, Option); err != nil {
			return "", err
		}
	}
	if dir == "" {
		return "", nil
	}
	state, err := statedir.Find(ctx, c)
	if err != nil || state == "" {
		return "", err
	}
	task := filepath.Join(state, "t"+strings.TrimPrefix(id, "%"), "journal")
	if dir != PaneDir(state, id) && dir != task {
		return "", nil // not a journal panectl made for this pane
	}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		return "", nil
	}
	return dir, nil
}

// journalStartWait bounds how long a read waits for a journal's writer to
// start (a journaled pane's writer is a process tmux starts with the pane).
const journalStartWait = 2 * time.Second

// awaitWriter waits, at most journalStartWait, until the journal in dir has
// its first segment: until then its writer has not read what tmux holds for
// it, and a read would miss output the pane already shows.
func awaitWriter(ctx context.Context, dir string) {
	deadline := time.Now().Add(journalStartWait)
	for time.Now().Before(deadline) {
		if segs, err := Segments(dir); err != nil || len(segs) > 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// ReadPane reads a pane's output after cur as capture and status do. On a
// pane with a journal, `history` and cursors that carry a journal point
// read the journal: every line the program wrote is there, and
// lines_dropped is exact (0 unless the journal passed JournalMaxBytes).
// Other cursors (screen, or one made by a command that reads rows) are
// read from tmux as Read does. Either way the new cursor carries both the
// row point and, on a journaled pane, the journal point, so every command
// can take it.
func ReadPane(ctx context.Context, c *tmux.Client, info tmux.PaneInfo, cur pane.Cursor, opt pane.ReadOptions) (pane.ReadResult, error) {
	dir, err := DirOf(ctx, c, info)
	if err != nil {
		return pane.ReadResult{}, err
	}
	if dir == "" {
		if cur.Journal && cur.Special == "" && cur.Row == 0 && cur.AnchorLen == 0 && cur.PrefixLen == 0 {
			cur = pane.Cursor{Special: pane.CursorHistory} // a journal point alone: all there is
		}
		return pane.Read(ctx, c, info.ID, cur, opt)
	}
	awaitWriter(ctx, dir)
	if cur.Special != pane.CursorHistory && !cur.Journal {
		// rows from tmux; the journal point is taken first, so nothing
		// written meanwhile is skipped by the next read
		end, lines, jerr := End(dir)
		r, err := pane.Read(ctx, c, info.ID, cur, opt)
		if err != nil || jerr != nil {
			return r, err
		}
		r.Cursor.Journal, r.Cursor.JournalOff, r.Cursor.JournalLine = true, end, lines
		r.CursorAt = nil // its rows have no journal point of their own
		return r, nil
	}
	if err := cur.Check(info.ID, info.PID); err != nil {
		return pane.ReadResult{}, err
	}
	// the row point first (the journal is never behind what tmux shows)
	row, err := pane.Read(ctx, c, info.ID, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1})
	if err != nil {
		return pane.ReadResult{}, err
	}
	r, err := ReadAfter(dir, cur, opt)
	if err != nil {
		return pane.ReadResult{}, err
	}
	r.Pane = row.Pane
	withRow := func(jc pane.Cursor) pane.Cursor {
		c := row.Cursor
		c.Journal, c.JournalOff, c.JournalLine = true, jc.JournalOff, jc.JournalLine
		return c
	}
	r.Cursor = withRow(r.Cursor)
	if at := r.CursorAt; at != nil {
		r.CursorAt = func(i int) pane.Cursor { return withRow(at(i)) }
	}
	return r, nil
}

// ReadAfter reads the journal in dir after cur: its journal point,
// or its oldest byte for `history` (other cursors: an error). The result's
// cursor holds only the journal point.
func ReadAfter(dir string, cur pane.Cursor, opt pane.ReadOptions) (pane.ReadResult, error) {
	from := int64(-1)
	switch {
	case cur.Journal:
		from = cur.JournalOff
	case cur.Special != pane.CursorHistory:
		return pane.ReadResult{}, fmt.Errorf("%w: a journal is read from history or a journal cursor", pane.ErrBadCursor)
	}
	d, err := Read(dir, from)
	if err != nil {
		return pane.ReadResult{}, err
	}
	res := pane.ReadResult{DroppedExact: true}
	if cur.Journal {
		switch {
		case cur.JournalOff > d.End:
			// the journal is shorter than the cursor: it was started again
			res.Reset = true
			res.Note = "the journal was started again since the cursor was made; output is all it holds now"
			if d, err = Read(dir, -1); err != nil {
				return pane.ReadResult{}, err
			}
		case cur.JournalOff < d.First:
			res.LinesDropped = int(max(0, d.FirstLine-cur.JournalLine))
			res.Note = fmt.Sprintf("%d lines after the cursor left the journal before they were read (a journal keeps the newest %d MiB)", res.LinesDropped, MaxBytes>>20)
		}
	}
	end := SafeEnd(d.Data)
	data := d.Data[:end]
	lines, truncated := TailLines(data, opt.MaxLines, opt.ANSI)
	partial := 0 // 1: the last line has no newline yet
	if n := len(lines); n > 0 && len(data) > 0 && data[len(data)-1] != '\n' {
		if lines[n-1] == "" {
			lines = lines[:n-1] // a partial last line with nothing to show yet
		} else {
			partial = 1
		}
	}
	res.Lines, res.Truncated = lines, truncated
	point := func(off int) pane.Cursor {
		return pane.Cursor{PaneID: cur.PaneID, PanePID: cur.PanePID, Journal: true,
			JournalOff: d.Start + int64(off), JournalLine: d.StartLine + int64(bytes.Count(data[:off], []byte{'\n'}))}
	}
	res.Cursor = point(end)
	res.CursorAt = func(i int) pane.Cursor {
		// The newline that ends lines[i]: the last one ends the last whole line.
		nl := bytes.LastIndexByte(data, '\n')
		for k := len(lines) - 1 - partial; k > i; k-- {
			nl = bytes.LastIndexByte(data[:nl], '\n')
		}
		return point(nl + 1)
	}
	return res, nil
}

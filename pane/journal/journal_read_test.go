package journal

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/panectl/panectl/pane"
)

func TestJournalKeepsEverythingUnderItsBound(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	w, err := Create(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	for i := 1; i <= 20000; i++ {
		line := fmt.Sprintf("%d\r\n", i)
		all.WriteString(line)
		if _, err := w.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	end, err := w.Close()
	if err != nil || end != int64(all.Len()) {
		t.Fatalf("Close = %d, %v; want %d", end, err, all.Len())
	}
	if _, err := w.Write([]byte("after close")); err != nil {
		t.Fatalf("a write after Close must be discarded quietly: %v", err)
	}
	d, err := Read(dir, -1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(d.Data, all.Bytes()) || d.First != 0 || d.End != end || d.EndLine() != 20000 {
		t.Fatalf("read %d bytes first=%d end=%d lines=%d; want all %d bytes", len(d.Data), d.First, d.End, d.EndLine(), all.Len())
	}
	r, err := ReadAfter(dir, pane.Cursor{Special: pane.CursorHistory}, pane.ReadOptions{MaxLines: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lines) != 10000 || r.Lines[0] != "10001" || r.Lines[9999] != "20000" || !r.Truncated || r.LinesDropped != 0 {
		t.Fatalf("history read: %d lines %q..%q truncated=%v dropped=%d", len(r.Lines), r.Lines[0], r.Lines[len(r.Lines)-1], r.Truncated, r.LinesDropped)
	}
	if r.Cursor.JournalOff != end || r.Cursor.JournalLine != 20000 {
		t.Fatalf("cursor at %d/%d; want %d/20000", r.Cursor.JournalOff, r.Cursor.JournalLine, end)
	}
}

// Past its bound a journal drops its oldest segments whole, and a read from
// a cursor in the dropped part says exactly how many lines went.
func TestJournalDropsOldestSegmentsAndCountsLines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	const max = 4000
	w, err := Create(dir, max)
	if err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	write := func(s string) {
		all.WriteString(s)
		if _, err := w.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	write("line 0\n")
	early := pane.Cursor{Journal: true, JournalOff: int64(all.Len()), JournalLine: 1}
	for i := 1; i < 3000; i++ {
		write(fmt.Sprintf("line %d\n", i))
	}
	d, err := Read(dir, -1)
	if err != nil {
		t.Fatal(err)
	}
	kept := d.End - d.First
	if d.First == 0 || kept > max || kept < max/2 {
		t.Fatalf("kept %d bytes from %d; want some dropped and at most %d kept", kept, d.First, max)
	}
	if !bytes.Equal(d.Data, all.Bytes()[d.First:]) {
		t.Fatal("the kept bytes are not the newest bytes written")
	}
	if want := int64(bytes.Count(all.Bytes()[:d.First], []byte{'\n'})); d.FirstLine != want {
		t.Fatalf("first line %d; want %d", d.FirstLine, want)
	}
	if all.Bytes()[d.First-1] != '\n' {
		t.Fatal("a segment was cut inside a line")
	}
	r, err := ReadAfter(dir, early, pane.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if int64(r.LinesDropped) != d.FirstLine-1 || !r.DroppedExact || r.Note == "" {
		t.Fatalf("dropped %d (exact=%v, note %q); want %d", r.LinesDropped, r.DroppedExact, r.Note, d.FirstLine-1)
	}
	if r.Lines[0] != fmt.Sprintf("line %d", d.FirstLine) || r.Lines[len(r.Lines)-1] != "line 2999" {
		t.Fatalf("lines %q..%q", r.Lines[0], r.Lines[len(r.Lines)-1])
	}
	if n := len(r.Lines) + r.LinesDropped; n != 2999 {
		t.Fatalf("lines read + dropped = %d; want 2999 (every line after the cursor, once)", n)
	}
}

// A cursor goes on where the previous read stopped: a partial last line is
// read, then its rest; an unfinished character or escape sequence waits.
func TestJournalCursorContinues(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	w, err := Create(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	read := func(cur pane.Cursor) pane.ReadResult {
		t.Helper()
		r, err := ReadAfter(dir, cur, pane.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := read(pane.Cursor{Special: pane.CursorHistory})
	if len(r.Lines) != 0 || r.Cursor.JournalOff != 0 {
		t.Fatalf("empty journal: %q at %d", r.Lines, r.Cursor.JournalOff)
	}
	w.Write([]byte("one\r\ntw"))
	r = read(r.Cursor)
	if strings.Join(r.Lines, "|") != "one|tw" {
		t.Fatalf("got %q", r.Lines)
	}
	w.Write([]byte("o\r\nthree \xc3"))
	r = read(r.Cursor)
	if strings.Join(r.Lines, "|") != "o|three" || r.Cursor.JournalLine != 2 {
		t.Fatalf("got %q, line %d", r.Lines, r.Cursor.JournalLine)
	}
	w.Write([]byte("\xa9 \x1b[3"))
	r = read(r.Cursor)
	if strings.Join(r.Lines, "|") != "é" {
		t.Fatalf("got %q; want the completed character", r.Lines)
	}
	w.Write([]byte("1mred\x1b[0m\r\n"))
	r2 := read(r.Cursor)
	if strings.Join(r2.Lines, "|") != "red" {
		t.Fatalf("got %q", r2.Lines)
	}
	if a := read(r2.Cursor); len(a.Lines) != 0 || a.Cursor.JournalOff != r2.Cursor.JournalOff {
		t.Fatalf("nothing new: got %q", a.Lines)
	}
	// a journal shorter than the cursor was started again
	r3 := read(pane.Cursor{Journal: true, JournalOff: 1 << 30, JournalLine: 7})
	if !r3.Reset || len(r3.Lines) == 0 {
		t.Fatalf("reset=%v lines=%q", r3.Reset, r3.Lines)
	}
}

// The pipe command survives tmux's format and time expansion and the shell.
func TestPipeQuote(t *testing.T) {
	for _, s := range []string{"/tmp/x y/panectl", "it's", "a#{b}c", "100%d%%", `back\slash"q`, "-S", "semi;"} {
		q := pipeQuote(s)
		// what tmux does to the pipe command before sh sees it
		unexpanded := strings.NewReplacer("##", "#", "%%", "%").Replace(q)
		out, err := exec.Command("sh", "-c", "printf %s "+unexpanded).Output()
		if err != nil || string(out) != s {
			t.Errorf("pipeQuote(%q) = %q: sh printed %q, %v", s, q, out, err)
		}
	}
	cmd := PipeCommand([]string{"/bin/panectl", "-S", "/tmp/s;"}, "/state")
	if cmd[0] != "pipe-pane" || !strings.HasSuffix(cmd[2], "'#{pane_id}'") {
		t.Errorf("PipeCommand = %q", cmd)
	}
}

// The cursor after a line of a read (CursorAfter) reads on from the next
// line: with the oldest lines left out (MaxLines) and a last line that has
// no newline yet.
func TestReadAfterCursorAfterEachLine(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	w, err := Create(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("a\r\nb\r\nc\r\nd\r\npartial")); err != nil {
		t.Fatal(err)
	}
	r, err := ReadAfter(dir, pane.Cursor{Special: pane.CursorHistory}, pane.ReadOptions{MaxLines: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Lines, ","); got != "b,c,d,partial" {
		t.Fatalf("lines %q", got)
	}
	for i, rest := range []string{"c,d,partial", "d,partial", "partial", ""} {
		c, ok := r.CursorAfter(i)
		if !ok {
			t.Fatalf("no cursor after line %d", i)
		}
		after, err := ReadAfter(dir, c, pane.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(after.Lines, ","); got != rest || c.JournalLine != int64(min(i+2, 4)) {
			t.Errorf("after line %d (%s, journal line %d): read %q, want %q", i, r.Lines[i], c.JournalLine, got, rest)
		}
	}
	if _, ok := r.CursorAfter(4); ok {
		t.Error("a cursor after a line past the read")
	}
}

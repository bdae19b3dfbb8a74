package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/panectl/panectl/tmux/panerow"
)

// A journal keeps everything a program wrote to its terminal, byte for
// byte, in a directory of its own: background tasks (the supervisor writes
// it) and panes made with `new --journal` (tmux pipe-pane feeds it). It is
// what frames, `task output`, and capture and status on such panes read,
// so they do not depend on the pane's history-limit.
//
// The bytes are kept in segment files named by the offset of their first
// byte and the number of newlines before it ("seg-OFFSET-LINES", decimal,
// zero-padded, so names sort in order). A journal keeps at most
// MaxBytes: past that, the oldest segment is deleted whole. Readers
// then know exactly how many bytes and lines are gone (the first segment's
// name says), so lines_dropped stays exact. Segments are cut after a
// newline once they reach journalSegBytes (or, for a line with no end, at
// twice that), so a dropped segment takes whole lines.
const (
	MaxBytes        = 64 << 20
	journalSegBytes = 8 << 20
	// Option is the pane user option holding the pane's journal
	// directory (tasks and journaled panes).
	Option = panerow.JournalOption
)

// Writer appends to a journal. It is safe for one writer process;
// readers may read at the same time.
type Writer struct {
	dir      string
	max, seg int64

	mu     sync.Mutex
	f      *os.File
	start  int64 // offset of the current segment's first byte
	lines  int64 // newlines before it
	size   int64 // bytes in the current segment
	nl     int64 // newlines in the current segment
	closed bool
}

// Create makes the journal directory (0700) and its first segment.
// max bounds the bytes kept (0: MaxBytes).
func Create(dir string, max int64) (*Writer, error) {
	if max <= 0 {
		max = MaxBytes
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	w := &Writer{dir: dir, max: max, seg: min(journalSegBytes, max/4+1)}
	if err := w.open(); err != nil {
		return nil, err
	}
	return w, nil
}

func segName(off, lines int64) string { return fmt.Sprintf("seg-%016d-%016d", off, lines) }

func (w *Writer) open() error {
	f, err := os.OpenFile(filepath.Join(w.dir, segName(w.start, w.lines)), os.O_CREATE|os.O_WRONLY|os.O_APPEND|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	w.f = f
	return nil
}

// Write appends p. After Close it discards p (and reports it written), so
// a copy loop still running when its journal ended does not fail.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return len(p), nil
	}
	n := len(p)
	for len(p) > 0 {
		chunk := p
		if w.size+int64(len(p)) >= w.seg {
			// cut after the first newline at or past the segment size
			from := max(0, int(w.seg-w.size)-1)
			if i := bytes.IndexByte(p[from:], '\n'); i >= 0 {
				chunk = p[:from+i+1]
			} else if w.size+int64(len(p)) >= 2*w.seg {
				chunk = p[:max(1, int(2*w.seg-w.size))]
			}
		}
		if _, err := w.f.Write(chunk); err != nil {
			return n - len(p), err
		}
		w.size += int64(len(chunk))
		w.nl += int64(bytes.Count(chunk, []byte{'\n'}))
		p = p[len(chunk):]
		if w.size >= w.seg && (chunk[len(chunk)-1] == '\n' || w.size >= 2*w.seg) {
			if err := w.rotate(); err != nil {
				return n - len(p), err
			}
		}
	}
	return n, nil
}

// rotate starts a new segment and deletes the oldest while the journal
// holds more than max bytes.
func (w *Writer) rotate() error {
	if err := w.f.Close(); err != nil {
		return err
	}
	w.start += w.size
	w.lines += w.nl
	w.size, w.nl = 0, 0
	if err := w.open(); err != nil {
		return err
	}
	segs, err := Segments(w.dir)
	if err != nil {
		return err
	}
	for len(segs) > 1 && w.start-segs[0].off > w.max-w.seg {
		if err := os.Remove(filepath.Join(w.dir, segs[0].name)); err != nil && !os.IsNotExist(err) {
			return err
		}
		segs = segs[1:]
	}
	return nil
}

// Close ends the journal: later writes are discarded. It returns the
// journal's end offset.
func (w *Writer) Close() (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.start + w.size, nil
	}
	w.closed = true
	return w.start + w.size, w.f.Close()
}

// segment is one segment file of a journal.
type segment struct {
	name  string
	off   int64 // offset of its first byte
	lines int64 // newlines before it
	size  int64
}

// Segments lists the journal's segments, oldest first. A journal
// whose directory does not exist (yet: its writer has not started) has none.
func Segments(dir string) ([]segment, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var segs []segment
	for _, e := range entries {
		f := strings.Split(e.Name(), "-")
		if len(f) != 3 || f[0] != "seg" {
			continue
		}
		off, err1 := strconv.ParseInt(f[1], 10, 64)
		lines, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		segs = append(segs, segment{name: e.Name(), off: off, lines: lines})
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].off < segs[j].off })
	return segs, nil
}

// Data is a read of a journal from one offset to its end.
type Data struct {
	Data      []byte // the bytes from Start to End
	Start     int64  // offset of Data[0]
	StartLine int64  // newlines before Start
	End       int64  // offset just past the journal's last byte
	First     int64  // offset of the oldest byte kept
	FirstLine int64  // newlines before First
}

// EndLine is the number of newlines before End.
func (d Data) EndLine() int64 {
	return d.StartLine + int64(bytes.Count(d.Data, []byte{'\n'}))
}

// ErrNotFound: the pane or task has no journal (or it was removed).
var ErrNotFound = errors.New("no journal")

// Read reads the journal in dir from offset from (clamped to what
// is kept; from < 0 means its oldest byte) to its end. The read is
// consistent: a segment deleted meanwhile makes it start over.
func Read(dir string, from int64) (Data, error) {
	for attempt := 0; ; attempt++ {
		d, err := readJournal(dir, from)
		if errors.Is(err, os.ErrNotExist) && attempt < 3 {
			if _, serr := os.Stat(dir); serr == nil {
				continue // a segment was deleted as we read: list again
			}
		}
		if errors.Is(err, os.ErrNotExist) {
			return Data{}, fmt.Errorf("%w at %s", ErrNotFound, dir)
		}
		return d, err
	}
}

func readJournal(dir string, from int64) (Data, error) {
	segs, err := Segments(dir)
	if err != nil {
		return Data{}, err
	}
	if len(segs) == 0 {
		return Data{}, nil // its writer has not started yet: nothing written
	}
	d := Data{First: segs[0].off, FirstLine: segs[0].lines}
	if from < segs[0].off {
		from = segs[0].off
	}
	// open every segment first, so none can be deleted under the read
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for i := range segs {
		f, err := os.Open(filepath.Join(dir, segs[i].name))
		if err != nil {
			return Data{}, err
		}
		files = append(files, f)
		st, err := f.Stat()
		if err != nil {
			return Data{}, err
		}
		segs[i].size = st.Size()
	}
	last := segs[len(segs)-1]
	d.End = last.off + last.size
	if from > d.End {
		from = d.End
	}
	d.Start = from
	var buf bytes.Buffer
	buf.Grow(int(d.End - from))
	lineCounted := false
	for i, s := range segs {
		if s.off+s.size <= from && i < len(segs)-1 {
			continue
		}
		skip := max(0, from-s.off)
		if !lineCounted {
			// newlines between the segment's start and from
			head := make([]byte, skip)
			if _, err := io.ReadFull(files[i], head); err != nil {
				return Data{}, err
			}
			d.StartLine = s.lines + int64(bytes.Count(head, []byte{'\n'}))
			lineCounted = true
		}
		if _, err := io.CopyN(&buf, files[i], s.size-skip); err != nil {
			return Data{}, err
		}
	}
	d.Data = buf.Bytes()
	return d, nil
}

// End is the journal's end offset and the newlines before it,
// without keeping its bytes.
func End(dir string) (end, lines int64, err error) {
	segs, err := Segments(dir)
	if err != nil {
		return 0, 0, fmt.Errorf("%w at %s", ErrNotFound, dir)
	}
	if len(segs) == 0 {
		return 0, 0, nil
	}
	d, err := Read(dir, segs[len(segs)-1].off)
	if err != nil {
		return 0, 0, err
	}
	return d.End, d.EndLine(), nil
}

// Size is the number of bytes the journal keeps and whether older
// bytes were deleted.
func Size(dir string) (kept int64, dropped bool, err error) {
	segs, err := Segments(dir)
	if err != nil {
		return 0, false, fmt.Errorf("%w at %s", ErrNotFound, dir)
	}
	if len(segs) == 0 {
		return 0, false, nil
	}
	last := segs[len(segs)-1]
	st, err := os.Stat(filepath.Join(dir, last.name))
	if err != nil {
		return 0, false, err
	}
	return last.off + st.Size() - segs[0].off, segs[0].off > 0, nil
}

// Tail returns at most n of the journal's newest bytes.
func Tail(dir string, n int64) (Data, error) {
	segs, err := Segments(dir)
	if err != nil {
		return Data{}, fmt.Errorf("%w at %s", ErrNotFound, dir)
	}
	if len(segs) == 0 {
		return Data{}, nil
	}
	from := int64(0)
	last := segs[len(segs)-1]
	if st, err := os.Stat(filepath.Join(dir, last.name)); err == nil {
		from = last.off + st.Size() - n
	}
	return Read(dir, max(from, 0))
}

// Remove deletes a journal directory (and the directory holding it
// when that is left empty). A journal that is already gone is no error.
func Remove(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	_ = os.Remove(filepath.Dir(dir)) // only when empty
	return nil
}

package pane

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

// streamRecorder keeps a subscription's events in order.
type streamRecorder struct {
	mu     sync.Mutex
	events []tmux.ControlEvent
}

func (r *streamRecorder) on(e tmux.ControlEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Kind == tmux.EventOutput {
		e.Data = append([]byte(nil), e.Data...)
	}
	r.events = append(r.events, e)
}

// take returns the output up to the last EventCommandDone recorded and
// forgets everything up to it.
func (r *streamRecorder) take() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	last := -1
	for i, e := range r.events {
		if e.Kind == tmux.EventCommandDone {
			last = i
		}
	}
	var out []byte
	for _, e := range r.events[:last+1] {
		if e.Kind == tmux.EventOutput {
			out = append(out, e.Data...)
		}
	}
	r.events = r.events[last+1:]
	return out
}

// firstOutputBeforeDone returns the output recorded before the first
// EventCommandDone.
func (r *streamRecorder) outputBeforeFirstDone() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []byte
	for _, e := range r.events {
		if e.Kind == tmux.EventCommandDone {
			break
		}
		if e.Kind == tmux.EventOutput {
			out = append(out, e.Data...)
		}
	}
	return out
}

// clone copies a stream, so one seed can be fed many ways.
func (s *Stream) clone() *Stream {
	c := *s
	c.rows = make([]srow, len(s.rows))
	for i, r := range s.rows {
		r.cells = append([]string(nil), r.cells...)
		c.rows[i] = r
	}
	c.frozen = append([]string(nil), s.frozen...)
	c.pending = append([]byte(nil), s.pending...)
	return &c
}

// A stream seeded from a snapshot and fed the %output that came after it
// says what a capture at the end says: the same lines after the read's
// cursor, the same cursor, and the pane where the stream predicts; it does
// so whatever way the output is cut into notifications (every split in two,
// through partial lines, escape sequences and UTF-8 characters). Output the
// stream cannot follow makes it invalid, never wrong.
func TestStreamAgreesWithCapture(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		pre    string // written before the seed
		cursor string // "now" (""): a cursor taken after pre; or "history"
		out    []string
		follow bool // the stream must follow the output (else: become invalid, or fail Check)
		maybe  bool // the stream may follow (tmux and panectl may disagree on a width): if Check passes, it agrees
		hlimit int  // the pane's history-limit (0: tmux's default)
	}{
		{name: "lines", out: []string{"hello\n", "world\n"}, follow: true},
		{name: "lines after lines", pre: "a\nb\n", out: []string{"hello\n", "world\n"}, follow: true},
		{name: "partial line", pre: "before\n", out: []string{"abc"}, follow: true},
		{name: "prompt then output", pre: "older\n$ ", out: []string{"echo hi\n", "hi\n$ "}, follow: true},
		{name: "cursor mid-row redrawn", pre: "older\n$ ", out: []string{"\rX typed\n"}, follow: true},
		{name: "cursor mid-row redrawn, nothing before", pre: "$ ", out: []string{"\rX typed\n"}},
		{name: "history cursor", pre: "one\ntwo\n", cursor: "history", out: []string{"three\n"}, follow: true},
		{name: "carriage return overwrite", out: []string{"progress 10%\rprogress 100%\n", "abcdef\rxy\n"}, follow: true},
		{name: "wrap", out: []string{strings.Repeat("w", 47) + "\n", strings.Repeat("x", 20) + "\nafter\n"}, follow: true},
		{name: "wrap then carriage return", out: []string{strings.Repeat("y", 30) + "\rZ\n"}, follow: true},
		{name: "backspace", out: []string{"abc\b\bX\n", strings.Repeat("b", 20) + "c\b\b\bQ\n"}, follow: true},
		{name: "tabs", out: []string{"a\tb\tc\n\t\tx\n"}, follow: true},
		{name: "tab over text", out: []string{"abcdefghijklmnop\r\tX\n"}, follow: true},
		{name: "tab over written blanks", out: []string{"a       b\r\tX\n"}, maybe: true},
		{name: "colours", out: []string{"\x1b[1;31mred\x1b[0m plain \x1b[38;5;200mmore\x1b[m\n"}, follow: true},
		{name: "erase in line", out: []string{"abcdef\r\x1b[Kxy\n", "abcdef\x1b[3D\x1b[1Kz\n", "gone\x1b[2K\rkept\n"}, follow: true},
		{name: "column moves", out: []string{"abc\x1b[10Gx\x1b[2Dy\x1b[3Cz\x1b[G!\n"}, follow: true},
		{name: "titles and modes", out: []string{"\x1b]0;a title\x07\x1b]2;t\x1b\\\x1b[?25lhidden\x1b[?25h\x1b[?2004h$ \x1b[?2004l\n"}, follow: true},
		{name: "utf-8", out: []string{"h\u00e9llo w\u00f6rld \u2713\n", "\u4e2d\u6587|x\n"}, follow: true},
		{name: "wide at the margin", out: []string{strings.Repeat("a", 19) + "\u4e2d\u6587\n"}, follow: true},
		{name: "scrolling into history", out: []string{strings.Repeat("line\n", 15), "tail\n"}, follow: true},
		{name: "long line already wrapped", pre: "older\n" + strings.Repeat("p", 30), out: []string{strings.Repeat("q", 25) + "\nnext\n"}, follow: true},
		{name: "pending wrap at the seed", pre: "older\n" + strings.Repeat("r", 20), out: []string{"s\n"}, follow: true},
		{name: "pending wrap, then a new line", pre: "older\n" + strings.Repeat("r", 20), out: []string{"\nt\n"}, follow: true},
		{name: "wide characters before the cursor", pre: "\u4e2d\u6587 wide\n", out: []string{"after\n"}, follow: true},
		{name: "history cursor over wide characters", pre: "\u4e2d\u6587 wide\n", cursor: "history", out: []string{"after\n"}, follow: true},
		{name: "emoji", out: []string{"ok \u2705 done\n", "\U0001F600x\n"}, maybe: true},
		{name: "clear", pre: "x\n", out: []string{"\x1b[H\x1b[2Jafter\n"}},
		{name: "erase in a wrapped line", out: []string{strings.Repeat("e", 25) + "\x1b[K\n"}},
		{name: "tmux title string", out: []string{"\x1bktitle\x1b\\x\n"}},
		{name: "DCS", out: []string{"\x1bPq#0;2;0;0;0\x1b\\x\n"}},
		{name: "save and restore cursor", out: []string{"a\x1b7b\x1b8c\n"}},
		{name: "insert mode", out: []string{"\x1b[4hab\n"}},
		{name: "history-limit reached", hlimit: 10, out: []string{strings.Repeat("many\n", 30)}},
		{name: "cursor up", out: []string{"a\nb\x1b[Ac\n"}},
		{name: "alternate screen", out: []string{"\x1b[?1049hfull screen"}},
		{name: "scroll region", out: []string{"\x1b[2;4r"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tmuxtest.New(t)
			fifo := filepath.Join(t.TempDir(), "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			w, err := os.OpenFile(fifo, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			// stty raw: the pane's tty passes bytes as written (no \n to
			// \r\n), so the test says exactly what the program wrote
			p, err := s.Client.NewPane(ctx, tmux.NewOptions{Width: 20, Height: 6, HistoryLimit: tc.hlimit,
				Command: []string{"sh", "-c", "stty -opost; exec cat " + fifo}})
			if err != nil {
				t.Fatal(err)
			}
			follow := tc.follow
			if tc.hlimit > 0 {
				// tmux 3.7 keeps history-limit as a pane option and applies
				// it at once: set it on the pane too; where neither took,
				// history is not trimmed and the stream follows
				_, _ = s.TryTmux("set-option", "-p", "-t", p.ID, "history-limit", strconv.Itoa(tc.hlimit))
				if n, _ := strconv.Atoi(s.Tmux("display-message", "-p", "-t", p.ID, "#{history_limit}")); n > 40 {
					follow = true
				}
			}
			rec := &streamRecorder{}
			sub, err := s.Client.Subscribe(ctx, p, rec.on)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			write := func(b string) {
				if _, err := w.WriteString(b); err != nil {
					t.Fatal(err)
				}
			}
			write(strings.ReplaceAll(tc.pre, "\n", "\r\n"))
			settle(t, s, p.ID)
			cur := Cursor{Special: CursorHistory}
			if tc.cursor == "" {
				if cur, _, err = Now(ctx, s.Client, p.ID); err != nil {
					t.Fatal(err)
				}
			}
			seed, err := Read(ctx, s.Client, p.ID, cur, ReadOptions{Via: sub, Stream: true})
			if err != nil {
				t.Fatal(err)
			}
			if seed.Stream == nil {
				t.Fatal("no stream from the seed snapshot")
			}
			rec.take()
			for _, chunk := range tc.out {
				write(strings.ReplaceAll(chunk, "\n", "\r\n"))
				time.Sleep(20 * time.Millisecond)
			}
			settle(t, s, p.ID)
			want, err := Read(ctx, s.Client, p.ID, cur, ReadOptions{Via: sub})
			if err != nil {
				t.Fatal(err)
			}
			data := rec.outputBeforeFirstDone()
			check := func(how string, st *Stream) {
				t.Helper()
				follows := st.Invalid() == "" && st.Check(want.Pane)
				switch {
				case follow && st.Invalid() != "":
					t.Fatalf("%s: the stream gave up: %s", how, st.Invalid())
				case follow && !follows:
					t.Errorf("%s: the pane (%d,%d history %d) is not where the stream says (%d,%d history %d)", how,
						want.Pane.CursorX, want.Pane.CursorY, want.Pane.HistorySize, st.cx, st.cy, st.hs)
				case !follow && !tc.maybe && follows:
					t.Errorf("%s: the stream still follows (lines %q), want it to give up or fail its check", how, st.Lines())
				}
				if !follows {
					return
				}
				// whenever the stream follows, it says what a capture says
				if got := st.Lines(); !reflect.DeepEqual(nonNilLines(got), nonNilLines(want.Lines)) {
					t.Errorf("%s: lines %q, a capture reads %q", how, got, want.Lines)
				}
				if got := st.Cursor(); got.Encode() != want.Cursor.Encode() {
					t.Errorf("%s: cursor %+v, a capture makes %+v", how, got, want.Cursor)
				}
			}
			whole := seed.Stream.clone()
			whole.Feed(data)
			check("fed as tmux sent it", whole)
			for i := range data {
				st := seed.Stream.clone()
				st.Feed(data[:i])
				st.Feed(data[i:])
				check("split at byte "+strconv.Itoa(i), st)
				if t.Failed() {
					break
				}
			}
		})
	}
}

func nonNilLines(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// settle waits until the pane's screen stops changing.
func settle(t *testing.T, s *tmuxtest.Server, id string) {
	t.Helper()
	last := ""
	for range 100 {
		time.Sleep(15 * time.Millisecond)
		now := s.Tmux("capture-pane", "-p", "-t", id, "-S", "-", "-E", "-") + s.Tmux("display-message", "-p", "-t", id, "#{cursor_x},#{cursor_y},#{history_size}")
		if now == last {
			return
		}
		last = now
	}
	t.Fatal("the pane did not settle")
}

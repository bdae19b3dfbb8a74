package pane

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/panectl/panectl/tmux"
)

// A model of a tmux pane's grid, as grid_view_scroll_region_up and
// grid_collect_history keep it: a screen of height rows over a history
// that, at history-limit, loses its oldest limit/10 rows at once (the
// pane keeps no count of them), and clear-history. It answers Read's
// snapshots as capture-pane would, so the model test runs the real Read
// (fast path, checks and search) with no tmux. Every row ever made keeps
// an id in output order, so the test knows the lines after any cursor,
// including those tmux no longer holds.

type simRow struct {
	id   int
	text string
}

type simPane struct {
	width, height, limit int
	hist, screen         []*simRow
	cy, cx               int
	next                 int       // id of the next new row
	tape                 []*simRow // every row ever made, by id
	clears               int       // clear-history calls so far
}

func newSimPane(width, height, limit int) *simPane {
	p := &simPane{width: width, height: height, limit: limit}
	for range height {
		p.screen = append(p.screen, p.newRow())
	}
	return p
}

func (p *simPane) newRow() *simRow {
	r := &simRow{id: p.next}
	p.next++
	p.tape = append(p.tape, r)
	return r
}

// print writes text (no newline, shorter than the width) at the cursor.
func (p *simPane) print(text string) {
	if p.cx+len(text) > p.width {
		p.newline()
	}
	r := p.screen[p.cy]
	if pad := p.cx - len(r.text); pad > 0 {
		r.text += strings.Repeat(" ", pad)
	}
	r.text = r.text[:p.cx] + text + r.text[min(len(r.text), p.cx+len(text)):]
	p.cx += len(text)
}

// newline is CR LF: at the bottom row the screen scrolls into history.
func (p *simPane) newline() {
	p.cx = 0
	if p.cy < p.height-1 {
		p.cy++
		return
	}
	if p.limit > 0 {
		if len(p.hist) >= p.limit {
			p.hist = p.hist[max(1, p.limit/10):]
		}
		p.hist = append(p.hist, p.screen[0])
	}
	p.screen = append(p.screen[1:], p.newRow())
}

func (p *simPane) clearHistory() {
	p.hist = nil
	p.clears++
}

func (p *simPane) rows() []*simRow { return append(slices.Clone(p.hist), p.screen...) }

func (p *simPane) info() tmux.PaneInfo {
	return tmux.PaneInfo{ID: "%1", PID: 1, Width: p.width, Height: p.height, HistorySize: len(p.hist),
		HistoryLimit: p.limit, CursorX: p.cx, CursorY: p.cy, WrapFlag: true, ScrollLower: p.height - 1}
}

// SnapshotOptions answers as capture-pane does (cmd-capture-pane.c):
// -S and -E clamped to the rows there are, swapped when reversed.
func (p *simPane) SnapshotOptions(_ context.Context, id, _ string, specs ...tmux.CaptureSpec) (tmux.PaneInfo, []string, map[string]string, error) {
	all := p.rows()
	h, last := len(p.hist), len(all)-1
	pos := func(n int) int {
		if n < 0 && -n > h {
			return 0
		}
		return min(h+n, last)
	}
	var texts []string
	for _, s := range specs {
		if s.Alternate {
			texts = append(texts, "")
			continue
		}
		top, bottom := pos(s.Start), pos(s.End)
		if s.FromOldest {
			top = 0
		}
		if s.ToBottom {
			bottom = last
		}
		if bottom < top {
			top, bottom = bottom, top
		}
		var b strings.Builder
		for _, r := range all[top : bottom+1] {
			t := r.text
			if !s.Join {
				t = strings.TrimRight(t, " ")
			}
			b.WriteString(t + "\n")
		}
		texts = append(texts, b.String())
	}
	return p.info(), texts, map[string]string{}, nil
}

// simCursor is a cursor and the point it marks: the row (by id) and the
// bytes of it seen; clears is the pane's clear-history count then.
type simCursor struct {
	cur    Cursor
	id     int
	prefix int
	clears int
}

// point maps a cursor Read just made to the row it marks.
func (p *simPane) point(c Cursor) simCursor {
	return simCursor{cur: c, id: p.rows()[c.Row].id, prefix: c.PrefixLen, clears: p.clears}
}

// after is what a read after c must return: the rest of its row, then the
// rows after it (a cursor at the start of a row: the row whole), trailing
// blank lines left out (as finish does); from the
// rows in held only when held is not nil. gone counts the lines that are
// not held.
func (p *simPane) after(c simCursor, held map[int]bool) (lines []string, gone int) {
	for _, r := range p.tape[c.id:] {
		t := strings.TrimRight(r.text, " ")
		if r.id == c.id && c.prefix > 0 {
			// the rest of the row; a row with none is not a line after it
			if c.prefix >= len(t) || strings.TrimSpace(t[c.prefix:]) == "" {
				continue
			}
			t = t[c.prefix:]
		}
		if held != nil && !held[r.id] {
			gone++
			continue
		}
		lines = append(lines, t)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines, gone
}

var modelSeeds = flag.Int("model-seeds", 1000, "seeds of TestReadModel (go test ./pane -run TestReadModel -model-seeds 20000)")

// TestReadModel: reads after cursors on a modelled pane receiving random
// lines (mostly from a few repeated ones: yes, blank lines, prompts),
// with history trimmed at small limits and cleared now and then. A read
// either returns exactly the lines after its cursor (Whole), or says it
// could not: lines trimmed (a lower bound no larger than the truth, and
// the lines that are left), history cleared (only after a clear), or an
// uncertain place (everything held, ending with the lines after the
// cursor that are left). It is never silently wrong.
func TestReadModel(t *testing.T) {
	stats := map[string]int{}
	for seed := range *modelSeeds {
		runModel(t, uint64(seed), stats)
		if t.Failed() {
			return
		}
	}
	t.Logf("reads: %v", stats)
	if stats["whole"] == 0 || stats["uncertain"] == 0 || stats["trimmed"] == 0 || stats["reset"] == 0 {
		t.Errorf("the model did not reach every outcome: %v", stats)
	}
}

func runModel(t *testing.T, seed uint64, stats map[string]int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	limit := []int{0, 10, 20, 50, 100}[rng.IntN(5)]
	p := newSimPane(24, 2+rng.IntN(8), limit)
	ctx := context.Background()
	var cursors []simCursor
	repeated := []string{"x", "", "$", "ab", "a b", "────"}
	line := func(kind int) string {
		switch kind {
		case 0:
			return "x"
		case 1:
			return repeated[rng.IntN(len(repeated))]
		}
		return fmt.Sprintf("u%d", rng.IntN(1<<20)) // rarely repeats
	}
	read := func(c simCursor) (ReadResult, bool) {
		res, err := Read(ctx, nil, "%1", c.cur, ReadOptions{Via: p})
		if err != nil {
			t.Fatalf("seed %d: Read: %v", seed, err)
		}
		return res, true
	}
	for step := range 120 {
		switch op := rng.IntN(20); {
		case op < 6: // a burst of lines of one kind, sometimes longer than history
			kind := rng.IntN(3)
			n := 1 + rng.IntN(8)
			if rng.IntN(4) == 0 {
				n = rng.IntN(2*limit + 20)
			}
			for range n {
				p.print(line(kind))
				p.newline()
			}
		case op < 8: // a prompt, and a command typed at it
			if p.cx == 0 {
				p.print("$ ")
			}
			if rng.IntN(2) == 0 {
				p.print(line(rng.IntN(3)))
				p.newline()
			}
		case op < 11:
			res, _ := read(simCursor{cur: Cursor{Special: CursorScreen}})
			cursors = append(cursors, p.point(res.Cursor))
		case op < 19 && len(cursors) > 0:
			i := rng.IntN(len(cursors))
			c := cursors[i]
			res, _ := read(c)
			check(t, seed, step, p, c, res, stats)
			cursors[i] = p.point(res.Cursor) // read on from there, as a wait does
		case op == 19 && rng.IntN(3) == 0:
			p.clearHistory()
		case op == 19 && rng.IntN(2) == 0:
			// a new width: no row is as wide (lines are at most 20
			// cells), so tmux reflows nothing, but the cursor's rows
			// fingerprints (Cursor.Rows) are not compared
			p.width = 24 + rng.IntN(3)
		}
		if t.Failed() {
			return
		}
	}
}

func check(t *testing.T, seed uint64, step int, p *simPane, c simCursor, res ReadResult, stats map[string]int) {
	t.Helper()
	held := map[int]bool{}
	for _, r := range p.rows() {
		held[r.id] = true
	}
	want, _ := p.after(c, nil)
	left, gone := p.after(c, held)
	fail := func(why string) {
		t.Errorf("seed %d step %d: %s\n cursor row id %d prefix %d (limit %d, height %d, history %d, clears %d->%d)\n got  %q (dropped %d exact %v reset %v uncertain %v note %q)\n want %q (%d gone, left %q)",
			seed, step, why, c.id, c.prefix, p.limit, p.height, len(p.hist), c.clears, p.clears,
			res.Lines, res.LinesDropped, res.DroppedExact, res.Reset, res.Uncertain, res.Note, want, gone, left)
	}
	switch {
	case res.Whole() && p.clears != c.clears && len(p.hist) >= c.cur.History && !mayTrim(p.info()):
		// History was cleared and has grown again to at least the size
		// it had: a read cannot tell that from no clear at all, when the
		// rows before the cursor repeat where they were (documented).
		stats["cleared and refilled"]++
		if !slices.Equal(res.Lines, want) {
			stats["cleared and refilled, wrong"]++
		}
	case res.Whole():
		stats["whole"]++
		if mayTrim(p.info()) {
			stats["whole at the history limit"]++
		}
		if gone > 0 || !slices.Equal(res.Lines, want) {
			fail("a whole read is not the lines after the cursor")
		}
	case res.Reset:
		stats["reset"]++
		if p.clears == c.clears {
			fail("reset without a clear")
		}
	case res.Uncertain:
		stats["uncertain"]++
		// (everything held: the cursor's row whole)
		whole := c
		whole.prefix = 0
		leftWhole, _ := p.after(whole, held)
		if res.LinesDropped > gone || !hasSuffix(res.Lines, left) && !hasSuffix(res.Lines, leftWhole) {
			fail("an uncertain read lost lines after the cursor")
		}
		// the lines it says are new are: after the truth's start (the
		// first of them may be the whole row the rest of which is new)
		if fresh := res.Lines[res.Fresh:]; len(fresh) > 0 && mayTrim(p.info()) {
			k := len(left) - len(fresh)
			if k < 0 || !hasSuffix(left, fresh[1:]) || !strings.HasSuffix(fresh[0], left[k]) {
				fail(fmt.Sprintf("an uncertain read says lines before the cursor are new (Fresh %d)", res.Fresh))
			}
			stats["uncertain, fresh lines"]++
		}
	default:
		stats["trimmed"]++
		if held[c.id] {
			fail("the cursor's row is held, yet the read says it was trimmed")
		}
		// (the bound counts whole trims; a clear-history loses fewer)
		if res.LinesDropped > gone && p.clears == c.clears || res.DroppedExact && res.LinesDropped != gone || !slices.Equal(res.Lines, left) {
			fail("a read with lines dropped is wrong")
		}
	}
}

func hasSuffix(s, suffix []string) bool {
	return len(s) >= len(suffix) && slices.Equal(s[len(s)-len(suffix):], suffix)
}

// FuzzReadModel runs the model of TestReadModel from seeds the fuzzer
// picks (go test ./pane -run '^$' -fuzz FuzzReadModel).
func FuzzReadModel(f *testing.F) {
	for _, seed := range []uint64{0, 5, 27, 54, 248} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		runModel(t, seed, map[string]int{})
	})
}

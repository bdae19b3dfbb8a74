package pane

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/panectl/panectl/tmux"
)

// ReadOptions tune Read.
type ReadOptions struct {
	MaxLines int  // keep the newest MaxLines lines (0: no limit)
	ANSI     bool // keep colour escapes in the lines
	// Guess is the pane as last seen, a previous ReadResult.Pane. When its
	// ID is the pane's, Read plans its captures from it. It checks the plan
	// inside the same atomic snapshot (history size, screen, height). On a
	// mismatch it plans again. That costs one tmux process instead of two.
	Guess tmux.PaneInfo
	// Ledger also reads the pane's echo ledger in the same snapshot
	// (ReadResult.Ledger).
	Ledger bool
	// Via takes the snapshots instead of the client; nil means the client.
	// An example is the *tmux.Subscription of a wait. Then no tmux process
	// is started, and the snapshot is aligned with the control client's
	// output stream.
	Via tmux.Snapshotter
	// Stream also seeds a Stream from the snapshot (ReadResult.Stream),
	// to follow the pane through the output that comes after it.
	Stream bool

	ledger *Ledger // the ledger read in the snapshot (set by Read)
}

// ReadResult is what came after a cursor.
type ReadResult struct {
	Lines        []string // logical lines after the cursor, oldest first
	Cursor       Cursor   // the point after Lines; pass it to the next Read
	LinesDropped int      // rows after the cursor that tmux trimmed before they were read
	DroppedExact bool     // LinesDropped is exact (else a lower bound, see Note)
	Truncated    bool     // more than MaxLines lines were available
	Reset        bool     // history was cleared: Lines is what is there now
	// Uncertain says the cursor's place could not be told for certain. The
	// lines before it recur in the pane, and history may have been trimmed
	// or cleared. Lines is then everything the pane holds, and may begin
	// before the cursor. LinesDropped is then a lower bound (see Note).
	Uncertain bool
	// Fresh is 0 unless Uncertain is set at the history limit. Then
	// Lines[Fresh:] are certainly after the cursor. They follow the newest
	// place it can be.
	Fresh int
	// Seen marks, when Uncertain is set, the lines the cursor saw when it
	// was made (sawRows). They were in history, or on the screen: its
	// fingerprinted rows (Cursor.Rows), found in order wherever they moved
	// to, or its own row. They are not after it. The other lines are.
	Seen   []bool
	Note   string // why LinesDropped is a bound, or other caveats
	Pane   tmux.PaneInfo
	Ledger Ledger // the echo ledger at the snapshot, with ReadOptions.Ledger
	// Stream follows the pane from the snapshot on (ReadOptions.Stream). It
	// is nil when the pane is in a state a Stream does not follow. It is
	// also nil when the cursor's rows had moved.
	Stream *Stream
	// Echo marks the lines that start where typing recorded in the ledger
	// began. It has the same indices as Lines and needs ReadOptions.Ledger.
	// These lines are the echo of typed input, however the program redrew
	// it.
	Echo []bool
	// Unplaced marks the lines of Echo discounted by text alone. They show
	// text submitted more than EchoWindow ago. Its place, the rows where it
	// was typed, can no longer be found, as history was trimmed or cleared
	// before them. That place may lie after the read's start. Output
	// identical to such text is discounted too.
	Unplaced []bool

	// CursorAt, when set, makes the cursor after Lines[i] (see CursorAfter).
	CursorAt func(i int) Cursor

	heldLost bool // an entry held by place could not be placed (set by finish)
}

// CursorAfter returns the cursor after Lines[i]: a read from it starts with
// Lines[i+1]. ok is false when this read cannot make one (a line of the
// alternate screen, a read of rows on a journaled pane); Cursor is then the
// only point it has.
func (r ReadResult) CursorAfter(i int) (Cursor, bool) {
	switch {
	case i == len(r.Lines)-1:
		return r.Cursor, true
	case i < 0 || i >= len(r.Lines) || r.CursorAt == nil:
		return Cursor{}, false
	}
	return r.CursorAt(i), true
}

// Whole reports whether Lines are certainly all the lines after the cursor.
// None were trimmed or cleared before they were read, and the cursor's
// place is certain.
func (r ReadResult) Whole() bool {
	return r.LinesDropped == 0 && r.DroppedExact && !r.Reset && !r.Uncertain
}

// Old reports whether line i of Lines may be from before the cursor, when
// its place is uncertain: it comes before Fresh, or the cursor saw it.
func (r ReadResult) Old(i int) bool {
	return i < r.Fresh || i < len(r.Seen) && r.Seen[i]
}

// IsEcho reports whether line i of Lines is the echo of typed input. It
// checks by place (Echo) and by text (Ledger.IsEcho).
func (r ReadResult) IsEcho(i int) bool {
	return i < len(r.Echo) && r.Echo[i] || r.Ledger.IsEcho(r.Lines[i])
}

// normalView is the normal screen's rows, with history, in tmux's relative
// numbering (row 0 = first visible row), captured in one snapshot.
type normalView struct {
	start  int      // relative number of rows[0]
	rows   []string // physical rows, trailing spaces trimmed
	width  int      // the pane's width, which the rows wrap at
	joined []string // logical lines from the body start (-J), raw
	body   int      // relative row the joined lines start at
	alt    []string // alternate screen rows when it is on (raw, -J)
	// altRows are the alternate screen's physical rows when it is on,
	// plain. rows holds the normal screen's then.
	altRows []string
	// top holds the logical lines from the first row the cursor
	// fingerprinted (Cursor.Rows) on the normal screen. They start at
	// relative row topRow. It is nil when the cursor has no such rows.
	top    []string
	topRow int
	// The lookup tables are built by index and are nil until then. cat is
	// the rows' text concatenated, with row i from off[i]. Each row's
	// hash32 is kept too, and the index of the first row with text
	// (len(rows) if none).
	cat   string
	off   []int
	hash  []uint32
	first int
	// flat is the rows' text without blanks (flatText), with row i from
	// foff[i].
	flat string
	foff []int
	// trimmed says tmux may have trimmed rows before the oldest in the
	// view. locate sets it. Text before a row may be cut there.
	trimmed bool
}

// index builds the view's lookup tables. Then a search through the whole
// history costs a few operations per row. Call it once the rows are final.
func (v *normalView) index() {
	v.off = make([]int, len(v.rows)+1)
	v.foff = make([]int, len(v.rows)+1)
	v.hash = make([]uint32, len(v.rows))
	v.first = len(v.rows)
	var b, f strings.Builder
	for i, s := range v.rows {
		v.off[i], v.foff[i] = b.Len(), f.Len()
		b.WriteString(s)
		f.WriteString(flatText(s))
		v.hash[i] = hash32(s)
		if v.first == len(v.rows) && strings.TrimSpace(s) != "" {
			v.first = i
		}
	}
	v.off[len(v.rows)], v.foff[len(v.rows)] = b.Len(), f.Len()
	v.cat, v.flat = b.String(), f.String()
}

// indexed reports whether index has been built for the current rows.
func (v normalView) indexed() bool { return len(v.off) == len(v.rows)+1 }

// Now returns a cursor at the current end of the pane's output. That is the
// end of the last row with text. On the alternate screen it is the end of
// the normal screen, plus the rows now shown.
func Now(ctx context.Context, c *tmux.Client, id string) (Cursor, tmux.PaneInfo, error) {
	r, err := Read(ctx, c, id, Cursor{Special: CursorScreen}, ReadOptions{MaxLines: 1})
	return r.Cursor, r.Pane, err
}

// Read returns the logical lines after cur and a new cursor. In the common
// case it takes one pane description and one atomic snapshot. The cursor's
// rows may have moved (history trimmed, pane resized). They may also have
// moved when history is at its limit or smaller than it was, or rows before
// the cursor's were redrawn. Then Read captures the whole history once to
// find them (locate). A place it cannot tell for certain is reported as
// such, never guessed. It is Uncertain, with everything the pane holds.
// Errors are tmux errors, and ErrBadCursor wrapped when the cursor belongs
// to another pane or process.
func Read(ctx context.Context, c *tmux.Client, id string, cur Cursor, opt ReadOptions) (ReadResult, error) {
	r := readCall{ctx: ctx, c: c, via: c, id: id, cur: cur, opt: opt}
	if opt.Via != nil {
		r.via = opt.Via
	}
	info, err := r.plan()
	if err != nil {
		return ReadResult{}, err
	}
	prefix := ""
	if opt.Ledger {
		prefix = ledgerPrefix
	}
	for attempt := 0; ; attempt++ {
		v, snap, opts, err := capture(ctx, r.via, id, info, cur, false, prefix)
		if err != nil {
			return ReadResult{}, err
		}
		if err := cur.Check(snap.ID, snap.PID); err != nil {
			return ReadResult{}, err
		}
		if !samePlan(info, snap, cur) && attempt < 5 {
			info = snap // output moved rows since the plan was made; plan again
			continue
		}
		return r.result(v, snap, opts)
	}
}

// readCall is one Read: its arguments, with Via or the client as the
// source of snapshots.
type readCall struct {
	ctx context.Context
	c   *tmux.Client
	via tmux.Snapshotter
	id  string
	cur Cursor
	opt ReadOptions
}

// plan is the pane description the first captures are planned from.
func (r *readCall) plan() (tmux.PaneInfo, error) {
	info := r.opt.Guess
	switch {
	case info.ID == r.id:
	case r.cur.Special == CursorScreen || r.cur.Special == CursorHistory:
		// The captures of the screen, and of all history (-S -), do not
		// depend on the pane's history or size. They are planned for the
		// normal screen and checked in the snapshot itself. That is one
		// tmux call, with no description first.
		info = tmux.PaneInfo{ID: r.id}
	default:
		var err error
		if info, _, _, err = r.via.SnapshotOptions(r.ctx, r.id, ""); err != nil {
			return tmux.PaneInfo{}, err
		}
		if err := r.cur.Check(info.ID, info.PID); err != nil {
			return tmux.PaneInfo{}, err
		}
	}
	return info, nil
}

// result reads the lines after the cursor from the snapshot v of snap.
// opts are the pane options the snapshot read.
func (r *readCall) result(v normalView, snap tmux.PaneInfo, opts map[string]string) (ReadResult, error) {
	var place *Place
	var prompt *PromptMark
	if r.opt.Ledger {
		l := ledgerFrom(opts)
		r.opt.ledger = &l
		place, prompt = v.placeAt(snap), v.promptAt(snap)
	}
	body := v.body
	res, skip, ok := v.fromCursor(r.cur, snap, r.opt)
	res, ok, err := r.relocate(v, body, snap, res, skip, ok)
	if err != nil {
		return ReadResult{}, err
	}
	if ok && r.opt.Stream && v.body == body {
		// (a read from a row redrawn before the cursor's is not followed)
		if res.Stream = newStream(v, snap, r.cur, skip, tabModeOf(r.c)); res.Stream != nil {
			res.Stream.padWrap = r.c.JoinsWholeWidth()
		}
	}
	if r.opt.Ledger {
		res.Ledger = *r.opt.ledger
		res.Ledger.at, res.Ledger.prompt = place, prompt
		if res.Stream != nil {
			res.Stream.keepEcho(res)
		}
	}
	return res, nil
}

// relocate looks through the whole history when the cursor's rows are not
// where they were, or may be elsewhere too. res, skip and ok are what
// fromCursor found in v. The body row of v was body before it. relocate
// returns the result and whether it is still fromCursor's.
func (r *readCall) relocate(v normalView, body int, snap tmux.PaneInfo, res ReadResult, skip int, ok bool) (ReadResult, bool, error) {
	// Rows before the cursor's, or its own, were redrawn. The evidence is
	// partial, and a scroll and a clear-history look the same.
	redrawn := ok && r.cur.Special == "" && (v.body != body || skip == 0 && r.cur.PrefixLen > 0)
	if ok && !redrawn && !mustLocate(r.cur, snap) && !widthChanged(r.cur, snap) {
		return res, ok, nil
	}
	fv, fsnap, _, err := capture(r.ctx, r.via, r.id, snap, r.cur, true, "")
	if err != nil {
		return ReadResult{}, false, err
	}
	p := fv.locate(r.cur, fsnap)
	if !ok || p.kind != placeFound || p.row != v.body || p.skip != skip || !sameRows(snap, fsnap) {
		return fv.readAt(p, r.cur, fsnap, r.opt), false, nil
	}
	return res, ok, nil
}

// samePlan reports whether captures planned from a pane description are
// valid for the pane as snapshotted: the rows are numbered the same way.
// Captures for the screen cursor depend on the alternate screen only.
func samePlan(plan, snap tmux.PaneInfo, cur Cursor) bool {
	if cur.Special == CursorScreen || cur.Special == CursorHistory {
		return plan.AlternateOn == snap.AlternateOn
	}
	return plan.HistorySize == snap.HistorySize && plan.AlternateOn == snap.AlternateOn && plan.Height == snap.Height
}

// widthChanged reports whether the pane's width changed since cur was made,
// and cur can be found by its text without blanks (Cursor.HasFlat). Then
// Read finds it that way. Its rows may match elsewhere by chance.
func widthChanged(cur Cursor, snap tmux.PaneInfo) bool {
	return cur.Special == "" && cur.HasFlat && cur.Width != snap.Width
}

// sameRows reports whether two snapshots number the pane's rows alike.
func sameRows(a, b tmux.PaneInfo) bool {
	return a.HistorySize == b.HistorySize && a.Height == b.Height && a.Width == b.Width && a.AlternateOn == b.AlternateOn
}

// capture takes the snapshot for reading after cur. It takes the physical
// rows from anchorRows before the cursor's row to the bottom, or all
// history when full. It also takes the logical lines from the cursor's row,
// and the alternate screen.
func capture(ctx context.Context, c tmux.Snapshotter, id string, info tmux.PaneInfo, cur Cursor, full bool, optPrefix string) (normalView, tmux.PaneInfo, map[string]string, error) {
	h := info.HistorySize
	body := 0
	switch {
	case cur.Special == CursorHistory || full:
		body = -h
	case cur.Special == CursorScreen:
		body = 0
	default:
		body = cur.Row - h
	}
	if body > info.Height {
		body = info.Height // beyond the screen: nothing to read there
	}
	// These are the rows the cursor fingerprinted before its row, and the
	// text before them. A program may have redrawn them (see fromCursor).
	top := body
	if cur.Special == "" && !full && body < info.Height {
		top = max(body-len(cur.Rows), -h)
	}
	start := top - anchorRows
	if full {
		start = -h
	}
	// From the oldest row, the captures need not know how many there are
	// (-S -): the snapshot says.
	oldest := cur.Special == CursorHistory
	var specs []tmux.CaptureSpec
	if !info.AlternateOn {
		specs = []tmux.CaptureSpec{
			{Start: start, ToBottom: true, FromOldest: full || oldest},
			{Start: body, ToBottom: true, Join: true, Escapes: true, FromOldest: oldest},
		}
		if top < body {
			specs = append(specs, tmux.CaptureSpec{Start: top, ToBottom: true, Join: true, Escapes: true})
		}
	} else {
		// History stays the normal screen's; its visible rows are the saved
		// grid (-a). Lines drawn on the alternate screen never reach history.
		specs = []tmux.CaptureSpec{
			{Start: min(start, -1), End: -1, FromOldest: full || oldest},
			{Alternate: true, Start: 0, ToBottom: true},
			{Start: min(body, -1), End: -1, Join: true, Escapes: true, FromOldest: oldest},
			{Alternate: true, Start: max(body, 0), ToBottom: true, Join: true, Escapes: true},
			{Start: 0, ToBottom: true, Join: true, Escapes: true},
			{Start: 0, ToBottom: true}, // its rows as shown, for the prompt (promptAt)
		}
	}
	snap, texts, opts, err := c.SnapshotOptions(ctx, id, optPrefix, specs...)
	if err != nil {
		return normalView{}, snap, nil, err
	}
	if oldest {
		body, start = -snap.HistorySize, -snap.HistorySize
	}
	v := normalView{body: body, width: snap.Width}
	v.start = max(start, -snap.HistorySize)
	if !info.AlternateOn {
		v.rows = splitRows(texts[0])
		v.joined = splitRows(texts[1])
		if top < body {
			v.top, v.topRow = splitRows(texts[2]), top
		}
	} else {
		// With no history, tmux would swap the range -N..-1 into 0..N. So
		// the history captures only count when there are history rows.
		var histRows, histJoined []string
		if start < 0 && snap.HistorySize > 0 {
			histRows = splitRows(texts[0])
		} else {
			v.start = 0
		}
		if body < 0 && snap.HistorySize > 0 {
			histJoined = splitRows(texts[2])
		}
		v.rows = append(histRows, splitRows(texts[1])...)
		v.joined = append(histJoined, splitRows(texts[3])...)
		v.alt = splitRows(texts[4])
		v.altRows = splitRows(texts[5])
	}
	for i := range v.rows {
		v.rows[i] = trimRow(v.rows[i])
	}
	v.index()
	return v, snap, opts, nil
}

// row returns the physical row with relative number r, ok=false outside the view.
func (v normalView) row(r int) (string, bool) {
	i := r - v.start
	if i < 0 || i >= len(v.rows) {
		return "", false
	}
	return v.rows[i], true
}

// anchorText is the text of the rows before relative row r. It is
// concatenated without separators, so it reads the same however tmux wraps
// the rows. It goes at most anchorScan rows back. ok is false when it is
// shorter than n bytes.
func (v normalView) anchorText(r, n int) (string, bool) {
	if v.indexed() {
		i := r - v.start
		if n <= 0 {
			return "", true
		}
		if i <= 0 || i > len(v.rows) {
			return "", false
		}
		text := v.cat[v.off[max(0, i-anchorScan)]:v.off[i]]
		if len(text) < n {
			return text, false
		}
		return text[len(text)-n:], true
	}
	text := ""
	for k := 1; k <= anchorScan && len(text) < n; k++ {
		s, ok := v.row(r - k)
		if !ok {
			break
		}
		text = s + text
	}
	if len(text) < n {
		return text, false
	}
	return text[len(text)-n:], true
}

// anchorAt fingerprints the text before relative row r for a new cursor. It
// keeps the last anchorBytes bytes, fewer near the start of history.
func (v normalView) anchorAt(r int) (int, uint64) {
	text, _ := v.anchorText(r, anchorBytes)
	return len(text), hash64(text)
}

// matches reports whether the cursor's anchor and prefix are found at relative row r.
func (v normalView) matches(cur Cursor, r int) (anchor, prefix bool) {
	text, ok := v.anchorText(r, cur.AnchorLen)
	anchor = ok && hash64(text) == cur.AnchorHash
	if cur.AnchorLen == 0 {
		// Nothing before the point: it must still be the start of history.
		_, more := v.row(r - 1)
		anchor = !more || !v.textBefore(r)
	}
	s, _ := v.row(r)
	if pad := cur.PrefixLen - len(s); pad > 0 {
		s += strings.Repeat(" ", pad) // rows are compared with trailing blanks trimmed
	}
	prefix = hash64(s[:cur.PrefixLen]) == cur.PrefixHash
	return
}

// textBefore reports whether a row in the view before relative row r has text.
func (v normalView) textBefore(r int) bool {
	i := min(max(r-v.start, 0), len(v.rows))
	if v.indexed() {
		return v.first < i
	}
	return strings.TrimSpace(strings.Join(v.rows[:i], "")) != ""
}

// rowHash is hash32 of the row with relative number r; ok=false outside the view.
func (v normalView) rowHash(r int) (uint32, bool) {
	i := r - v.start
	if i < 0 || i >= len(v.rows) {
		return 0, false
	}
	if v.indexed() {
		return v.hash[i], true
	}
	return hash32(v.rows[i]), true
}

// fromCursor reads at the cursor's expected place. ok is false when the
// anchor is not there, because rows were trimmed, reflowed or cleared. skip
// is the prefix of the cursor's row cut from the first line. Rows before
// the cursor's may have been redrawn in place (see placeOf). Then it reads
// from the first of them, and v.body moves there.
func (v *normalView) fromCursor(cur Cursor, snap tmux.PaneInfo, opt ReadOptions) (ReadResult, int, bool) {
	res := ReadResult{Pane: snap, DroppedExact: true}
	skip := 0
	if cur.Special == "" {
		if v.body >= snap.Height && cur.Row > 0 {
			return res, 0, false
		}
		r, k, ok := v.placeOf(cur, v.body, snap.Width)
		if !ok {
			return res, 0, false
		}
		if r < v.body {
			if v.top == nil {
				return res, 0, false
			}
			v.joined, v.body = v.top, v.topRow
			v.joined, v.body = v.joinedFrom(r), r
		}
		skip = k
	}
	return v.finish(res, cur, v.body, skip, opt), skip, true
}

// placeOf is where reading after cur starts when its row is at relative row
// at. Usually that is the row and the bytes of it already seen (skip). skip
// is 0 when the row was redrawn, because it is delivered whole. The cursor
// also fingerprinted rows before its row (Cursor.Rows). They may be at
// their places while some differ. A program may have redrawn a bottom
// region and inserted lines above it, as in an inline TUI's turn. Or a
// progress line was rewritten in place. Then reading starts at the first
// row that differs, delivered whole. This does not apply after a change of
// width, because tmux reflowed the rows. ok is false when the cursor's
// place is not there.
func (v normalView) placeOf(cur Cursor, at, width int) (row, skip int, ok bool) {
	anchor, prefix := v.matches(cur, at)
	div := v.diverge(cur, at)
	switch {
	case anchor && div == len(cur.Rows):
		if cur.AnchorLen == 0 && !prefix && cur.PrefixLen > 0 {
			return 0, 0, false
		}
		if prefix {
			return at, cur.PrefixLen, true
		}
		return at, 0, true // the row was redrawn: deliver it whole
	case cur.HasRows && cur.Width == width && (div > 0 || div == 0 && cur.TopLen == anchorBytes):
		// With no fingerprinted row at its place, only a full anchor before
		// them tells their place from another.
		return at - len(cur.Rows) + div, 0, true
	}
	return 0, 0, false
}

// diverge compares the rows the cursor fingerprinted with the rows before
// relative row at. It returns the index of the first that differs, or
// len(cur.Rows) when none does. It returns -1 when the text before the
// first is not the cursor's.
func (v normalView) diverge(cur Cursor, at int) int {
	if !cur.HasRows {
		return 0
	}
	top := at - len(cur.Rows)
	if text, ok := v.anchorText(top, cur.TopLen); cur.TopLen == 0 {
		if _, more := v.row(top - 1); more && v.textBefore(top) {
			return -1 // nothing was before them: it must still be the start of history
		}
	} else if !ok || hash64(text) != cur.TopHash {
		return -1
	}
	for j, h := range cur.Rows {
		if s, ok := v.rowHash(top + j); !ok || s != h {
			return j
		}
	}
	return len(cur.Rows)
}

// rowsAt fingerprints the visible rows before relative row r, and the text
// before them. It takes at most anchorScan rows, from the first in the
// view.
func (v normalView) rowsAt(r int) (rows []uint32, topLen int, topHash uint64) {
	top := min(r, max(0, r-anchorScan, v.start))
	for k := top; k < r; k++ {
		s, _ := v.row(k)
		rows = append(rows, hash32(s))
	}
	text, _ := v.anchorText(top, anchorBytes)
	return rows, len(text), hash64(text)
}

// trimChunk is how many rows tmux trims at once from a history at its
// limit. grid_collect_history trims history-limit/10, at least 1. Every
// trim since a cursor was made moved its rows up by this many.
func trimChunk(limit int) int { return max(1, limit/10) }

// mayTrim reports whether tmux may have trimmed history rows since a cursor
// was made. That is so when history is at its limit, where it stays once
// reached. tmux keeps no count of the rows it trimmed. It is also so when
// the pane keeps no history (history-limit 0). Then rows scrolled off the
// top are lost.
func mayTrim(snap tmux.PaneInfo) bool {
	return snap.HistoryLimit <= 0 || snap.HistorySize >= snap.HistoryLimit-trimChunk(snap.HistoryLimit)
}

// mustLocate reports whether a cursor found at its expected place may still
// be elsewhere. Then Read checks it against the whole history (locate).
// History may have been trimmed, which moves the place up by a multiple of
// trimChunk the pane does not tell. Or history is smaller than when the
// cursor was made, because it was cleared or the pane made taller.
func mustLocate(cur Cursor, snap tmux.PaneInfo) bool {
	return cur.Special == "" && (mayTrim(snap) || snap.HistorySize < cur.History)
}

// placeKind says how locate found a cursor's place.
type placeKind int

const (
	placeFound     placeKind = iota // at one place, for certain
	placeUncertain                  // the rows before it are at more than one place, or may be gone and repeated by later output
	placeTrimmed                    // its row was trimmed from history
	placeCleared                    // history was cleared
	placeUnknown                    // after a reflow, an older cursor's rows are not found
)

// placement is where reading after a cursor starts, as locate found it. It
// is a relative row and the bytes of it already seen.
type placement struct {
	kind      placeKind
	row, skip int
	at        int  // where the cursor's row is (row differs after a redraw)
	kept      int  // rows before it found at their places (Cursor.Rows)
	full      bool // its fingerprint (the text and rows before it) matched whole
	// weak says little of what the cursor fingerprinted was compared. The
	// text before it may reach before the oldest row held, so only its
	// prefix and rows matched. Or that text was shorter than a full anchor
	// when the cursor was made. That happens at the start of the pane's
	// output, and trimming and clearing make any row such a start.
	weak   bool
	reason string
	// flat says locateFlat placed it in the view's joined lines. Reading
	// starts at line, and skip counts bytes of that line.
	flat bool
	line int
	// uncertain marks the newest place it can be, where reading after it
	// would start. The lines after it are new whichever place is the
	// cursor's.
	newest *placement
}

// evidence is what the view shows of cur with its row at relative row at.
// It is as placeOf, plus whether all it fingerprinted before the row
// matched (full), or how many of its rows did (kept). The pane's width may
// not be the cursor's, because tmux reflowed the rows. Then only the text
// before the row counts, with the row's prefix when that text is short.
func (v normalView) evidence(cur Cursor, at int, width int) (placement, bool) {
	anchor, prefix := v.matches(cur, at)
	if !cur.HasRows || cur.Width != width {
		switch {
		case anchor && (cur.AnchorLen == anchorBytes || prefix):
			p := placement{row: at, at: at, full: true, weak: cur.AnchorLen < anchorBytes}
			if prefix {
				p.skip = cur.PrefixLen
			}
			return p, true
		case prefix && v.cut(at, cur.AnchorLen):
			return placement{row: at, at: at, skip: cur.PrefixLen, weak: true}, true
		}
		return placement{}, false
	}
	if row, skip, ok := v.placeOf(cur, at, width); ok {
		div := v.diverge(cur, at)
		full := anchor && div == len(cur.Rows)
		weak := full && cur.AnchorLen < anchorBytes || !full && cur.TopLen < anchorBytes
		return placement{row: row, skip: skip, at: at, kept: max(div, 0), full: full, weak: weak}, true
	}
	// The rows it fingerprinted, or the text before them, may reach before
	// the oldest row held, because they were trimmed since. What is held of
	// them must match, and so must its row's prefix.
	top := at - len(cur.Rows)
	if !prefix || !anchor && !v.cut(at, cur.AnchorLen) {
		return placement{}, false
	}
	if text, ok := v.anchorText(top, cur.TopLen); ok && hash64(text) != cur.TopHash || !ok && !v.cut(top, cur.TopLen) {
		return placement{}, false
	}
	for j, h := range cur.Rows {
		if got, ok := v.rowHash(top + j); ok && got != h || !ok && top+j >= v.start {
			return placement{}, false
		}
	}
	return placement{row: at, skip: cur.PrefixLen, at: at, kept: len(cur.Rows), full: anchor, weak: !anchor || cur.AnchorLen < anchorBytes}, true
}

// cut reports whether the text before relative row r is shorter than n
// bytes because the view starts within the rows it is taken from. tmux
// trimmed them, so what the text was cannot be told.
func (v normalView) cut(r, n int) bool {
	if !v.trimmed {
		return false
	}
	_, ok := v.anchorText(r, n)
	return !ok && r-anchorScan < v.start
}

// alike reports whether the view shows evidence as strong as p's, with the
// cursor's row at relative row at. That is its whole fingerprint when p had
// it. Else it is the text before its rows and at least as many of them.
func (v normalView) alike(cur Cursor, at int, width int, p placement) bool {
	if !cur.HasRows || cur.Width != width {
		e, ok := v.evidence(cur, at, width)
		return ok && (e.full || !p.full)
	}
	if e, ok := v.evidence(cur, at, width); ok && e.weak {
		return !p.full
	}
	div := v.diverge(cur, at)
	if p.full {
		anchor, _ := v.matches(cur, at)
		return anchor && div == len(cur.Rows)
	}
	return div >= p.kept && (div > 0 || cur.TopLen == anchorBytes)
}

// distinctive reports whether p's evidence is found nowhere else in the
// view. When it is, the text and rows before the cursor do not recur in the
// pane's output. When they do recur (yes, blank lines, a repeated prompt),
// later output may have printed them again. Then a place that shows them
// can be a repetition as well as the cursor's own rows.
func (v normalView) distinctive(cur Cursor, snap tmux.PaneInfo, p placement) bool {
	if !v.varied(cur, snap, p) {
		return false
	}
	for at := v.start; at < v.start+len(v.rows); at++ {
		if at != p.at && v.alike(cur, at, snap.Width, p) {
			return false
		}
	}
	return true
}

// varied reports whether the rows p's evidence covers say enough to tell
// them from a later repetition. These rows are the rows of the text before
// the cursor's row, and the rows it fingerprinted with the text before
// them. Their distinct rows must hold at least anchorBytes bytes of text.
// They must not repeat a shorter sequence of rows. Output that repeats
// itself may print the same rows again anywhere later. Examples are yes,
// blank lines, a prompt pressed again and again, or two lines in turn. A
// place that shows such rows cannot be told from a repetition. That holds
// even when it is the only one in the pane, with the cursor's own rows
// trimmed.
func (v normalView) varied(cur Cursor, snap tmux.PaneInfo, p placement) bool {
	from := v.rowsOfText(p.at, cur.AnchorLen)
	if cur.HasRows && cur.Width == snap.Width {
		top := p.at - len(cur.Rows)
		from = min(from, v.rowsOfText(top, cur.TopLen))
	}
	var rows []uint32
	seen := map[uint32]bool{}
	text := 0
	for r := max(from, v.start); r < p.at; r++ {
		h, _ := v.rowHash(r)
		rows = append(rows, h)
		if !seen[h] {
			seen[h] = true
			s, _ := v.row(r)
			text += len(s)
		}
	}
	if text < anchorBytes {
		return false
	}
	for d := 1; d <= len(rows)/2; d++ {
		if slices.Equal(rows[d:], rows[:len(rows)-d]) {
			return false // rows repeating every d rows
		}
	}
	return true
}

// rowsOfText is the first row of the text before relative row r that
// anchorText(r, n) takes.
func (v normalView) rowsOfText(r, n int) int {
	got := 0
	k := 0
	for k < anchorScan && got < n {
		s, ok := v.row(r - k - 1)
		if !ok {
			break
		}
		got += len(s)
		k++
	}
	return r - k
}

// locate finds the cursor's place in a view of the whole history. After a
// change of width it finds it by its text without blanks (locateFlat). A
// cursor made before cursors marked that text is found by its rows. When
// they are not found for certain, its place is unknown: a reflow moved them.
func (v normalView) locate(cur Cursor, snap tmux.PaneInfo) placement {
	if widthChanged(cur, snap) {
		if p, ok := v.locateFlat(cur, snap); ok {
			return p
		}
	}
	p := v.locateRows(cur, snap)
	if p.kind != placeFound && cur.Special == "" && !cur.HasFlat && cur.HasRows && cur.Width != snap.Width {
		return placement{kind: placeUnknown, row: -snap.HistorySize}
	}
	return p
}

// locateRows finds the cursor's place by its rows. While the width stayed,
// the cursor's row can only have moved up by whole trims of
// trimChunk rows each. Those places are tried first. One of them is certain
// when it is the only one that shows the cursor's evidence, and that
// evidence is nowhere else in the pane. Else a repetition of the lines
// before the cursor could stand where they were, with the cursor's own rows
// gone. That case is uncertain. Elsewhere the text before its row is
// searched. That covers a reflow, or a clear-history that kept the screen.
// When nothing shows the text, its row was trimmed if history is at its
// limit. Else history was cleared.
func (v normalView) locateRows(cur Cursor, snap tmux.PaneInfo) placement {
	oldest := -snap.HistorySize
	trims := mayTrim(snap)
	v.trimmed = trims
	reflowed := !cur.HasRows || cur.Width != snap.Width
	// every place that shows the cursor's evidence, oldest first
	var all []placement
	scanned := false
	scan := func() []placement {
		for at := oldest; at < v.start+len(v.rows) && !scanned; at++ {
			if p, ok := v.evidence(cur, at, snap.Width); ok {
				all = append(all, p)
			}
		}
		scanned = true
		return all
	}
	uncertain := func(why string) placement {
		// Wherever the cursor is, the lines after the newest place that
		// shows its evidence follow it. The cursor may also be trimmed. A
		// clear-history leaves no count, so then nothing is told. The read
		// is taken whole, as after a reset.
		p := placement{kind: placeUncertain, row: oldest, reason: why}
		if all := scan(); len(all) > 0 && trims {
			n := newest(all)
			p.newest = &n
		}
		return p
	}
	repeats := "the lines before it recur in the pane's output"
	if !reflowed {
		var hits []placement
		for at := cur.Row - snap.HistorySize; at >= oldest; at -= trimChunk(snap.HistoryLimit) {
			if at < snap.Height {
				if p, ok := v.evidence(cur, at, snap.Width); ok {
					hits = append(hits, p)
				}
			}
			if !trims {
				break
			}
		}
		// With no trim possible and history no smaller, the rows can only
		// have moved by a clear-history. The cursor's place shows it whole
		// when its row alone was redrawn, as the fast path takes it.
		positional := !trims && snap.HistorySize >= cur.History
		switch {
		case len(hits) == 1 && positional && hits[0].full:
			return hits[0]
		case len(hits) == 1 && !hits[0].weak && v.distinctive(cur, snap, hits[0]):
			return hits[0]
		case len(hits) > 1:
			return uncertain("the lines before it are found at more than one place it can have moved to")
		case len(hits) == 1:
			return uncertain(repeats)
		}
	}
	hits := scan()
	switch {
	case len(hits) == 1 && (reflowed || !trims) && !hits[0].weak && v.distinctive(cur, snap, hits[0]):
		return hits[0]
	case len(hits) > 1:
		return uncertain(repeats)
	case len(hits) == 1:
		return uncertain("the lines before it are not where its rows can have moved to")
	case trims:
		return placement{kind: placeTrimmed, row: oldest}
	}
	return placement{kind: placeCleared, row: oldest}
}

// newest is the place of ps from which reading starts latest.
func newest(ps []placement) placement {
	n := ps[0]
	for _, p := range ps[1:] {
		if p.row > n.row || p.row == n.row && p.skip > n.skip {
			n = p
		}
	}
	return n
}

// readAt builds the result of reading after cur from where locate placed
// it, in a view of the whole history.
func (v normalView) readAt(p placement, cur Cursor, snap tmux.PaneInfo, opt ReadOptions) ReadResult {
	res := ReadResult{Pane: snap, DroppedExact: true}
	oldest := -snap.HistorySize
	switch p.kind {
	case placeFound:
		v.joined = v.joinedAt(p)
		return v.finish(res, cur, p.row, p.skip, opt)
	case placeUncertain:
		res.Uncertain, res.DroppedExact = true, false
		res.Note = fmt.Sprintf("the cursor's place could not be told for certain (%s; %s): output is everything the pane holds, and may begin with lines from before the cursor", p.reason, whyMoved(snap))
		if p.newest != nil {
			// the lines after the newest place it can be are new
			after := v
			after.joined = v.joinedAt(*p.newest)
			fresh := len(after.finish(ReadResult{Pane: snap}, cur, p.newest.row, p.newest.skip, ReadOptions{}).Lines)
			v.joined = v.joinedFrom(oldest)
			all := v.finish(res, cur, oldest, 0, opt)
			all.Fresh = max(0, len(all.Lines)-fresh)
			return all
		}
	case placeTrimmed:
		// tmux keeps no count of trimmed rows, so the exact number is
		// unknowable. It trims history-limit/10 rows at a time, and the
		// cursor's row is gone. So at least the rows up to the next
		// multiple of that were dropped. A reflow renumbered the rows,
		// and then nothing is known.
		chunk := trimChunk(snap.HistoryLimit)
		lower := chunk*((cur.Row+chunk)/chunk) - cur.Row - 1
		if widthChanged(cur, snap) {
			lower = 0
		}
		res.LinesDropped, res.DroppedExact = lower, false
		if lower > 0 {
			res.Note = fmt.Sprintf("at least %d lines after the cursor were trimmed from history (history-limit %d) before they were read (unless history was cleared); the exact count is not kept by tmux", lower, snap.HistoryLimit)
		} else {
			res.Note = fmt.Sprintf("the cursor's line was trimmed from history (history-limit %d): lines after it may have been trimmed before they were read; the exact count is not kept by tmux", snap.HistoryLimit)
		}
	case placeUnknown:
		res.DroppedExact = false
		res.Note = "the pane's width changed since the cursor was made, and tmux reflowed its lines: this cursor, printed by an earlier panectl, cannot be found in them, so nothing from before now is returned; take a new cursor"
		v.joined = nil
		return v.finish(res, cur, oldest, 0, opt)
	case placeCleared:
		res.Reset = true
		res.Note = "history was cleared since the cursor was made; output is what the pane holds now"
	}
	v.joined = v.joinedFrom(oldest)
	return v.finish(res, cur, oldest, 0, opt)
}

// joinedAt is the view's joined lines from where reading at p starts.
func (v normalView) joinedAt(p placement) []string {
	if p.flat {
		return v.joined[p.line:]
	}
	return v.joinedFrom(p.row)
}

// whyMoved says why a cursor's rows may not be where they were.
func whyMoved(snap tmux.PaneInfo) string {
	if mayTrim(snap) {
		return fmt.Sprintf("history is at its limit (history-limit %d), where tmux trims it and keeps no count", snap.HistoryLimit)
	}
	return "history was cleared, or the pane resized, since the cursor was made"
}

// joinedFrom re-cuts the logical lines so they start at relative row r. It
// is used after a full capture, whose joined lines start at the oldest row.
func (v normalView) joinedFrom(r int) []string {
	// Walk physical rows and logical lines together. A logical line covers
	// one or more rows. Count the rows consumed until r.
	lines := v.joined
	row := v.body
	for len(lines) > 0 && row < r {
		n := rowsOf(lines[0], v, row)
		if row+n > r {
			break
		}
		row += n
		lines = lines[1:]
	}
	return lines
}

// rowsOf is how many physical rows from relative row r the logical line l
// occupies. Its plain text is those rows' text, in order. Every row but
// its last is filled to the pane's width. So the blanks it ends with,
// trimmed from the row, are in the line.
func rowsOf(l string, v normalView, r int) int {
	rest := trimRow(cleanLine(l, false))
	for n := 1; ; n++ {
		s, ok := v.row(r + n - 1)
		if !ok {
			return n
		}
		if strings.HasPrefix(rest, s) {
			rest = rest[len(s):]
		} else {
			rest = rest[min(len(s), len(rest)):] // not the row's text: count its bytes
		}
		pad := v.width - ansi.StringWidth(s)
		for ; pad > 0 && strings.HasPrefix(rest, " "); pad-- {
			rest = rest[1:]
		}
		if rest == "" {
			return n
		}
	}
}

// lineStarts is the relative row each joined line starts at, from row r.
// tmux may join a row that holds nothing to the line above. fish leaves one
// after a line that fills its last row. Such a row belongs to that line. A
// line whose text starts with no blank does not start on an empty row.
func (v normalView) lineStarts(r int) []int {
	at := make([]int, len(v.joined))
	row := r
	for i, l := range v.joined {
		plain := trimRow(cleanLine(l, false))
		for i > 0 && plain != "" && plain[0] != ' ' {
			if s, ok := v.row(row); !ok || s != "" {
				break
			}
			row++
		}
		at[i] = row
		row += rowsOf(l, v, row)
	}
	return at
}

// finish builds the result from relative row r and the cursor after it. It
// skips skip bytes of the first line.
func (v normalView) finish(res ReadResult, cur Cursor, r, skip int, opt ReadOptions) ReadResult {
	snap := res.Pane
	lines := make([]string, 0, len(v.joined))
	var starts []int // relative row each line starts at (offScreen: alternate screen)
	var active, held []EchoEntry
	if opt.ledger != nil {
		active, held = opt.ledger.placesFrom(snap.HistorySize + r)
	}
	places := len(active)+len(held) > 0
	var at []int
	var saw []bool
	if places || res.Uncertain {
		at = v.lineStarts(r)
	}
	if res.Uncertain {
		saw = v.sawRows(cur, snap)
	}
	var joinedOf []int // the index in v.joined of each line
	for i, l := range v.joined {
		if i == 0 && skip > 0 {
			l = cutPlainPrefix(l, skip) // the rest of the cursor's row
			if strings.TrimSpace(cleanLine(l, false)) == "" {
				continue // nothing new on the cursor's row
			}
		}
		lines = append(lines, cleanLine(l, opt.ANSI))
		joinedOf = append(joinedOf, i)
		if places {
			starts = append(starts, at[i])
		} else {
			starts = append(starts, r)
		}
		if res.Uncertain {
			res.Seen = append(res.Seen, v.sawLine(saw, at[i], l))
		}
	}
	for len(lines) > 0 && cleanLine(lines[len(lines)-1], false) == "" {
		lines = lines[:len(lines)-1]
	}
	starts = starts[:len(lines)]
	joinedOf = joinedOf[:len(lines)]
	if res.Seen != nil {
		res.Seen = res.Seen[:len(lines)]
	}
	// The new point: the end of the last normal row with text at or after r.
	last := v.start + lastNonBlank(v.rows)
	if last < r {
		last = r // nothing after the point: it stays where it was
	}
	next := v.pointAt(last, snap)
	cut := 0 // lines left out at the front (MaxLines)
	if !snap.AlternateOn {
		res.CursorAt = func(i int) Cursor {
			j := joinedOf[i+cut]
			at := v.lineStarts(r)[j]
			return v.pointAt(at+rowsOf(v.joined[j], v, at)-1, snap)
		}
	}
	if snap.AlternateOn {
		var alt []string
		alt, next.AltRows = v.altLines(cur, opt.ANSI)
		next.Alternate, next.AltKeys = true, true
		for _, a := range alt {
			lines = append(lines, a)
			starts = append(starts, offScreen)
			if res.Uncertain {
				res.Seen = append(res.Seen, false)
			}
		}
	}
	if places {
		var lost bool
		res.Echo, res.Unplaced, lost = v.echoByPlace(starts, lines, active, held)
		res.heldLost = lost
	}
	if opt.MaxLines > 0 && len(lines) > opt.MaxLines {
		cut = len(lines) - opt.MaxLines
		lines = lines[cut:]
		if res.Echo != nil {
			res.Echo = res.Echo[len(res.Echo)-opt.MaxLines:]
		}
		if res.Unplaced != nil {
			res.Unplaced = res.Unplaced[len(res.Unplaced)-opt.MaxLines:]
		}
		if res.Seen != nil {
			res.Seen = res.Seen[len(res.Seen)-opt.MaxLines:]
		}
		res.Truncated = true
	}
	res.Lines = lines
	res.Cursor = next
	return res
}

// pointAt is the cursor at the end of relative row last of the normal
// screen or history.
func (v normalView) pointAt(last int, snap tmux.PaneInfo) Cursor {
	next := Cursor{PaneID: paneNumber(snap.ID), PanePID: snap.PID, History: snap.HistorySize}
	s, _ := v.row(last)
	if last == snap.CursorY && !snap.AlternateOn {
		// Blanks typed before the terminal cursor are part of what was
		// seen. That holds though the row's trailing blanks are trimmed.
		if pad := snap.CursorX - ansi.StringWidth(s); pad > 0 {
			s += strings.Repeat(" ", pad)
		}
	}
	next.Row = snap.HistorySize + last
	next.AnchorLen, next.AnchorHash = v.anchorAt(last)
	next.PrefixLen, next.PrefixHash = len(s), hash64(s)
	next.HasRows, next.Width = true, snap.Width
	next.Rows, next.TopLen, next.TopHash = v.rowsAt(last)
	row, _ := v.row(last)
	v.flatAt(last, len(s)-len(row), snap, &next)
	return next
}

// altLines are the alternate screen's rows that cur did not see, as lines.
// rows are the hashes of the rows with text shown now, for the next cursor.
// They hash the rows without decoration (rowKey). A cursor printed before
// that hashed them whole, and is compared so.
func (v normalView) altLines(cur Cursor, keepANSI bool) (lines []string, rows []uint32) {
	var shown []string
	var whole []uint32
	for _, a := range v.alt {
		plain := cleanLine(a, false)
		if strings.TrimSpace(plain) == "" {
			continue
		}
		shown = append(shown, a)
		if len(rows) < maxAltRows {
			rows = append(rows, hash32(rowKey(plain)))
			whole = append(whole, hash32(plain))
		}
	}
	var kept []bool
	switch {
	case cur.Alternate && cur.AltKeys:
		kept = keptRows(cur.AltRows, rows)
	case cur.Alternate:
		kept = keptRows(cur.AltRows, whole)
	}
	for i, a := range shown {
		if i >= len(kept) || !kept[i] {
			lines = append(lines, cleanLine(a, keepANSI))
		}
	}
	return lines, rows
}

// seenScan bounds the rows an uncertain read compares with the cursor's
// rows (sawRows). It bounds the work of keptRows too.
const seenScan = 2000

// sawRows marks the rows of a view of the whole history snap that cur saw.
// Some were in history then, when history was not trimmed, cleared or
// reflowed since: those before the cursor's History. The others were on
// the screen, before the cursor's row (Cursor.Rows) or that row itself. A
// program may have redrawn them anywhere since, after a clear or in place.
// They are found in order (keptRows), so a row repeated later is new. The
// rows before the first found cannot be told from them, and count as seen.
func (v normalView) sawRows(cur Cursor, snap tmux.PaneInfo) []bool {
	saw := make([]bool, len(v.rows))
	if cur.Special != "" || !v.indexed() {
		return saw
	}
	hist := 0
	if !mayTrim(snap) && snap.HistorySize >= cur.History && cur.Width == snap.Width {
		hist = min(len(saw), max(0, cur.History-snap.HistorySize-v.start))
	}
	from := max(hist, len(saw)-seenScan)
	first, last := -1, hist-1
	for j, k := range keptRows(cur.Rows, v.hash[from:]) {
		if k && first < 0 {
			first = from + j
		}
		if k {
			saw[from+j], last = true, from+j
		}
	}
	for i := range saw[:max(first, hist)] {
		saw[i] = true
	}
	for i := last + 1; i < len(saw); i++ {
		if len(v.rows[i]) == cur.PrefixLen && hash64(v.rows[i]) == cur.PrefixHash {
			saw[i] = true // the cursor's own row
			break
		}
	}
	return saw
}

// sawLine reports whether the joined line l, from relative row r, was seen:
// its rows with text all are (sawRows), and it has some.
func (v normalView) sawLine(saw []bool, r int, l string) bool {
	text := false
	for k, end := r, r+rowsOf(l, v, r); k < end; k++ {
		s, ok := v.row(k)
		switch {
		case !ok || s != "" && !saw[k-v.start]:
			return false
		case s != "":
			text = true
		}
	}
	return text
}

// rowKey is a row's text without its decoration. Rows shown at different
// times are compared by it. A program may redraw a row it showed with other
// decoration: a scrollbar thumb at its end, a border, a spinner frame, other
// colours or padding. Colours are gone from plain already. Blanks and
// glyphs of box drawing, blocks, shapes, symbols, dingbats and braille
// (U+2500-U+27BF, U+2800-U+28FF) go from both ends. Runs of blanks
// within become one.
func rowKey(plain string) string {
	return strings.Join(strings.Fields(strings.TrimFunc(plain, decoration)), " ")
}

// decoration reports whether r is a blank or a glyph rowKey trims.
func decoration(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x2500 && r <= 0x27BF || r >= 0x2800 && r <= 0x28FF
}

// keptRows marks the rows of now that were already shown in old. Both are
// row hashes: of the alternate screen, with blank rows left out, or of an
// uncertain read's rows (sawRows). The marks are a
// longest common subsequence of the two, its rows matched as early as they
// can be. A row is old by its place in the sequence, not by its text. A row
// repeating one shown before is new, e.g. an answer given twice or a second
// "Worked for 1s".
func keptRows(old, now []uint32) []bool {
	kept := make([]bool, len(now))
	if len(old) == 0 {
		return kept
	}
	// l[i][j] is the length of the longest common subsequence of old[i:]
	// and now[j:].
	w := len(now) + 1
	l := make([]int, (len(old)+1)*w)
	for i := len(old) - 1; i >= 0; i-- {
		for j := len(now) - 1; j >= 0; j-- {
			if old[i] == now[j] {
				l[i*w+j] = 1 + l[(i+1)*w+j+1]
			} else {
				l[i*w+j] = max(l[(i+1)*w+j], l[i*w+j+1])
			}
		}
	}
	for i, j := 0, 0; i < len(old) && j < len(now); {
		switch {
		case old[i] == now[j] && l[i*w+j] == 1+l[(i+1)*w+j+1]:
			kept[j] = true
			i, j = i+1, j+1
		case l[(i+1)*w+j] >= l[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return kept
}

func paneNumber(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "%"))
	return n
}

// placeAt is where typing would begin now. That is the terminal cursor's
// row and column on the normal screen. It is nil on the alternate screen,
// whose rows are redrawn rather than scrolled. It is also nil when the row
// is not in the view.
func (v normalView) placeAt(snap tmux.PaneInfo) *Place {
	if snap.AlternateOn {
		return nil
	}
	prefix, ok := v.prefixAt(snap)
	if !ok {
		return nil
	}
	anchor, _ := v.anchorText(snap.CursorY, anchorBytes)
	return &Place{AnchorLen: len(anchor), AnchorHash: hash64(anchor), PrefixLen: len(prefix), PrefixHash: hash64(prefix),
		Col: snap.CursorX, Width: snap.Width, Row: snap.HistorySize + snap.CursorY + 1}
}

// promptAt is the prompt before the terminal cursor now, on either screen.
// It is nil when the row is not in the view.
func (v normalView) promptAt(snap tmux.PaneInfo) *PromptMark {
	if snap.AlternateOn {
		v = normalView{rows: v.altRows}
	}
	prefix, ok := v.prefixAt(snap)
	if !ok {
		return nil
	}
	return &PromptMark{Len: len(prefix), Hash: hash64(prefix)}
}

// prefixAt is the text of the terminal cursor's row before the cursor,
// padded with blanks to it.
func (v normalView) prefixAt(snap tmux.PaneInfo) (string, bool) {
	s, ok := v.row(snap.CursorY)
	if !ok {
		return "", false
	}
	prefix, w := CutCells(s, snap.CursorX)
	if pad := snap.CursorX - w; pad > 0 {
		prefix += strings.Repeat(" ", pad)
	}
	return prefix, true
}

// isPlace reports whether relative row r is place p. The prompt before the
// point must be the same, and so must the text before the row.
func (v normalView) isPlace(p Place, r int) bool {
	s, ok := v.row(r)
	if !ok {
		return false
	}
	if pad := p.PrefixLen - len(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	if hash64(s[:p.PrefixLen]) != p.PrefixHash {
		return false
	}
	if p.AnchorLen == 0 {
		// Nothing was before the place, so nothing may be before the row.
		before, _ := v.anchorText(r, 1)
		return before == ""
	}
	text, ok := v.anchorText(r, p.AnchorLen)
	return ok && hash64(text) == p.AnchorHash
}

// landedChars is how many characters (blanks aside) of the typed text must
// follow the place for the text to have landed there.
const landedChars = 4

// landed reports whether row r, at the place of e, shows e's text there
// (see landedOn). That means the text was echoed there. A program that did
// not echo it, e.g. under stty -echo, leaves the row to later output.
func (v normalView) landed(e EchoEntry, r int) bool {
	typed := e.Text
	if typed == "" && len(e.Marks) > 0 {
		typed = e.Marks[0].Head
	}
	s, _ := v.row(r)
	if e.At.PrefixLen < len(s) {
		s = s[e.At.PrefixLen:]
	} else {
		s = ""
	}
	if next, ok := v.row(r + 1); ok {
		s += next // the text may wrap right after the prompt
	}
	return landedOn(firstLine(typed), s)
}

// landedOn reports whether shown is where typed was echoed. shown is what
// follows the place, the rest of its row and the next. typed is a line of
// typed text. shown must begin with the typed line's first landedChars
// characters, blanks aside. That holds as far as the line editor inserted
// them as they were typed. A control character lets it redraw the word it
// is typed in and what follows. Examples are a TAB that completes and C-a
// that moves. The redraw may show a completed command name, or a path with
// another case. So only the text before that word counts. The first word
// may already hold a control character. Then shown must hold the start of
// one of the line's runs of printable characters instead. The completed
// word keeps the typed part, or the text after it shows as typed.
func landedOn(typed, shown string) bool {
	got := SqueezeBlanks(shown)
	i := strings.IndexFunc(typed, unicode.IsControl)
	if i < 0 {
		return startsWith(got, typed)
	}
	if head := typed[:strings.LastIndexFunc(typed[:i], unicode.IsSpace)+1]; SqueezeBlanks(head) != "" {
		return startsWith(got, head)
	}
	runs := strings.FieldsFunc(typed, unicode.IsControl)
	for _, run := range runs {
		if want := firstChars(run); want != "" && strings.Contains(got, want) {
			return true
		}
	}
	return len(runs) == 0 && got != "" // nothing printable was typed: anything drawn
}

// startsWith reports whether squeezed text got begins with typed's first
// landedChars characters (blanks aside); false when typed has none.
func startsWith(got, typed string) bool {
	want := firstChars(typed)
	return want != "" && strings.HasPrefix(got, want)
}

// firstChars is the first landedChars characters of s, blanks aside.
func firstChars(s string) string {
	k := []rune(SqueezeBlanks(s))
	return string(k[:min(len(k), landedChars)])
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// offScreen is the start row of a line not on the normal screen, i.e. on
// the alternate screen. Relative rows of history are negative.
const offScreen = math.MinInt

// echoByPlace marks the lines that begin at the place of a ledger entry,
// where the typed text landed. The lines start at relative rows starts, and
// offScreen means not on the normal screen. The entry is active, or held by
// place. The text landed where the row goes on with its first characters,
// however the rest was redrawn. It also marks the lines after it that its
// text spans. These are its logical lines, and every line that starts in
// the rows its text covers from the place (echoRows). That is for programs
// that break a long line into rows themselves rather than let the terminal
// wrap it, like zsh's line editor and fish. When the row where the shell
// left the cursor is known (EchoEntry.End), it marks up to that row.
//
// A held entry may have a place found nowhere in the view. The history
// before it was trimmed or cleared, so where it was typed cannot be known.
// Such an entry discounts the normal screen's lines that show its text
// instead, and unplaced marks them. Discounting such a line is preferred to
// matching the echo. An active entry is discounted by text anyway
// (Ledger.IsEcho).
//
// lost reports whether a held entry could not be placed.
func (v normalView) echoByPlace(starts []int, lines []string, active, held []EchoEntry) (echo, unplaced []bool, lost bool) {
	out := make([]bool, len(starts))
	es := append(active[:len(active):len(active)], held...)
	found := make([]bool, len(es))
	for i, r := range starts {
		if r == offScreen {
			continue
		}
		for j, e := range es {
			if !v.isPlace(*e.At, r) {
				continue
			}
			found[j] = true
			if v.landed(e, r) {
				end := r + echoRows(e)
				if e.End > 0 {
					end = max(end, r+e.End-e.At.Row) // the rows before the shell's cursor
				}
				out[i] = true
				for k := i + 1; k < len(out); k++ {
					if k >= i+max(e.Lines, 1) && (starts[k] == offScreen || starts[k] >= end) || !e.goesOn(lines[k]) {
						break
					}
					out[k] = true
				}
			}
		}
	}
	for j, e := range held {
		if found[len(active)+j] || v.placed(*e.At) {
			continue
		}
		lost = true
		for i, r := range starts {
			if r != offScreen && !out[i] && e.echoesText(strings.TrimRight(lines[i], " \t")) {
				if unplaced == nil {
					unplaced = make([]bool, len(starts))
				}
				out[i], unplaced[i] = true, true
			}
		}
	}
	return out, unplaced, lost
}

// placed reports whether place p is found at some row of the view.
func (v normalView) placed(p Place) bool {
	for i := range v.rows {
		if v.isPlace(p, v.start+i) {
			return true
		}
	}
	return false
}

// goesOn reports whether a line after the one where e's typing began can be
// more of its echo. For text of several lines, it is a line showing the
// start of one of them, after a continuation prompt. A shell without
// bracketed paste runs each line as it comes. Its output, between them, is
// not echo. For one line broken into rows, it is a piece of that line.
// Fingerprinted text is checked on what its marks keep.
func (e EchoEntry) goesOn(line string) bool {
	got := SqueezeBlanks(line)
	if got == "" {
		return true // a blank row inside the echo
	}
	var starts []string
	if e.Text != "" {
		for _, l := range strings.Split(e.Text, "\n") {
			if strings.TrimSpace(l) != "" {
				starts = append(starts, l)
			}
		}
		if len(starts) == 1 {
			return strings.Contains(SqueezeBlanks(starts[0]), got)
		}
	} else {
		if len(e.Marks) <= 1 {
			return true // one long line, kept as a fingerprint: its rows cannot be checked
		}
		for _, m := range e.Marks {
			starts = append(starts, m.Head)
		}
	}
	for _, l := range starts {
		want := SqueezeBlanks(l)
		if want == "" {
			continue
		}
		if k := []rune(want); len(k) > landedChars {
			want = string(k[:landedChars])
		}
		if strings.Contains(got, want) {
			return true
		}
	}
	return false
}

// echoRows is how many rows the echo of e covers from its place. Each line
// of its text counts from the column where it begins. The first begins at
// the place's column, the others at 0, as a continuation prompt's width is
// not known. Each line is rounded up to whole rows of the width the pane
// had. It is 0 when unknown.
func echoRows(e EchoEntry) int {
	if e.At == nil || e.At.Width <= 0 || len(e.Widths) == 0 {
		return 0
	}
	rows, col := 0, e.At.Col
	for _, w := range e.Widths {
		rows += max(1, (col+w+e.At.Width-1)/e.At.Width)
		col = 0
	}
	return rows
}

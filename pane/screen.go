package pane

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/panectl/panectl/tmux"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Screen is the visible screen of a pane, as displayed. It holds one string
// per row, not joined into logical lines. Trailing whitespace is trimmed
// and trailing blank rows are removed. The pane's description comes from
// the same snapshot.
type Screen struct {
	Rows     []string      // plain rows: escapes stripped
	ANSIRows []string      // the same rows with colour escapes (only when asked for)
	Info     tmux.PaneInfo // cursor, size, alternate_on, title, command, dead
}

// Same reports whether two looks show the same content. The rows, size and
// screen (normal or alternate) must be the same. The cursor position is not
// compared. A cursor moved about by a redraw of identical content, or a
// blink, is not a change.
func (s Screen) Same(o Screen) bool {
	if s.Info.Width != o.Info.Width || s.Info.Height != o.Info.Height || s.Info.AlternateOn != o.Info.AlternateOn {
		return false
	}
	if len(s.Rows) != len(o.Rows) {
		return false
	}
	for i := range s.Rows {
		if s.Rows[i] != o.Rows[i] {
			return false
		}
	}
	return true
}

// Last returns the last n rows (all when n <= 0 or n is larger).
func (s Screen) Last(n int) []string {
	return lastN(s.Rows, n)
}

func lastN(rows []string, n int) []string {
	if n <= 0 || n >= len(rows) {
		return rows
	}
	return rows[len(rows)-n:]
}

// CaptureScreen takes one look at the visible screen. It takes the
// description and the rows in one tmux command list, so they show the same
// instant. With withANSI the rows are also captured with their colour
// escapes.
func CaptureScreen(ctx context.Context, c *tmux.Client, id string, withANSI bool) (Screen, error) {
	return CaptureScreenVia(ctx, c, id, withANSI)
}

// CaptureScreenVia is CaptureScreen through any snapshotter. That is a tmux
// process (*tmux.Client), or an attached control client (*tmux.Control),
// which starts no process.
func CaptureScreenVia(ctx context.Context, via tmux.Snapshotter, id string, withANSI bool) (Screen, error) {
	specs := []tmux.CaptureSpec{{Start: 0, ToBottom: true}}
	if withANSI {
		specs = append(specs, tmux.CaptureSpec{Start: 0, ToBottom: true, Escapes: true})
	}
	info, texts, _, err := via.SnapshotOptions(ctx, id, "", specs...)
	if err != nil {
		return Screen{}, err
	}
	s := Screen{Info: info}
	for _, r := range splitRows(texts[0]) {
		s.Rows = append(s.Rows, trimRow(ansi.Strip(r)))
	}
	n := lastNonBlank(s.Rows) + 1
	s.Rows = s.Rows[:n]
	if withANSI {
		rows := splitRows(texts[1])
		for i := 0; i < n; i++ {
			r := ""
			if i < len(rows) {
				r = trimRow(rows[i])
			}
			s.ANSIRows = append(s.ANSIRows, r)
		}
	}
	if s.Rows == nil {
		s.Rows = []string{}
	}
	return s, nil
}

// Settle bounds StableScreen. Captures Gap apart must agree. After Max the
// last capture is returned as it is.
type Settle struct {
	Gap time.Duration // pause between two captures (default 50ms)
	Max time.Duration // give up waiting for agreement after this (default 1s)
}

// DefaultSettle is what `screen` and `recognize` use.
var DefaultSettle = Settle{Gap: 50 * time.Millisecond, Max: time.Second}

// StableScreen returns the screen once output has paused briefly. That is
// two captures Gap apart that show the same content (Screen.Same). So a
// frame in the middle of a redraw is not returned. A program that redraws
// without pause still gets an answer after about settle.Max. stable is then
// false.
func StableScreen(ctx context.Context, c *tmux.Client, id string, withANSI bool, settle Settle) (s Screen, stable bool, err error) {
	if settle.Gap <= 0 {
		settle.Gap = DefaultSettle.Gap
	}
	if settle.Max <= 0 {
		settle.Max = DefaultSettle.Max
	}
	deadline := time.Now().Add(settle.Max)
	prev, err := CaptureScreen(ctx, c, id, withANSI)
	if err != nil {
		return Screen{}, false, err
	}
	for {
		t := time.NewTimer(settle.Gap)
		select {
		case <-ctx.Done():
			t.Stop()
			return prev, false, ctx.Err()
		case <-t.C:
		}
		next, err := CaptureScreen(ctx, c, id, withANSI)
		if err != nil {
			return Screen{}, false, err
		}
		if next.Same(prev) {
			return next, true, nil
		}
		if !time.Now().Before(deadline) {
			return next, false, nil
		}
		prev = next
	}
}

// ScreenOption is the pane user option holding the row fingerprints of the
// pane's last `screen`. It serves --diff.
const ScreenOption = "@panectl_screen"

// maxStateRows bounds the rows fingerprinted in ScreenOption.
const maxStateRows = 1000

const screenMagic = "ps1"

// ScreenState is what `screen --diff` remembers of the previous look. It
// keeps the pane's process, because a respawn starts over. It keeps its
// size, and a 64-bit FNV-1a hash of each plain row.
type ScreenState struct {
	PanePID       int
	Width, Height int
	Alternate     bool
	Rows          []uint64
}

// StateOf fingerprints a screen.
func StateOf(s Screen) ScreenState {
	st := ScreenState{PanePID: s.Info.PID, Width: s.Info.Width, Height: s.Info.Height, Alternate: s.Info.AlternateOn}
	for i, r := range s.Rows {
		if i >= maxStateRows {
			break
		}
		st.Rows = append(st.Rows, hash64(r))
	}
	return st
}

// Encode renders the state as a plain token, as tmux user options require.
// The token is base64url with a CRC-32 trailer.
func (st ScreenState) Encode() string {
	b := make([]byte, 0, 16+8*len(st.Rows))
	u := func(v uint64) { b = binary.AppendUvarint(b, v) }
	flags := uint64(0)
	if st.Alternate {
		flags = 1
	}
	u(flags)
	u(uint64(st.PanePID))
	u(uint64(st.Width))
	u(uint64(st.Height))
	u(uint64(len(st.Rows)))
	for _, h := range st.Rows {
		b = binary.BigEndian.AppendUint64(b, h)
	}
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	return screenMagic + base64.RawURLEncoding.EncodeToString(b)
}

// ParseScreenState decodes Encode's token.
func ParseScreenState(s string) (ScreenState, error) {
	bad := fmt.Errorf("pane option %s holds %q, which panectl did not write", ScreenOption, abbreviate(s))
	if !strings.HasPrefix(s, screenMagic) {
		return ScreenState{}, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(s[len(screenMagic):])
	if err != nil || len(b) < 4 {
		return ScreenState{}, bad
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return ScreenState{}, bad
	}
	var fail bool
	u := func(max uint64) int {
		v, n := binary.Uvarint(body)
		if n <= 0 || v > max {
			fail = true
			return 0
		}
		body = body[n:]
		return int(v)
	}
	var st ScreenState
	st.Alternate = u(1) == 1
	st.PanePID = u(1 << 40)
	st.Width = u(1 << 20)
	st.Height = u(1 << 20)
	n := u(maxStateRows)
	if fail || len(body) != 8*n {
		return ScreenState{}, bad
	}
	for i := 0; i < n; i++ {
		st.Rows = append(st.Rows, binary.BigEndian.Uint64(body[8*i:]))
	}
	return st, nil
}

// LoadScreenState reads the pane's previous screen state. ok is false when
// there is none, or it is not readable. The next look is then a full one.
func LoadScreenState(ctx context.Context, c *tmux.Client, id string) (st ScreenState, ok bool, err error) {
	v, err := c.PaneOption(ctx, id, ScreenOption)
	if err != nil || v == "" {
		return ScreenState{}, false, err
	}
	st, perr := ParseScreenState(v)
	if perr != nil {
		return ScreenState{}, false, nil
	}
	return st, true, nil
}

// SaveScreenState stores the screen's fingerprints in the pane's options.
func SaveScreenState(ctx context.Context, c *tmux.Client, id string, s Screen) error {
	return c.SetPaneOptions(ctx, id, map[string]string{ScreenOption: StateOf(s).Encode()}, nil)
}

// ScreenDiff is how a screen differs from the previous look.
type ScreenDiff struct {
	// Full says there was no comparable previous look, or most rows
	// changed. There is no previous look on the first look, or for a
	// respawned or resized pane. The whole frame should be shown.
	Full bool
	// Scrolled is how many rows the previous frame moved up before Changed
	// applies, when the screen scrolled. Row i of the new frame is compared
	// with row i+Scrolled of the previous one. It is 0 when nothing
	// scrolled.
	Scrolled int
	// Changed are the row numbers whose text differs from the previous
	// look, after the scroll. They are ascending, and row 0 is the top. A
	// row that became blank is included.
	Changed []int
	// Why says why the frame is full ("" otherwise).
	Why string
}

// Unchanged reports that nothing changed.
func (d ScreenDiff) Unchanged() bool { return !d.Full && d.Scrolled == 0 && len(d.Changed) == 0 }

// DiffScreen compares a screen with the previous state (ok=false: none). A
// line-mode diff of the two row lists finds whether the screen scrolled.
// The diff uses go-diff, with one rune per distinct row. Most rows the diff
// keeps equal may have moved up by the same k rows. Then the new frame is
// compared with the previous one shifted by k (Scrolled). So a shell
// printing three lines at the bottom of a full screen changes three rows,
// not all of them. Otherwise rows are compared in place. More than half the
// rows changed makes the frame full.
func DiffScreen(prev ScreenState, ok bool, s Screen) ScreenDiff {
	cur := StateOf(s)
	switch {
	case !ok:
		return ScreenDiff{Full: true, Why: "first look at this pane"}
	case prev.PanePID != cur.PanePID:
		return ScreenDiff{Full: true, Why: "the pane was respawned since the previous look"}
	case prev.Width != cur.Width || prev.Height != cur.Height:
		return ScreenDiff{Full: true, Why: "the pane was resized since the previous look"}
	}
	k := 0
	if prev.Alternate == cur.Alternate {
		k = scrollOf(prev.Rows, cur.Rows, cur.Height)
	}
	changed := changedRows(prev.Rows, cur.Rows, k)
	n := max(len(prev.Rows)-k, len(cur.Rows))
	if len(changed)*2 > n {
		return ScreenDiff{Full: true, Changed: changed, Scrolled: k, Why: fmt.Sprintf("%d of %d rows changed", len(changed), n)}
	}
	return ScreenDiff{Changed: changed, Scrolled: k}
}

// blankRow is the fingerprint of an empty row.
var blankRow = hash64("")

// rowAt is row i of a fingerprint list, blank beyond its end.
func rowAt(x []uint64, i int) uint64 {
	if i < 0 || i >= len(x) {
		return blankRow
	}
	return x[i]
}

// changedRows returns the rows of b that differ from a shifted up by k rows.
func changedRows(a, b []uint64, k int) []int {
	n := max(len(a)-k, len(b))
	var out []int
	for i := 0; i < n; i++ {
		if rowAt(a, i+k) != rowAt(b, i) {
			out = append(out, i)
		}
	}
	return out
}

// scrollOf finds how far the screen scrolled between two looks with a
// line-mode diff. It returns the offset (old row - new row) shared by most
// rows the diff keeps equal. The offset must be positive and keep more rows
// equal than comparing in place would. Blank rows do not count as evidence.
func scrollOf(a, b []uint64, height int) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	// one rune per distinct row (never a surrogate: at most 2*maxStateRows)
	ids := map[uint64]rune{}
	runes := func(x []uint64) []rune {
		out := make([]rune, len(x))
		for i, h := range x {
			r, ok := ids[h]
			if !ok {
				r = rune(len(ids) + 1)
				ids[h] = r
			}
			out[i] = r
		}
		return out
	}
	ra, rb := runes(a), runes(b)
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	votes := map[int]int{}
	ai, bi := 0, 0
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		k := len([]rune(d.Text))
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for j := 0; j < k; j++ {
				if a[ai+j] != blankRow {
					votes[ai-bi]++
				}
			}
			ai += k
			bi += k
		case diffmatchpatch.DiffDelete:
			ai += k
		case diffmatchpatch.DiffInsert:
			bi += k
		}
	}
	best, bestVotes := 0, 0
	for off, v := range votes {
		if off > 0 && (v > bestVotes || (v == bestVotes && off < best)) {
			best, bestVotes = off, v
		}
	}
	if best == 0 || (height > 0 && best >= height) {
		return 0
	}
	inPlace := 0
	for i := range b {
		if b[i] != blankRow && rowAt(a, i) == b[i] {
			inPlace++
		}
	}
	if bestVotes <= inPlace {
		return 0
	}
	return best
}

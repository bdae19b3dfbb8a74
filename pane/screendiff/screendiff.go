// Package screendiff is what `screen --diff` remembers of a pane's previous
// look (row fingerprints in a pane option) and how a screen differs from it.
package screendiff

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"strings"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Option is the pane user option holding the row fingerprints of the
// pane's last `screen`. It serves --diff.
const Option = "@panectl_screen"

// maxStateRows bounds the rows fingerprinted in Option.
const maxStateRows = 1000

const screenMagic = "ps1"

// State is what `screen --diff` remembers of the previous look. It
// keeps the pane's process, because a respawn starts over. It keeps its
// size, and a 64-bit FNV-1a hash of each plain row.
type State struct {
	PanePID       int
	Width, Height int
	Alternate     bool
	Rows          []uint64
}

// StateOf fingerprints a screen.
func StateOf(s pane.Screen) State {
	st := State{PanePID: s.Info.PID, Width: s.Info.Width, Height: s.Info.Height, Alternate: s.Info.AlternateOn}
	for i, r := range s.Rows {
		if i >= maxStateRows {
			break
		}
		st.Rows = append(st.Rows, rowHash(r))
	}
	return st
}

// Encode renders the state as a plain token, as tmux user options require.
// The token is base64url with a CRC-32 trailer.
func (st State) Encode() string {
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

// Parse decodes Encode's token.
func Parse(s string) (State, error) {
	bad := fmt.Errorf("pane option %s holds %q, which panectl did not write", Option, cut(s))
	if !strings.HasPrefix(s, screenMagic) {
		return State{}, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(s[len(screenMagic):])
	if err != nil || len(b) < 4 {
		return State{}, bad
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return State{}, bad
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
	var st State
	st.Alternate = u(1) == 1
	st.PanePID = u(1 << 40)
	st.Width = u(1 << 20)
	st.Height = u(1 << 20)
	n := u(maxStateRows)
	if fail || len(body) != 8*n {
		return State{}, bad
	}
	for i := 0; i < n; i++ {
		st.Rows = append(st.Rows, binary.BigEndian.Uint64(body[8*i:]))
	}
	return st, nil
}

// Load reads the pane's previous screen state. ok is false when
// there is none, or it is not readable. The next look is then a full one.
func Load(ctx context.Context, c *tmux.Client, id string) (st State, ok bool, err error) {
	v, err := c.PaneOption(ctx, id, Option)
	if err != nil || v == "" {
		return State{}, false, err
	}
	st, perr := Parse(v)
	if perr != nil {
		return State{}, false, nil
	}
	return st, true, nil
}

// Save stores the screen's fingerprints in the pane's options.
func Save(ctx context.Context, c *tmux.Client, id string, s pane.Screen) error {
	return c.SetPaneOptions(ctx, id, map[string]string{Option: StateOf(s).Encode()}, nil)
}

// Diff is how a screen differs from the previous look.
type Diff struct {
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
func (d Diff) Unchanged() bool { return !d.Full && d.Scrolled == 0 && len(d.Changed) == 0 }

// Compare compares a screen with the previous state (ok=false: none). A
// line-mode diff of the two row lists finds whether the screen scrolled.
// The diff uses go-diff, with one rune per distinct row. Most rows the diff
// keeps equal may have moved up by the same k rows. Then the new frame is
// compared with the previous one shifted by k (Scrolled). So a shell
// printing three lines at the bottom of a full screen changes three rows,
// not all of them. Otherwise rows are compared in place. More than half the
// rows changed makes the frame full.
func Compare(prev State, ok bool, s pane.Screen) Diff {
	cur := StateOf(s)
	switch {
	case !ok:
		return Diff{Full: true, Why: "first look at this pane"}
	case prev.PanePID != cur.PanePID:
		return Diff{Full: true, Why: "the pane was respawned since the previous look"}
	case prev.Width != cur.Width || prev.Height != cur.Height:
		return Diff{Full: true, Why: "the pane was resized since the previous look"}
	}
	k := 0
	if prev.Alternate == cur.Alternate {
		k = scrollOf(prev.Rows, cur.Rows, cur.Height)
	}
	changed := changedRows(prev.Rows, cur.Rows, k)
	n := max(len(prev.Rows)-k, len(cur.Rows))
	if len(changed)*2 > n {
		return Diff{Full: true, Changed: changed, Scrolled: k, Why: fmt.Sprintf("%d of %d rows changed", len(changed), n)}
	}
	return Diff{Changed: changed, Scrolled: k}
}

// blankRow is the fingerprint of an empty row.
var blankRow = rowHash("")

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

// rowHash is FNV-1a (64) of a row.
func rowHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// cut quotes at most 40 bytes of s.
func cut(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

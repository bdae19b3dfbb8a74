package pane

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
)

// Special cursor values accepted wherever a cursor is.
const (
	CursorScreen  = "screen"  // the start of the visible screen
	CursorHistory = "history" // the oldest retained history row
)

// ErrBadCursor is for a cursor that is garbage or belongs to another pane.
// It is also for a cursor of a pane that was respawned since. Exit code 2.
var ErrBadCursor = errors.New("bad cursor")

// A cursor fingerprints the last anchorBytes bytes of text before its row.
// They are found within anchorScan rows. On the fast path, capture reads
// anchorRows rows before the cursor's row.
const (
	anchorBytes = 48
	anchorScan  = 64
	anchorRows  = anchorScan
)

// maxAltRows bounds the alternate-screen rows a cursor remembers.
const maxAltRows = 200

// Cursor marks a point in a pane's output. Everything needed to find the
// point again is in its record (Encode). A long record is saved on the
// pane and printed as a short token (Save). So separate processes can pass
// it around without a daemon or a file.
//
// The point is row Row and, within it, the first PrefixLen bytes already
// seen. Row is absolute. It counts history rows from the oldest one
// retained when the cursor was made, then the visible rows. The rows before
// it are fingerprinted. So the point can be found again after tmux trims
// the oldest history rows, or after a resize reflows them. The fingerprint
// also tells that history was cleared. On the alternate screen the cursor
// also remembers the rows then shown.
type Cursor struct {
	Special    string   // "", CursorScreen or CursorHistory
	PaneID     int      // N of %N
	PanePID    int      // pane_pid: a respawned pane gets a new one
	Row        int      // absolute row of the point
	History    int      // history_size when the cursor was made
	AnchorLen  int      // bytes of text fingerprinted before Row (0..anchorBytes)
	AnchorHash uint64   // FNV-1a of them: rows before Row, trailing blanks trimmed, concatenated
	PrefixLen  int      // bytes of row Row already seen
	PrefixHash uint64   // FNV-1a of those bytes
	Alternate  bool     // made while the alternate screen was on
	AltRows    []uint32 // FNV-1a (32) of the non-blank alternate-screen rows then shown
	// AltKeys says AltRows hash the rows' text without decoration
	// (rowKey). Cursors printed before it was added hash the rows whole.
	AltKeys bool
	// A cursor made on a pane with a journal also marks the point in the
	// journal. Such a pane is a background task, or one made with new
	// --journal. capture and status read the journal from there. Other
	// commands use the rows.
	Journal     bool
	JournalOff  int64 // journal offset of the point, bytes
	JournalLine int64 // newlines in the journal before it
	// A cursor made on the normal screen also fingerprints each visible row
	// before Row, with FNV-1a 32. It takes at most anchorScan of them. It
	// also fingerprints the text before the first of them (TopLen/TopHash,
	// as AnchorLen/AnchorHash). It keeps the pane's width too. A program
	// may redraw a bottom region and insert lines above it, like an inline
	// TUI's composer. That changes rows before Row. Reading from the first
	// of them that differs delivers what it inserted.
	HasRows bool
	Width   int      // pane_width when the cursor was made
	Rows    []uint32 // the visible rows before Row, oldest first
	TopLen  int      // bytes of text fingerprinted before Rows[0] (0..anchorBytes)
	TopHash uint64
	// A cursor also fingerprints the text before its point with blanks
	// left out (flatText). A reflow only moves where rows end, and the
	// blanks there. So after a change of width this text is found again.
	// Cursors printed before this was added have no such fingerprint.
	HasFlat  bool
	FlatLen  int    // bytes of it fingerprinted (0..anchorBytes)
	FlatHash uint64 // flatHash of them
	FlatAll  bool   // they are all the text the pane held before the point
	// FlatBreaks counts the lines from the one the text ends on to the
	// point's. It is 0 when the point follows the text on its line. A
	// point on a blank row after blank rows has more. FlatPad counts the
	// blanks before the point on its line, after the text if there.
	FlatBreaks int
	FlatPad    int

	// A cursor parsed from a "pc2" token knows only its pane until Load
	// reads its saved record: saved is the token, digest the record's.
	saved, digest string
}

const cursorMagic = "pc1"

// Encode renders the cursor as an opaque ASCII token. The token is "pc1"
// and base64url of a varint record with a CRC-32 trailer.
func (c Cursor) Encode() string {
	if c.Special != "" {
		return c.Special
	}
	if c.saved != "" {
		return c.saved
	}
	b := make([]byte, 0, 64)
	u := func(v uint64) { b = binary.AppendUvarint(b, v) }
	flags := uint64(0)
	if c.Alternate {
		flags |= 1
	}
	if c.Journal {
		flags |= 2
	}
	if c.HasRows {
		flags |= 4
	}
	if c.HasFlat {
		flags |= 8
	}
	if c.FlatAll {
		flags |= 16
	}
	if c.AltKeys {
		flags |= 32
	}
	u(flags)
	u(uint64(c.PaneID))
	u(uint64(c.PanePID))
	u(uint64(c.Row))
	u(uint64(c.History))
	u(uint64(c.AnchorLen))
	b = binary.BigEndian.AppendUint64(b, c.AnchorHash)
	u(uint64(c.PrefixLen))
	b = binary.BigEndian.AppendUint64(b, c.PrefixHash)
	u(uint64(len(c.AltRows)))
	for _, h := range c.AltRows {
		b = binary.BigEndian.AppendUint32(b, h)
	}
	if c.Journal {
		u(uint64(c.JournalOff))
		u(uint64(c.JournalLine))
	}
	if c.HasRows {
		u(uint64(c.Width))
		u(uint64(c.TopLen))
		b = binary.BigEndian.AppendUint64(b, c.TopHash)
		u(uint64(len(c.Rows)))
		for _, h := range c.Rows {
			b = binary.BigEndian.AppendUint32(b, h)
		}
	}
	if c.HasFlat {
		u(uint64(c.FlatLen))
		b = binary.BigEndian.AppendUint64(b, c.FlatHash)
		u(uint64(c.FlatBreaks))
		u(uint64(c.FlatPad))
	}
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	return cursorMagic + base64.RawURLEncoding.EncodeToString(b)
}

// ParseCursor decodes a token made by Encode, or a special value. Errors
// wrap ErrBadCursor and say what was wrong.
func ParseCursor(s string) (Cursor, error) {
	switch s {
	case CursorScreen, CursorHistory:
		return Cursor{Special: s}, nil
	}
	bad := func(why string) (Cursor, error) {
		return Cursor{}, fmt.Errorf("%w: %q is not a panectl cursor (%s); use a cursor printed by panectl, or %q / %q", ErrBadCursor, abbreviate(s), why, CursorScreen, CursorHistory)
	}
	if strings.HasPrefix(s, savedMagic) {
		if c, ok := parseSaved(s); ok {
			return c, nil
		}
		return bad("it is truncated or not base64url")
	}
	if !strings.HasPrefix(s, cursorMagic) {
		return bad("it does not start with " + cursorMagic + " or " + savedMagic)
	}
	b, err := base64.RawURLEncoding.DecodeString(s[len(cursorMagic):])
	if err != nil || len(b) < 4 {
		return bad("it is truncated or not base64url")
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return bad("its checksum does not match")
	}
	r := body
	var c Cursor
	var fail bool
	u := func(max uint64) int {
		v, n := binary.Uvarint(r)
		if n <= 0 || v > max {
			fail = true
			return 0
		}
		r = r[n:]
		return int(v)
	}
	u64 := func() uint64 {
		if len(r) < 8 {
			fail = true
			return 0
		}
		v := binary.BigEndian.Uint64(r)
		r = r[8:]
		return v
	}
	// u32s reads a count, at most max, and that many row hashes.
	u32s := func(max uint64) []uint32 {
		n := u(max)
		if fail || len(r) < 4*n {
			fail = true
			return nil
		}
		var hs []uint32
		for i := 0; i < n; i++ {
			hs = append(hs, binary.BigEndian.Uint32(r[4*i:]))
		}
		r = r[4*n:]
		return hs
	}
	const big = 1 << 40
	flags := u(63)
	c.Alternate = flags&1 != 0
	c.Journal = flags&2 != 0
	c.HasRows = flags&4 != 0
	c.HasFlat = flags&8 != 0
	c.FlatAll = flags&16 != 0
	c.AltKeys = flags&32 != 0
	c.PaneID = u(big)
	c.PanePID = u(big)
	c.Row = u(big)
	c.History = u(big)
	c.AnchorLen = u(anchorBytes)
	c.AnchorHash = u64()
	c.PrefixLen = u(big)
	c.PrefixHash = u64()
	c.AltRows = u32s(maxAltRows)
	if c.Journal {
		c.JournalOff = int64(u(big))
		c.JournalLine = int64(u(big))
	}
	if c.HasRows {
		c.Width = u(big)
		c.TopLen = u(anchorBytes)
		c.TopHash = u64()
		c.Rows = u32s(anchorScan)
	}
	if c.HasFlat {
		c.FlatLen = u(anchorBytes)
		c.FlatHash = u64()
		c.FlatBreaks = u(big)
		c.FlatPad = u(big)
	}
	if fail || len(r) != 0 {
		return bad("its fields are malformed")
	}
	return c, nil
}

// Check reports whether the cursor belongs to the pane with this id and pid.
func (c Cursor) Check(paneID string, pid int) error {
	if c.Special != "" {
		return nil
	}
	if "%"+strconv.Itoa(c.PaneID) != paneID {
		return fmt.Errorf("%w: the cursor belongs to pane %%%d, not %s", ErrBadCursor, c.PaneID, paneID)
	}
	// pid 0 is a dead pane on tmux 3.8, which reports no pane_pid. Its
	// process died, it was not replaced.
	if c.PanePID != pid && pid != 0 {
		return &RespawnedError{PaneID: paneID, Was: c.PanePID, Now: pid}
	}
	return nil
}

// RespawnedError says the cursor's pane was respawned (respawn-pane -k)
// since the cursor was made. Its process (pane_pid) was Was, and it is Now.
// It unwraps to ErrBadCursor (exit 2). A wait that made or checked the
// cursor itself reads it as the end of the process it waited on.
type RespawnedError struct {
	PaneID   string
	Was, Now int
}

// Error names the pane and both processes.
func (e *RespawnedError) Error() string {
	return fmt.Sprintf("%v: pane %s was respawned since the cursor was made (process %d, now %d); take a new cursor", ErrBadCursor, e.PaneID, e.Was, e.Now)
}

// Unwrap returns ErrBadCursor.
func (e *RespawnedError) Unwrap() error { return ErrBadCursor }

func abbreviate(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// hash64 is FNV-1a (64) of s, computed in place. Reads hash every row of
// the history they search.
func hash64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// hash32 is FNV-1a (32) of s.
func hash32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

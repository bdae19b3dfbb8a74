package pane

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// The echo ledger records what panectl typed into a pane. That way a wait
// does not mistake the terminal's echo of typed input for the program's
// output. It lives in the pane's tmux user options, one option per entry
// (@panectl_echo_<nonce>). So every panectl process sees it, and concurrent
// writers never overwrite each other's entries.
//
// An entry discounts the echo in two ways. By text, it discounts a logical
// line that shows a typed line in a form the program echoes it in (see
// IsEcho). By place, it discounts the
// logical lines that start at the row where typing began (see Place). That
// row is found again by the text before it and by the prompt before the
// terminal cursor. So the echo of a command line is still discounted when
// the program redrew it differently. A tab may have completed it, or an
// autosuggestion or syntax highlighting changed it.
//
// By text, an entry counts while it is pending and for EchoWindow after it
// was submitted. Output identical to typed text is ambiguous, and only for
// that long. By place, a submitted entry that knows its place and row
// (Place.Row) counts as long as it is in the ledger. The time since does
// not matter. The rows where typing landed are echo however late a wait
// reads them. Such an entry's place may no longer be found, because the
// history before it was trimmed or cleared. It may then lie after the point
// a read starts at. Then a line that shows its text is discounted rather
// than matched. ReadResult.Unplaced says which.
//
// The ledger is bounded whatever was typed. An entry keeps the text itself
// only while it is short, at most maxLiteral bytes encoded. Longer text is
// kept as fingerprints of at most maxMarks of its lines. A pane holds at
// most maxEntries active entries, and the oldest go first. Five 1 MiB sends
// leave a few KiB of options, and a wait reads no more than that.
const (
	ledgerPrefix = "@panectl_echo_"
	// EchoWindow is how long after submission typed text is still
	// discounted by its text. By place it is discounted for as long as the
	// entry is kept.
	EchoWindow = 10 * time.Second
	// pendingWindow bounds how long unsubmitted text stays in the ledger.
	pendingWindow = 10 * time.Minute
	// maxLiteral is the most bytes of JSON-encoded text an entry keeps
	// as text; longer text is fingerprinted line by line.
	maxLiteral = 1 << 10
	// maxMarks bounds the line fingerprints of one entry. They are the
	// first and the last maxMarks/2 non-blank lines.
	maxMarks = 16
	// markHead is how many bytes of a fingerprinted line are kept as text.
	// They find where its echo starts in a logical line.
	markHead = 24
	// maxEntries bounds the active entries of a pane.
	maxEntries = 16
)

// EchoEntry is one piece of typed text.
type EchoEntry struct {
	Text      string     `json:"t,omitempty"`   // the text as typed (short text)
	Marks     []LineMark `json:"m,omitempty"`   // fingerprints of long text's lines, instead of Text
	Typed     int64      `json:"at"`            // unix ms when typed
	Submitted int64      `json:"sub,omitempty"` // unix ms when Enter followed; 0 while pending
	At        *Place     `json:"p,omitempty"`   // where typing began (nil: unknown, e.g. the alternate screen)
	// Prompt is the text before the terminal cursor where typing began,
	// when At is unknown (the alternate screen). When the cursor is back
	// right after it, the text left the input line (see pending).
	Prompt *PromptMark `json:"pr,omitempty"`
	Lines  int         `json:"n,omitempty"` // logical lines the text spans from At (0: 1)
	// Widths are the terminal cells of the text's lines. They hold at most
	// maxWidths lines, and are nil when there are more. With At's column
	// and width they give the rows the echo covers, however the program
	// broke them.
	Widths []int `json:"w,omitempty"`
	// PlaceOnly says the entry discounts by place only, never by text. It
	// is the last piece of a line, recorded on its own. As text it would
	// match any output that ends like it.
	PlaceOnly bool `json:"po,omitempty"`
	// End is 1 + the terminal cursor's absolute row when a shell had taken
	// the line. It is 0 when unknown. The entry's echo is the rows before
	// End. Fish redraws a line taller than the pane in pieces. They end
	// well below the rows the text needs (see MarkEcho).
	End int `json:"e,omitempty"`
	// Markers are what the program prints before a submitted message in
	// its transcript (its recognizer's echo_prefixes, e.g. Codex's "› ").
	Markers []string `json:"k,omitempty"`
	// Redrawn is the prompt before the echo once the shell took the line,
	// when it differs from At's: a transient prompt redrawn on Enter (see
	// MarkEcho).
	Redrawn *PromptMark `json:"rd,omitempty"`
	// Ahead says the text was typed while the terminal was in canonical
	// mode, as before a shell reaches its line editor. The kernel echoes
	// it where it lands; the line editor then draws it again after its
	// prompt, which was not there when it was typed.
	Ahead bool `json:"ah,omitempty"`
}

// maxWidths bounds EchoEntry.Widths.
const maxWidths = 64

// maxMarkers and maxMarkerLen bound EchoEntry.Markers.
const (
	maxMarkers   = 8
	maxMarkerLen = 32
)

// LineMark fingerprints one (trimmed) line of long typed text.
type LineMark struct {
	Len  int    `json:"n"` // bytes
	Hash uint64 `json:"h"` // FNV-1a 64 of the line
	Head string `json:"s"` // its first bytes (at most markHead, whole runes)
}

// Place is where typing began on the normal screen. It holds the text of
// the rows before the terminal cursor's row. That is the last AnchorLen
// bytes, with rows trimmed and concatenated as for a Cursor. It also holds
// the row's text before the cursor, the prompt. That is PrefixLen bytes,
// padded with blanks to the cursor. Both are FNV-1a 64 fingerprints. So the
// place is found again after history is trimmed or the text after the
// prompt is redrawn.
type Place struct {
	AnchorLen  int    `json:"al"`
	AnchorHash uint64 `json:"ah"`
	PrefixLen  int    `json:"pl"`
	PrefixHash uint64 `json:"ph"`
	Col        int    `json:"c,omitempty"` // the terminal cursor's column (cells of the prefix)
	Width      int    `json:"w,omitempty"` // the pane's width then (0: unknown)
	// Row is 1 + the terminal cursor's absolute row then (history_size +
	// cursor_y, as Cursor.Row). It is 0 when unknown, as in an entry of an
	// older panectl. Trimming history only lowers a row's absolute number.
	// So a place whose Row-1 is before a read's first row is before that
	// read.
	Row int `json:"r,omitempty"`
}

// PromptMark fingerprints the text of the terminal cursor's row before the
// cursor, padded with blanks to it. It works on either screen. It is
// Place's prefix alone.
type PromptMark struct {
	Len  int    `json:"l"`
	Hash uint64 `json:"h"`
}

// prompt is the prompt of place p (nil for nil).
func (p *Place) prompt() *PromptMark {
	if p == nil {
		return nil
	}
	return &PromptMark{Len: p.PrefixLen, Hash: p.PrefixHash}
}

// Ledger is a pane's echo ledger as read at one moment.
type Ledger struct {
	entries map[string]EchoEntry
	now     time.Time
	at      *Place      // where the terminal cursor was when it was read (Read with Ledger; nil on the alternate screen)
	prompt  *PromptMark // the text before the terminal cursor then, on either screen
	markers []string    // the program's transcript markers, for text typed now (WithMarkers)
	secret  bool        // text typed now is kept by place only (WithSecret)
	ahead   bool        // text typed now goes in ahead of a line editor (WithAhead)
}

// WithAhead is l for typing while the terminal is in canonical mode. A
// shell's line editor may draw the text again after a prompt it has not
// drawn yet: entries Type adds take any prompt's end as a form of echo.
func (l Ledger) WithAhead() Ledger {
	l.ahead = true
	return l
}

// WithSecret is l for typing while the terminal does not echo, as at a
// password prompt (read -s, getpass, sudo). Type then records nothing of
// the text, not even a fingerprint: tmux options are readable by anyone who
// can reach the server, and there is no echo to discount.
func (l Ledger) WithSecret() Ledger {
	l.secret = true
	return l
}

// WithMarkers is l for typing to a program whose transcript shows a
// submitted message after one of markers. They come from its recognizer
// (recognize.Manifest.EchoPrefixes). Entries Type adds keep them.
func (l Ledger) WithMarkers(markers []string) Ledger {
	if len(markers) > maxMarkers {
		markers = markers[:maxMarkers]
	}
	l.markers = nil
	for _, m := range markers {
		if m != "" && len(m) <= maxMarkerLen {
			l.markers = append(l.markers, m)
		}
	}
	return l
}

// LoadLedger reads the pane's ledger.
func LoadLedger(ctx context.Context, c *tmux.Client, id string) (Ledger, error) {
	opts, err := c.PaneOptions(ctx, id, ledgerPrefix)
	if err != nil {
		return Ledger{}, err
	}
	return ledgerFrom(opts), nil
}

// LoadLedgerVia is LoadLedger through a Snapshotter. Through a control
// client, it starts no tmux process.
func LoadLedgerVia(ctx context.Context, s tmux.Snapshotter, id string) (Ledger, error) {
	_, _, opts, err := s.SnapshotOptions(ctx, id, ledgerPrefix)
	if err != nil {
		return Ledger{}, err
	}
	return ledgerFrom(opts), nil
}

// ledgerFrom decodes the ledger from the pane's @panectl_echo_* options.
func ledgerFrom(opts map[string]string) Ledger {
	l := Ledger{entries: map[string]EchoEntry{}, now: time.Now()}
	for k, v := range opts {
		if len(v) > 4*maxLiteral+64*maxMarks+1024 {
			continue // not written by this version: never let it cost a wait
		}
		b, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil {
			continue // not ours to interpret; never fatal for a wait
		}
		var e EchoEntry
		if json.Unmarshal(b, &e) == nil && e.valid() {
			l.entries[k] = e
		}
	}
	return l
}

// valid reports whether an entry read from a pane option is one panectl can
// use. Its lengths must be within their bounds. Anyone can set a pane
// option.
func (e EchoEntry) valid() bool {
	for _, m := range e.Marks {
		if m.Len < 0 || m.Len > maxText {
			return false
		}
	}
	if p := e.At; p != nil && (p.AnchorLen < 0 || p.AnchorLen > anchorBytes || p.PrefixLen < 0 || p.PrefixLen > maxPrefix ||
		p.Col < 0 || p.Col > maxPrefix || p.Width < 0 || p.Width > schema.MaxPaneSize || p.Row < 0) {
		return false
	}
	for _, w := range e.Widths {
		if w < 0 || w > maxText {
			return false
		}
	}
	if !e.Prompt.valid() || !e.Redrawn.valid() {
		return false
	}
	if e.End != 0 && (e.At == nil || e.End < e.At.Row || e.End-e.At.Row > maxEchoRows) {
		return false
	}
	return len(e.Marks) <= maxMarks*4 && e.Lines >= 0 && len(e.Widths) <= maxWidths && validMarkers(e.Markers)
}

// validMarkers reports whether markers are within their bounds.
func validMarkers(markers []string) bool {
	for _, m := range markers {
		if len(m) > maxMarkerLen {
			return false
		}
	}
	return len(markers) <= maxMarkers
}

// valid reports whether p, read from a pane option, is within its bounds.
// nil is.
func (p *PromptMark) valid() bool { return p == nil || p.Len >= 0 && p.Len <= maxPrefix }

// maxEchoRows bounds the rows an echo spans from its place (EchoEntry.End).
const maxEchoRows = 1 << 16

// maxText bounds a fingerprinted line's length. SPEC.md says text to type
// is at most 1 MiB. maxPrefix bounds the bytes of a prompt before the
// cursor.
const (
	maxText   = 1 << 20
	maxPrefix = 4 << 10
)

// active reports whether e discounts by text and by place at now. It does
// while pending for less than pendingWindow, or submitted less than
// EchoWindow ago.
func (e EchoEntry) active(now time.Time) bool {
	ms := now.UnixMilli()
	if e.Submitted == 0 {
		return ms-e.Typed < pendingWindow.Milliseconds()
	}
	return ms-e.Submitted < EchoWindow.Milliseconds()
}

// held reports whether e, past its EchoWindow, still discounts by place. It
// does when submitted, with a place and its row known. It stays in the
// ledger until maxEntries newer entries push it out.
func (e EchoEntry) held(now time.Time) bool {
	return e.Submitted != 0 && e.At != nil && e.At.Row > 0 && !e.active(now)
}

// kept reports whether e belongs in the ledger at now. Else it is removed
// when the ledger is next written.
func (e EchoEntry) kept(now time.Time) bool { return e.active(now) || e.held(now) }

// Pending returns the text typed into the pane that no Enter has followed
// yet and that still sits on the input line (see pending). It is in typing
// order. It is "" when there is none. It is also "" when only fingerprints
// of long text are kept, and then long is true.
func (l Ledger) Pending() (text string, long bool) {
	pending, _ := l.pending()
	for _, e := range pending {
		text += e.Text
		long = long || len(e.Marks) > 0
	}
	return text, long
}

// cancelGrace is how long typed text counts as pending whatever the screen
// shows. The program may not have drawn it yet.
const cancelGrace = 500 * time.Millisecond

// pending returns the active entries typed without Enter that still sit on
// the input line, in typing order. It also returns the keys of those that
// do not. Their line was killed or abandoned, by C-u, by C-c from anyone,
// or by a new prompt. That is so when the terminal cursor, where the ledger
// was read, is right after the same prompt as where the first of them was
// typed. The cursor may be on that row or a new one. On the alternate
// screen no place is known. There the same text before the cursor counts,
// as after an agent composer's C-u. Read with Ledger gives the cursor's
// prompt. Without it, or without the entry's prompt, every entry counts as
// pending.
func (l Ledger) pending() (still []keyedEntry, gone []string) {
	var all []keyedEntry
	for k, e := range l.entries {
		if e.active(l.now) && e.Submitted == 0 {
			all = append(all, keyedEntry{k, e})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Typed < all[j].Typed })
	if len(all) == 0 {
		return nil, nil
	}
	first, last := all[0], all[len(all)-1]
	if l.backAt(first.EchoEntry) && l.now.Sub(time.UnixMilli(last.Typed)) >= cancelGrace {
		for _, k := range all {
			gone = append(gone, k.key)
		}
		return nil, gone
	}
	return all, nil
}

// backAt reports whether the terminal cursor, where l was read, is right
// after the same prompt as where typing of e began.
func (l Ledger) backAt(e EchoEntry) bool {
	p := e.Prompt
	if e.At != nil {
		p = e.At.prompt()
	}
	now := l.prompt
	if now == nil {
		now = l.at.prompt()
	}
	return p != nil && now != nil && *p == *now
}

// keyedEntry is a ledger entry with its option name.
type keyedEntry struct {
	key string
	EchoEntry
}

// LastTyped is when text was last typed without Enter. It is zero when
// nothing is pending.
func (l Ledger) LastTyped() time.Time {
	var last int64
	for _, e := range l.entries {
		if e.active(l.now) && e.Submitted == 0 && e.Typed > last {
			last = e.Typed
		}
	}
	if last == 0 {
		return time.Time{}
	}
	return time.UnixMilli(last)
}

// Record adds typed text to the pane's ledger. With submitted, the pending
// entries and text form one submitted line, as the terminal will echo them.
// The pending entries are text typed without Enter, in typing order.
// Expired entries are removed in the same tmux command list.
func Record(ctx context.Context, c *tmux.Client, id, text string, submitted bool) error {
	l, err := LoadLedger(ctx, c, id)
	if err != nil {
		return err
	}
	set, unset := l.plan(text, submitted)
	return c.SetPaneOptions(ctx, id, set, unset)
}

// MarkEcho records what a look at the screen shows of the line just
// submitted, once a shell took it. That line is the newest submitted
// entry. A line taller than the pane gets where its echo ends (End). A
// line whose prompt the shell redrew on Enter gets the prompt now before
// it (Redrawn).
func MarkEcho(ctx context.Context, c *tmux.Client, id string, scr Screen) error {
	l, err := LoadLedger(ctx, c, id)
	if err != nil {
		return err
	}
	key, e, ok := l.newestSubmitted()
	if !ok {
		return nil
	}
	end := e.echoEnd(scr.Info.HistorySize+scr.Info.CursorY, scr.Info.Height)
	redrawn := e.redrawn(scr)
	if end == 0 && redrawn == nil {
		return nil
	}
	if end > 0 {
		e.End = end
	}
	if redrawn != nil {
		e.Redrawn = redrawn
	}
	return c.SetPaneOption(ctx, id, key, encodeEntry(e))
}

// echoEnd is where e's echo ends, 1 + absolute row row, where the shell
// left the cursor once it took the line. Only a line taller than the pane
// (height rows) gets it, else it is 0. A fast command's output can already
// be at the cursor's row. A shorter line's rows are known from its width
// (echoRows). Fish redraws a taller line in pieces, below the rows it
// needs.
func (e EchoEntry) echoEnd(row, height int) int {
	if echoRows(e) < height || row+1 <= e.At.Row+echoRows(e) || row+1-e.At.Row > maxEchoRows {
		return 0
	}
	return row + 1
}

// redrawn is the prompt before e's echo on screen scr, at the row where
// typing began. It is nil when that is the prompt typing began after, or
// when the row does not show the text. A shell with a transient prompt
// redraws it shorter on Enter.
func (e EchoEntry) redrawn(scr Screen) *PromptMark {
	r := e.At.Row - 1 - scr.Info.HistorySize
	head := e.head()
	if scr.Info.AlternateOn || r < 0 || r >= len(scr.Rows) || head == "" {
		return nil
	}
	i := strings.Index(scr.Rows[r], head)
	if i < 0 || i > maxPrefix {
		return nil
	}
	p := &PromptMark{Len: i, Hash: hash64(scr.Rows[r][:i])}
	if *p == *e.At.prompt() {
		return nil
	}
	return p
}

// head is the start of e's text as the terminal echoes it: its first
// line's first bytes, up to a control character (a TAB may complete). It
// is "" when unknown.
func (e EchoEntry) head() string {
	t := e.Text
	if t == "" && len(e.Marks) > 0 {
		t = e.Marks[0].Head
	}
	t = strings.TrimLeft(firstLine(t), " ")
	if i := strings.IndexFunc(t, unicode.IsControl); i >= 0 {
		t = t[:i]
	}
	return headOf(t)
}

// newestSubmitted is the entry of the line submitted last, with its key. A
// piece kept by place only does not count. ok is false when there is no
// such entry with a known place.
func (l Ledger) newestSubmitted() (key string, e EchoEntry, ok bool) {
	for k, x := range l.entries {
		if x.Submitted == 0 || x.PlaceOnly || x.At == nil || x.At.Row == 0 {
			continue
		}
		if !ok || x.Submitted > e.Submitted || x.Submitted == e.Submitted && k > key {
			key, e, ok = k, x, true
		}
	}
	return key, e, ok
}

// ClearPending removes the pending entries of the pane's ledger. The line
// they were typed on was killed.
func ClearPending(ctx context.Context, c *tmux.Client, id string) error {
	l, err := LoadLedger(ctx, c, id)
	if err != nil {
		return err
	}
	var unset []string
	for k, e := range l.entries {
		if e.Submitted == 0 || !e.kept(l.now) {
			unset = append(unset, k)
		}
	}
	return c.SetPaneOptions(ctx, id, nil, unset)
}

// Type records text in the pane's ledger, as l holds it, and types it. l is
// read just before, e.g. by Read with ReadOptions.Ledger. That read also
// gives the place where typing begins. Type sends Enter when submit. It
// does both in one tmux command list, Record then SendText, one process.
func Type(ctx context.Context, c *tmux.Client, id string, l Ledger, text string, submit bool) error {
	set, unset := l.plan(text, submit)
	return c.SendTextOptions(ctx, id, text, submit, set, unset)
}

// plan is the change Record makes to ledger l. It returns the entry to set
// and the entries to unset. Those are expired entries, merged pending ones
// when submitted, and those beyond maxEntries. The oldest go first, held
// ones too. An entry held by place (see held) is not expired.
func (l Ledger) plan(text string, submitted bool) (map[string]string, []string) {
	now := time.Now().UnixMilli()
	at := l.now
	if at.IsZero() {
		at = time.Now()
	}
	set := map[string]string{}
	var unset []string
	type kept struct {
		key   string
		typed int64
	}
	var live []kept
	pending, abandoned := l.pending()
	gone := map[string]bool{}
	for _, k := range abandoned {
		gone[k] = true
	}
	merged := map[string]bool{}
	if submitted {
		for _, p := range pending {
			merged[p.key] = true
		}
	}
	for k, e := range l.entries {
		switch {
		case !e.kept(at):
			unset = append(unset, k)
		case gone[k]:
			// It is no longer on the input line, killed or abandoned for a
			// new prompt. So it is not part of what is typed now. But its
			// echo stays on screen, so it is discounted as a submitted
			// entry.
			e.Submitted = now
			set[k] = encodeEntry(e)
			live = append(live, kept{k, e.Typed})
		case merged[k]:
			unset = append(unset, k)
		default:
			live = append(live, kept{k, e.Typed})
		}
	}
	add := func(e EchoEntry) {
		e.Typed = now
		if submitted {
			e.Submitted = now
		}
		if e.Text != "" || len(e.Marks) > 0 {
			set[ledgerPrefix+tmux.Nonce()] = encodeEntry(e)
			live = append(live, kept{"", now})
		}
	}
	if !submitted || len(pending) == 0 {
		add(l.entry(nil, text))
	} else {
		es := make([]EchoEntry, len(pending))
		for i, p := range pending {
			es[i] = p.EchoEntry
		}
		add(l.entry(es, text)) // the line as the program got it
		// The earlier pieces may be gone in a way the screen did not show.
		// C-c from anyone could do that, under a prompt that changed. So
		// the last piece typed is an entry of its own too, where it was
		// typed. It is matched by place only. That piece is the text typed
		// now, or else the last pending one.
		var last EchoEntry
		switch {
		case text != "":
			last = l.entry(nil, text)
		case len(es) > 1:
			last = mergeEntries(es[len(es)-1:], "", nil, nil)
		}
		if last.At != nil {
			last.PlaceOnly = true
			add(last)
		}
	}
	if n := len(live) - maxEntries; n > 0 {
		sort.Slice(live, func(i, j int) bool { return live[i].typed < live[j].typed })
		for _, k := range live[:n] {
			if k.key != "" {
				unset = append(unset, k.key)
			}
		}
	}
	return set, unset
}

// entry is mergeEntries at l's place and prompt. Typed with nothing
// pending, it keeps the transcript markers of l's program.
func (l Ledger) entry(pending []EchoEntry, text string) EchoEntry {
	e := mergeEntries(pending, text, l.at, l.prompt)
	if len(pending) == 0 {
		e.Markers = l.markers
	}
	if l.secret {
		return EchoEntry{}
	}
	e.Ahead = e.Ahead || l.ahead
	return e
}

// mergeEntries makes the entry of text typed after the pending entries, in
// typing order. When nothing is pending, the entry is at place p. With no
// place, it is after prompt pr. Their texts are joined, as the terminal
// shows them on one line. The result is kept as text while short. Else it
// is kept as line fingerprints. They are fingerprints of the pieces when a
// piece was already fingerprinted.
func mergeEntries(pending []EchoEntry, text string, p *Place, pr *PromptMark) EchoEntry {
	e := EchoEntry{At: p}
	if p == nil {
		e.Prompt = pr
	}
	var b strings.Builder
	literal := true
	lines := 0
	for i, pe := range pending {
		if i == 0 {
			e.At, e.Prompt, e.Markers = pe.At, pe.Prompt, pe.Markers
		}
		e.Ahead = e.Ahead || pe.Ahead
		literal = literal && len(pe.Marks) == 0
		b.WriteString(pe.Text)
		lines += max(pe.Lines, 1) - 1
	}
	b.WriteString(text)
	all := b.String()
	if strings.TrimSpace(all) == "" && !hasMarks(pending) {
		return EchoEntry{}
	}
	e.Lines = lines + strings.Count(text, "\n") + 1
	if literal {
		e.Widths = widths(all)
		lines = strings.Count(all, "\n")
		e.Lines = lines + 1
		if len(all) <= maxLiteral {
			if enc, _ := json.Marshal(all); len(enc) <= maxLiteral {
				e.Text = all
				return e
			}
		}
		e.Marks = marks(all)
		return e
	}
	var pieces [][]int
	for _, pe := range pending {
		if len(pe.Marks) > 0 {
			e.Marks = append(e.Marks, pe.Marks...)
			pieces = append(pieces, pe.Widths)
		} else {
			e.Marks = append(e.Marks, marks(pe.Text)...)
			pieces = append(pieces, widths(pe.Text))
		}
	}
	e.Widths = joinWidths(append(pieces, widths(text)))
	e.Marks = append(e.Marks, marks(text)...)
	if len(e.Marks) > maxMarks {
		e.Marks = append(e.Marks[:maxMarks/2:maxMarks/2], e.Marks[len(e.Marks)-maxMarks/2:]...)
	}
	return e
}

func hasMarks(es []EchoEntry) bool {
	for _, e := range es {
		if len(e.Marks) > 0 {
			return true
		}
	}
	return false
}

// widths returns the terminal cells of each line of text. It returns nil
// beyond maxWidths lines.
func widths(text string) []int {
	if strings.Count(text, "\n") >= maxWidths {
		return nil
	}
	var out []int
	for _, line := range strings.Split(text, "\n") {
		out = append(out, ansi.StringWidth(line))
	}
	return out
}

// joinWidths is the line widths of pieces of text typed one after the
// other. The last line of one goes on with the first of the next. It is nil
// when a piece's widths are unknown or there are more than maxWidths lines.
func joinWidths(pieces [][]int) []int {
	var out []int
	for i, p := range pieces {
		if p == nil {
			return nil
		}
		if i > 0 && len(out) > 0 {
			out[len(out)-1] += p[0]
			p = p[1:]
		}
		out = append(out, p...)
	}
	if len(out) > maxWidths {
		return nil
	}
	return out
}

// marks fingerprints the non-blank lines of text, trimmed. It takes all of
// them when there are at most maxMarks. Else it takes the first and last
// maxMarks/2.
func marks(text string) []LineMark {
	var out []LineMark
	add := func(t string) {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, LineMark{Len: len(t), Hash: hash64(t), Head: headOf(t)})
		}
	}
	var first, last []string
	n := 0
	for rest := text; rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		rest = after
		if strings.TrimSpace(line) == "" {
			continue
		}
		n++
		if len(first) < maxMarks/2 {
			first = append(first, line)
			continue
		}
		last = append(last, line)
		if len(last) > maxMarks/2 {
			last = last[1:]
		}
	}
	for _, l := range first {
		add(l)
	}
	for _, l := range last {
		add(l)
	}
	return out
}

// headOf is the first markHead bytes of s, cut on a rune boundary.
func headOf(s string) string {
	if len(s) <= markHead {
		return s
	}
	i := markHead
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

func encodeEntry(e EchoEntry) string {
	b, _ := json.Marshal(e)
	return base64.RawURLEncoding.EncodeToString(b)
}

// IsEcho reports whether a logical line is the echo of text typed by
// panectl. The text must still be pending, or submitted less than
// EchoWindow ago. The line shows a typed line in a form the program echoes
// it in (see form): alone, after the prompt where typing began, or after
// the program's transcript marker. The typed line ends the line, or is
// followed by a gap of blanks, as when a right-hand prompt follows. Or the
// line ends with its start, as when a long echo is still being drawn. A
// line that merely ends with typed text is output: after typing "Alice",
// "Hello Alice" is. Output identical to typed input is indistinguishable
// from its echo. It is discounted too. The echo found by place is
// ReadResult.Echo.
func (l Ledger) IsEcho(line string) bool {
	line = strings.TrimRight(line, " \t")
	if line == "" {
		return false
	}
	for _, e := range l.entries {
		if e.active(l.now) && e.echoesText(line) {
			return true
		}
	}
	return false
}

// echoesText reports whether a logical line shows a line of e's text as
// e's program echoes it. The line's trailing blanks are trimmed. It is
// never true for an entry by place only.
func (e EchoEntry) echoesText(line string) bool {
	if e.PlaceOnly || line == "" {
		return false
	}
	later := false
	for rest := e.Text; rest != ""; later = true {
		t, after, _ := strings.Cut(rest, "\n")
		rest = after
		if t = strings.TrimSpace(t); t != "" && echoes(line, t, e.form(later)) {
			return true
		}
	}
	for i, m := range e.Marks {
		if m.echoes(line, e.form(i > 0)) {
			return true
		}
	}
	return false
}

// form returns whether the text before a typed line, in a logical line, is
// a form e's program echoes that line in. It is nothing, or the prompt
// where typing began (its text before the terminal cursor then), or the
// prompt the shell redrew there on Enter. Or it is one of the program's
// transcript markers, after blanks. A later line of the text may also
// follow blanks alone, as continuations are indented.
func (e EchoEntry) form(later bool) func(before string) bool {
	p := e.Prompt
	if e.At != nil {
		p = e.At.prompt()
	}
	return func(before string) bool {
		lead := strings.TrimLeft(before, " \t")
		if lead == "" && (before == "" || later) {
			return true
		}
		if endsWith(before, p) || endsWith(before, e.Redrawn) || e.Ahead && promptEnd().MatchString(before) {
			return true
		}
		for _, m := range e.Markers {
			if lead == strings.TrimLeft(m, " \t") {
				return true
			}
		}
		return false
	}
}

// promptEnd is how a shell's prompt ends: a sigil, then at most a blank.
var promptEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[$%#>❯›»)\]] ?$`) })

// endsWith reports whether before ends with prompt p. A prompt longer than
// a row began on an earlier one. A blank prompt counts only after blanks.
func endsWith(before string, p *PromptMark) bool {
	if p == nil || p.Len == 0 || len(before) < p.Len {
		return false
	}
	tail := before[len(before)-p.Len:]
	return hash64(tail) == p.Hash && (strings.TrimSpace(tail) != "" || strings.TrimSpace(before) == "")
}

// echoes reports whether line shows typed line t after a text that form
// accepts.
func echoes(line, t string, form func(before string) bool) bool {
	if strings.HasSuffix(line, t) && form(line[:len(line)-len(t)]) {
		return true
	}
	if len(t) < 4 {
		return false
	}
	if partialEcho(line, t, form) {
		return true
	}
	for i := strings.Index(line, t); i >= 0; {
		rest := line[i+len(t):]
		if strings.HasPrefix(rest, "  ") && form(line[:i]) {
			return true
		}
		j := strings.Index(line[i+1:], t)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// echoes is echoes for a fingerprinted line. The logical line ends with it
// after a form, or holds it followed by a gap. Or the line ends with its
// start, checked on the kept head only.
func (m LineMark) echoes(line string, form func(before string) bool) bool {
	if m.Head == "" {
		return false
	}
	for i := 0; i < len(line); i++ {
		if line[i] != m.Head[0] {
			continue
		}
		rest := line[i:]
		switch {
		case len(rest) >= m.Len && strings.HasPrefix(rest, m.Head) && hash64(rest[:m.Len]) == m.Hash &&
			(len(rest) == m.Len || strings.HasPrefix(rest[m.Len:], "  ")) && form(line[:i]):
			return true
		case len(rest) < m.Len && len(rest) >= partialEchoMin &&
			(strings.HasPrefix(rest, m.Head) || strings.HasPrefix(m.Head, rest)) && form(line[:i]):
			return true // the start of a long line's echo, still being drawn
		}
	}
	return false
}

// partialEchoMin is the shortest start of a typed line that counts as its
// echo while the terminal is still drawing it.
const partialEchoMin = 8

// partialEcho reports whether line ends with the start of typed line t. The
// start is at least partialEchoMin bytes, after a form. That is the echo of
// a long line caught while the terminal is still drawing it.
func partialEcho(line, t string, form func(before string) bool) bool {
	for i := 0; i+partialEchoMin <= len(line); i++ {
		if line[i] != t[0] {
			continue
		}
		if rest := line[i:]; len(rest) < len(t) && strings.HasPrefix(t, rest) && form(line[:i]) {
			return true
		}
	}
	return false
}

// Unplaced marks the lines that show the text of an entry held by place
// (see held). The lines are read where no place can be known, as in a
// journal. The entry was submitted more than EchoWindow ago. Its echo
// cannot be told by its rows there. Discounting such a line is preferred to
// matching the echo. Output identical to the text is discounted too. It
// returns nil when no line shows such text.
func (l Ledger) Unplaced(lines []string) []bool {
	var out []bool
	for _, e := range l.entries {
		if !e.held(l.now) {
			continue
		}
		for i, line := range lines {
			if e.echoesText(strings.TrimRight(line, " \t")) {
				if out == nil {
					out = make([]bool, len(lines))
				}
				out[i] = true
			}
		}
	}
	return out
}

// Len is the number of active entries.
func (l Ledger) Len() int {
	n := 0
	for _, e := range l.entries {
		if e.active(l.now) {
			n++
		}
	}
	return n
}

// HasPlacesFrom reports whether an entry may discount lines by place
// (ReadResult.Echo) in a read that starts at absolute row row. That row is
// history_size + the relative row, as Cursor.Row. Such an entry is active
// and knows where typing began. Or it is held by place (see held), and its
// row is not before row. Only a read of the rows can tell which lines those
// are.
func (l Ledger) HasPlacesFrom(row int) bool {
	active, held := l.placesFrom(row)
	return len(active)+len(held) > 0
}

// places returns the active entries that know where typing began.
func (l Ledger) places() []EchoEntry {
	active, _ := l.placesFrom(math.MaxInt)
	return active
}

// placesFrom returns the active entries that know where typing began. It
// also returns the entries held by place whose row (Place.Row) is not
// before absolute row row. Those typed before that row lie before it,
// however history was trimmed since.
func (l Ledger) placesFrom(row int) (active, held []EchoEntry) {
	for _, e := range l.entries {
		switch {
		case e.At == nil:
		case e.active(l.now):
			active = append(active, e)
		case e.held(l.now) && e.At.Row-1 >= row:
			held = append(held, e)
		}
	}
	return active, held
}

// heldKeysFrom returns the option names of the entries placesFrom(row)
// returns as held.
func (l Ledger) heldKeysFrom(row int) []string {
	var out []string
	for k, e := range l.entries {
		if e.At != nil && e.held(l.now) && e.At.Row-1 >= row {
			out = append(out, k)
		}
	}
	return out
}

package pane

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/panectl/panectl/tmux"
)

// The echo ledger records what panectl typed into a pane, so that a wait
// does not mistake the terminal's echo of typed input for the program's
// output. It lives in the pane's tmux user options, one option per entry
// (@panectl_echo_<nonce>), so every panectl process sees it and concurrent
// writers never overwrite each other's entries.
const (
	ledgerPrefix = "@panectl_echo_"
	// EchoWindow is how long after submission typed text is still discounted.
	EchoWindow = 10 * time.Second
	// pendingWindow bounds how long unsubmitted text stays in the ledger.
	pendingWindow = 10 * time.Minute
)

// EchoEntry is one piece of typed text.
type EchoEntry struct {
	Text      string `json:"t"`             // the text as typed
	Typed     int64  `json:"at"`            // unix ms when typed
	Submitted int64  `json:"sub,omitempty"` // unix ms when Enter followed; 0 while pending
}

// Ledger is a pane's echo ledger as read at one moment.
type Ledger struct {
	entries map[string]EchoEntry
	now     time.Time
}

// LoadLedger reads the pane's ledger.
func LoadLedger(ctx context.Context, c *tmux.Client, id string) (Ledger, error) {
	opts, err := c.PaneOptions(ctx, id, ledgerPrefix)
	if err != nil {
		return Ledger{}, err
	}
	return ledgerFrom(opts), nil
}

// LoadLedgerVia is LoadLedger through a Snapshotter (through a control
// client: no tmux process).
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
		b, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil {
			continue // not ours to interpret; never fatal for a wait
		}
		var e EchoEntry
		if json.Unmarshal(b, &e) == nil {
			l.entries[k] = e
		}
	}
	return l
}

func (e EchoEntry) active(now time.Time) bool {
	ms := now.UnixMilli()
	if e.Submitted == 0 {
		return ms-e.Typed < pendingWindow.Milliseconds()
	}
	return ms-e.Submitted < EchoWindow.Milliseconds()
}

// Record adds typed text to the pane's ledger. With submitted, the pending
// entries (text typed without Enter, in typing order) and text form one
// submitted line, as the terminal will echo them. Expired entries are
// removed in the same tmux command list.
func Record(ctx context.Context, c *tmux.Client, id, text string, submitted bool) error {
	l, err := LoadLedger(ctx, c, id)
	if err != nil {
		return err
	}
	set, unset := l.plan(text, submitted)
	return c.SetPaneOptions(ctx, id, set, unset)
}

// Type records text in the pane's ledger, as l (read just before, e.g. by
// Read with ReadOptions.Ledger) holds it, and types it (with Enter when
// submit), in one tmux command list: Record then SendText, one process.
func Type(ctx context.Context, c *tmux.Client, id string, l Ledger, text string, submit bool) error {
	set, unset := l.plan(text, submit)
	return c.SendTextOptions(ctx, id, text, submit, set, unset)
}

// plan is the change Record makes to ledger l: the entry to set and the
// expired (or, when submitted, merged pending) entries to unset.
func (l Ledger) plan(text string, submitted bool) (map[string]string, []string) {
	now := time.Now().UnixMilli()
	at := l.now
	if at.IsZero() {
		at = time.Now()
	}
	set := map[string]string{}
	var unset []string
	var pending []EchoEntry
	for k, e := range l.entries {
		switch {
		case !e.active(at):
			unset = append(unset, k)
		case submitted && e.Submitted == 0:
			pending = append(pending, e)
			unset = append(unset, k)
		}
	}
	sort.Slice(pending, func(i, j int) bool { return pending[i].Typed < pending[j].Typed })
	line := ""
	for _, e := range pending {
		line += e.Text
	}
	line += text
	if strings.TrimSpace(line) != "" {
		e := EchoEntry{Text: line, Typed: now}
		if submitted {
			e.Submitted = now
		}
		set[ledgerPrefix+nonce()] = encodeEntry(e)
	}
	return set, unset
}

func encodeEntry(e EchoEntry) string {
	b, _ := json.Marshal(e)
	return base64.RawURLEncoding.EncodeToString(b)
}

// IsEcho reports whether a logical line is the echo of text typed by panectl
// that is still pending or was submitted less than EchoWindow ago: the line
// is a typed line, or ends with one after a blank or a prompt character, or
// holds one (of 4 or more characters) followed by a gap of blanks, as when a
// right-hand prompt follows the echo. Output identical to typed input is
// indistinguishable from its echo and is discounted too.
func (l Ledger) IsEcho(line string) bool {
	line = strings.TrimRight(line, " \t")
	if line == "" {
		return false
	}
	for _, e := range l.entries {
		if !e.active(l.now) {
			continue
		}
		for _, t := range strings.Split(e.Text, "\n") {
			if t = strings.TrimSpace(t); t != "" && echoes(line, t) {
				return true
			}
		}
	}
	return false
}

// echoes reports whether line shows typed line t as a terminal echoes it.
func echoes(line, t string) bool {
	if line == t {
		return true
	}
	if strings.HasSuffix(line, t) && boundary(line[:len(line)-len(t)]) {
		return true
	}
	if len(t) < 4 {
		return false
	}
	if partialEcho(line, t) {
		return true
	}
	for i := strings.Index(line, t); i >= 0; {
		rest := line[i+len(t):]
		if boundary(line[:i]) && strings.HasPrefix(rest, "  ") {
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

// partialEchoMin is the shortest start of a typed line that counts as its
// echo while the terminal is still drawing it.
const partialEchoMin = 8

// partialEcho reports whether line ends with the start of typed line t (at
// least partialEchoMin bytes, after a prompt-like boundary): the echo of a
// long line caught while the terminal is still drawing it.
func partialEcho(line, t string) bool {
	for i := 0; i+partialEchoMin <= len(line); i++ {
		if line[i] != t[0] || !boundary(line[:i]) {
			continue
		}
		if rest := line[i:]; len(rest) < len(t) && strings.HasPrefix(t, rest) {
			return true
		}
	}
	return false
}

// boundary reports whether text before a typed line ends like a prompt: a
// blank or a prompt character.
func boundary(before string) bool {
	if before == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return unicode.IsSpace(r) || strings.ContainsRune("$%#>❯›»:)]", r)
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

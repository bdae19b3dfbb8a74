package pane

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/tmux"
)

func TestEchoes(t *testing.T) {
	cases := []struct {
		line, typed, prompt string
		want                bool
	}{
		{"$ sleep 2; echo DONE_7", "sleep 2; echo DONE_7", "$ ", true},
		{"DONE_7", "sleep 2; echo DONE_7", "$ ", false},
		{"bash-5.2$ make", "make", "bash-5.2$ ", true},
		{"make: *** [all] Error 1", "make", "$ ", false},
		{"make", "make", "$ ", true}, // identical output is ambiguous: discounted
		{"% ls -la                                  [12:01]", "ls -la", "% ", true},
		{"> y", "y", "> ", true},
		{"yes", "y", "> ", false},
		{"partial more", "echo partial more", "$ ", false},
		{"~/src> git status", "git status", "~/src> ", true},
		{"❯ npm test", "npm test", "❯ ", true},
		{"xnpm test", "npm test", "❯ ", false},
		// a prompt longer than a row: the row's part was recorded
		{"user@host:/a/very/long/path$ ls", "ls", "path$ ", true},
		// a long line's echo caught while the terminal still draws it
		{"$ python3 -c 'print(4", "python3 -c 'print(42)'", "$ ", true},
		{"python3 -c", "python3 -c 'print(42)'", "$ ", true},
		{"$ pyth", "python3 -c 'print(42)'", "$ ", false}, // too short to tell
		{"3 -c 'print(42)'", "python3 -c 'print(42)'", "$ ", false},
	}
	for _, c := range cases {
		e := EchoEntry{Prompt: promptMark(c.prompt)}
		if got := echoes(c.line, c.typed, e.form(false)); got != c.want {
			t.Errorf("echoes(%q, %q) after prompt %q = %v, want %v", c.line, c.typed, c.prompt, got, c.want)
		}
	}
}

// promptMark fingerprints prompt s as the ledger records it.
func promptMark(s string) *PromptMark { return &PromptMark{Len: len(s), Hash: hash64(s)} }

// Away from where it landed, typed text is echo only in a form the program
// prints it in: the prompt where it was typed, or nothing. A line that
// merely ends with it is output (newuser.md H3: "Hello Alice" after typing
// "Alice" at "Name: "; "SUBMITTED:hello" and "GOT:fix the bug" after
// typing at "> ").
func TestEchoForms(t *testing.T) {
	now := time.Now()
	ms := now.UnixMilli()
	at := func(prompt string) *Place {
		return &Place{PrefixLen: len(prompt), PrefixHash: hash64(prompt), Row: 1}
	}
	for _, c := range []struct {
		name  string
		entry EchoEntry
		line  string
		want  bool
	}{
		{"the line at read's prompt", EchoEntry{Text: "Alice", At: at("Name: ")}, "Name: Alice", true},
		{"output ending with it", EchoEntry{Text: "Alice", At: at("Name: ")}, "Hello Alice", false},
		{"output identical to it", EchoEntry{Text: "Alice", At: at("Name: ")}, "Alice", true},
		{"after a label and a colon", EchoEntry{Text: "hello", At: at("> ")}, "SUBMITTED:hello", false},
		{"the stub's prompt", EchoEntry{Text: "hello", At: at("> ")}, "> hello", true},
		{"after a colon and a blank", EchoEntry{Text: "fix the bug", At: at("> ")}, "GOT:fix the bug", false},
		{"you said", EchoEntry{Text: "fix the bug", At: at("> ")}, "you said: fix the bug", false},
		{"another shell prompt", EchoEntry{Text: "make", At: at("$ ")}, "% make", false},
		{"alternate screen, the composer's prompt", EchoEntry{Text: "fix it", Prompt: promptMark("› ")}, "› fix it", true},
		{"alternate screen, other text", EchoEntry{Text: "fix it", Prompt: promptMark("› ")}, "Saved as fix it", false},
		{"no prompt recorded", EchoEntry{Text: "hello"}, "> hello", false},
		{"a right-hand prompt after it", EchoEntry{Text: "ls -la", At: at("% ")}, "% ls -la       [12:01]", true},
		{"a gap after it, no form", EchoEntry{Text: "ls -la", At: at("% ")}, "total: ls -la    3", false},
		{"a later line, indented", EchoEntry{Text: "one\ntwo", At: at("$ ")}, "  two", true},
		{"a later line, at the prompt", EchoEntry{Text: "one\ntwo", At: at("$ ")}, "$ two", true},
		{"a later line, after a label", EchoEntry{Text: "one\ntwo", At: at("$ ")}, "got two", false},
		{"the first line, indented", EchoEntry{Text: "one\ntwo", At: at("$ ")}, "  one", false},
		{"a blank prompt, after text", EchoEntry{Text: "Alice", Prompt: promptMark("  ")}, "Hi  Alice", false},
		{"a blank prompt", EchoEntry{Text: "Alice", Prompt: promptMark("  ")}, "  Alice", true},
	} {
		c.entry.Typed, c.entry.Submitted = ms-1000, ms-1000
		l := Ledger{now: now, entries: map[string]EchoEntry{"e": c.entry}}
		if got := l.IsEcho(c.line); got != c.want {
			t.Errorf("%s: IsEcho(%q) = %v, want %v", c.name, c.line, got, c.want)
		}
	}
}

// A shell with a transient prompt redraws it on Enter. The look after the
// shell took the line finds the prompt now before the echo, at the row
// where typing began; the echo after it is then echo by text.
func TestEchoRedrawnPrompt(t *testing.T) {
	prompt := "long-prompt # "
	at := &Place{PrefixLen: len(prompt), PrefixHash: hash64(prompt), Col: len(prompt), Width: 80, Row: 3}
	e := EchoEntry{Text: "sleep 1; echo X", At: at}
	scr := func(alt bool, rows ...string) Screen {
		return Screen{Rows: rows, Info: tmux.PaneInfo{HistorySize: 1, CursorY: 3, AlternateOn: alt}}
	}
	for _, c := range []struct {
		name string
		scr  Screen
		want *PromptMark
	}{
		{"redrawn", scr(false, "one", "❯ sleep 1; echo X", "", ""), promptMark("❯ ")},
		{"the same prompt", scr(false, "one", prompt+"sleep 1; echo X", "", ""), nil},
		{"another row", scr(false, "❯ sleep 1; echo X", "one", "", ""), nil},
		{"alternate screen", scr(true, "one", "❯ sleep 1; echo X", "", ""), nil},
		{"off the screen", scr(false), nil},
	} {
		got := e.redrawn(c.scr)
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s: redrawn %+v, want %+v", c.name, got, c.want)
		}
	}
	now := time.Now()
	e.Redrawn, e.Typed, e.Submitted = promptMark("❯ "), now.UnixMilli(), now.UnixMilli()
	l := Ledger{now: now, entries: map[string]EchoEntry{"e": e}}
	for line, want := range map[string]bool{
		"❯ sleep 1; echo X":            true,
		prompt + "sleep 1; echo X":     true,
		"ran: sleep 1; echo X":         false,
		"❯ sleep 1; echo X    [12:00]": true,
	} {
		if got := l.IsEcho(line); got != want {
			t.Errorf("IsEcho(%q) = %v, want %v", line, got, want)
		}
	}
}

// An agent's transcript shows a submitted message after its recognizer's
// marker (echo_prefixes), which may not be the composer's prompt. Entries
// typed with WithMarkers keep the markers; a line after another label is
// output.
func TestEchoMarkers(t *testing.T) {
	now := time.Now()
	l := Ledger{now: now, entries: map[string]EchoEntry{}, prompt: promptMark("│ > ")}.WithMarkers([]string{"❯ ", "> "})
	set, _ := l.plan("fix the bug", true)
	for k, v := range set {
		l.entries[k] = ledgerFrom(map[string]string{k: v}).entries[k]
	}
	for line, want := range map[string]bool{
		"❯ fix the bug":                   true,
		"  > fix the bug":                 true,
		"│ > fix the bug":                 true, // the composer's prompt
		"GOT:fix the bug":                 false,
		"You said: fix the bug":           false,
		" ❯ fix the bug          00:23 ┃": true,
	} {
		if got := l.IsEcho(line); got != want {
			t.Errorf("IsEcho(%q) = %v, want %v", line, got, want)
		}
	}
	// a program with no markers: the prompt alone
	l = Ledger{now: now, entries: map[string]EchoEntry{}, prompt: promptMark("│ > ")}
	set, _ = l.plan("fix the bug", true)
	for k, v := range set {
		l.entries[k] = ledgerFrom(map[string]string{k: v}).entries[k]
	}
	if l.IsEcho("❯ fix the bug") {
		t.Error(`IsEcho("❯ fix the bug") with no markers: want output`)
	}
	// pane options anyone can set: too many or too long markers are refused
	long := EchoEntry{Text: "x", Typed: 1, Markers: []string{strings.Repeat("m", maxMarkerLen+1)}}
	many := EchoEntry{Text: "x", Typed: 1, Markers: make([]string, maxMarkers+1)}
	for _, e := range []EchoEntry{long, many} {
		if got := ledgerFrom(map[string]string{"k": encodeEntry(e)}); len(got.entries) != 0 {
			t.Errorf("an entry with %d markers (longest %d bytes) was accepted", len(e.Markers), len(e.Markers[0]))
		}
	}
}

func TestLedgerWindows(t *testing.T) {
	now := time.Now()
	pr := promptMark("$ ")
	l := Ledger{now: now, entries: map[string]EchoEntry{
		"a": {Text: "echo recent", Typed: now.Add(-2 * time.Second).UnixMilli(), Submitted: now.Add(-2 * time.Second).UnixMilli(), Prompt: pr},
		"b": {Text: "echo stale", Typed: now.Add(-20 * time.Second).UnixMilli(), Submitted: now.Add(-11 * time.Second).UnixMilli(), Prompt: pr},
		"c": {Text: "echo pending", Typed: now.Add(-time.Minute).UnixMilli(), Prompt: pr},
		"d": {Text: "line one\nline two", Typed: now.UnixMilli(), Submitted: now.UnixMilli(), Prompt: pr},
	}}
	for line, want := range map[string]bool{
		"$ echo recent": true, "$ echo stale": false, "$ echo pending": true,
		"  line two": true, "line one": true, "": false,
	} {
		if got := l.IsEcho(line); got != want {
			t.Errorf("IsEcho(%q) = %v, want %v", line, got, want)
		}
	}
	if l.Len() != 3 {
		t.Errorf("Len() = %d, want 3 active entries", l.Len())
	}
}

// plan (Record and Type): expired entries go, pending ones merge into the
// submitted line in typing order.
func TestLedgerPlan(t *testing.T) {
	now := time.Now()
	ms := now.UnixMilli()
	l := Ledger{now: now, entries: map[string]EchoEntry{
		ledgerPrefix + "old":  {Text: "old", Typed: ms - 60_000, Submitted: ms - 60_000},
		ledgerPrefix + "p2":   {Text: "two ", Typed: ms - 10},
		ledgerPrefix + "p1":   {Text: "one ", Typed: ms - 20},
		ledgerPrefix + "live": {Text: "live", Typed: ms - 1000, Submitted: ms - 1000},
	}}
	set, unset := l.plan("three", true)
	sort.Strings(unset)
	if want := []string{ledgerPrefix + "old", ledgerPrefix + "p1", ledgerPrefix + "p2"}; !slices.Equal(unset, want) {
		t.Errorf("unset %q, want %q", unset, want)
	}
	// the line as typed (where the terminal cursor was is not known here:
	// no entry by place only)
	var texts []string
	for _, v := range set {
		got := ledgerFrom(map[string]string{ledgerPrefix + "x": v}).entries[ledgerPrefix+"x"]
		if got.Submitted == 0 {
			t.Errorf("entry %+v not submitted", got)
		}
		texts = append(texts, got.Text)
	}
	sort.Strings(texts)
	if want := []string{"one two three"}; !slices.Equal(texts, want) {
		t.Errorf("entries %q, want %q", texts, want)
	}
	// an empty ledger (none read) only adds
	set, unset = Ledger{}.plan("x", false)
	if len(set) != 1 || len(unset) != 0 {
		t.Errorf("empty ledger: set %v unset %v", set, unset)
	}
}

// The ledger is bounded whatever was typed: long text is fingerprinted, a
// pane keeps at most maxEntries entries, and the fingerprints still find
// the echo of the text's lines.
func TestLedgerBounded(t *testing.T) {
	huge := strings.Repeat("y", 1<<20)
	lines := strings.Repeat("some line of a long paste\n", 40000) + "the last line typed"
	l := Ledger{now: time.Now(), entries: map[string]EchoEntry{}}
	total := 0
	for i := 0; i < 5; i++ {
		for _, text := range []string{huge, lines} {
			set, unset := l.plan(text, false)
			for _, k := range unset {
				delete(l.entries, k)
			}
			for k, v := range set {
				total += len(v)
				if len(v) > 4<<10 {
					t.Errorf("one entry is %d bytes encoded", len(v))
				}
				l.entries[k] = ledgerFrom(map[string]string{k: v}).entries[k]
			}
		}
	}
	if total > 64<<10 {
		t.Errorf("ten 1 MiB sends wrote %d bytes of options", total)
	}
	for i := 0; i < 40; i++ {
		set, unset := l.plan(fmt.Sprintf("echo %d", i), true)
		for _, k := range unset {
			delete(l.entries, k)
		}
		for k, v := range set {
			l.entries[k] = ledgerFrom(map[string]string{k: v}).entries[k]
		}
	}
	if len(l.entries) > maxEntries {
		t.Errorf("%d entries kept, want at most %d", len(l.entries), maxEntries)
	}
	l = Ledger{now: time.Now(), entries: map[string]EchoEntry{}, prompt: promptMark("$ ")}
	set, _ := l.plan(lines, true)
	for k, v := range set {
		l.entries[k] = ledgerFrom(map[string]string{k: v}).entries[k]
	}
	for line, want := range map[string]bool{
		"$ the last line typed":           true,
		"  some line of a long paste":     true,
		"the last line typed  [12:00]":    true,
		"got: the last line typed":        false,
		"$ the last line":                 true, // its start, still being drawn
		"the last line typed, and more":   false,
		"something else entirely printed": false,
	} {
		if got := l.IsEcho(line); got != want {
			t.Errorf("IsEcho(%q) = %v, want %v", line, got, want)
		}
	}
}

// Pending text merged with fingerprinted text stays bounded too.
func TestLedgerMergeLong(t *testing.T) {
	now := time.Now()
	l := Ledger{now: now, entries: map[string]EchoEntry{
		"a": {Marks: marks(strings.Repeat("x\n", 100)), Typed: now.UnixMilli() - 10},
		"b": {Text: "short", Typed: now.UnixMilli() - 5},
	}}
	set, unset := l.plan("tail", true)
	if len(unset) != 2 || len(set) != 1 {
		t.Fatalf("set %v unset %v", set, unset)
	}
	for _, v := range set {
		e := ledgerFrom(map[string]string{"k": v}).entries["k"]
		if len(e.Marks) == 0 || len(e.Marks) > maxMarks || e.Submitted == 0 {
			t.Errorf("entry %+v", e)
		}
	}
}

// The ledger is read from pane options anyone can set: any value decodes
// without a panic, and the lookups stay safe.
func FuzzLedgerFrom(f *testing.F) {
	f.Add(encodeEntry(EchoEntry{Text: "echo hi", Typed: 1, At: &Place{AnchorLen: 3}}), "$ echo hi")
	f.Add(encodeEntry(EchoEntry{Marks: []LineMark{{Len: 100, Hash: 1, Head: "x"}}, Typed: 1}), "x")
	f.Add(encodeEntry(EchoEntry{Text: "ab", Typed: 1, Prompt: &PromptMark{Len: -1}}), "ab")
	f.Add("!!!", "")
	f.Add(encodeEntry(EchoEntry{Text: "ab", Typed: 1, Markers: []string{"› "}, Redrawn: &PromptMark{Len: 2}}), "› ab")
	f.Add(encodeEntry(EchoEntry{Text: "ab", Typed: 1, Redrawn: &PromptMark{Len: -3}}), "ab")
	f.Add(encodeEntry(EchoEntry{Marks: []LineMark{{Len: -5, Hash: 1, Head: "x"}}, Typed: 1}), "x y")
	f.Add(encodeEntry(EchoEntry{Text: "ab", Typed: 1, At: &Place{AnchorLen: -1, PrefixLen: -7}}), "ab")
	f.Fuzz(func(t *testing.T, value, line string) {
		l := ledgerFrom(map[string]string{ledgerPrefix + "a": value})
		l.now = time.UnixMilli(2)
		_ = l.IsEcho(line)
		_, _ = l.Pending()
		_ = l.LastTyped()
		_ = l.places()
		set, _ := l.plan(line, true)
		if len(set) > 3 {
			t.Errorf("plan set %d entries", len(set))
		}
	})
}

// Text typed without Enter no longer counts as pending once the terminal
// cursor is back right after the prompt where it was typed (killed, or C-c
// and a new prompt): it is not merged into the next submitted line, and
// stays discounted as a submitted entry.
func TestLedgerAbandonedPending(t *testing.T) {
	now := time.Now()
	prompt := &Place{AnchorLen: 10, AnchorHash: 1, PrefixLen: 2, PrefixHash: 7, Col: 2, Width: 80}
	newRow := &Place{AnchorLen: 10, AnchorHash: 2, PrefixLen: 2, PrefixHash: 7, Col: 2, Width: 80}
	afterText := &Place{AnchorLen: 10, AnchorHash: 1, PrefixLen: 12, PrefixHash: 9, Col: 12, Width: 80}
	draft := EchoEntry{Text: "echo draft", Typed: now.UnixMilli() - 2000, At: prompt}
	for _, tc := range []struct {
		name    string
		at      *Place
		pending string
	}{
		{"still on the line", afterText, "echo draft"},
		{"a new prompt after C-c", newRow, ""},
		{"killed on its row", prompt, ""},
		{"cursor unknown", nil, "echo draft"},
	} {
		l := Ledger{now: now, at: tc.at, entries: map[string]EchoEntry{"d": draft}}
		if got, _ := l.Pending(); got != tc.pending {
			t.Errorf("%s: Pending %q, want %q", tc.name, got, tc.pending)
		}
		set, unset := l.plan("sleep 1; echo X", true)
		var texts []string
		for k, v := range set {
			e := ledgerFrom(map[string]string{ledgerPrefix + "x": v}).entries[ledgerPrefix+"x"]
			if e.Submitted == 0 {
				t.Errorf("%s: entry %s not submitted", tc.name, k)
			}
			if e.PlaceOnly {
				texts = append(texts, "place:"+e.Text)
			} else {
				texts = append(texts, e.Text)
			}
		}
		sort.Strings(texts)
		want := []string{"echo draft", "sleep 1; echo X"} // the draft kept (closed), the line alone
		switch {
		case tc.at == nil:
			want = []string{"echo draftsleep 1; echo X"}
		case tc.pending != "":
			// the line as typed, and the text typed now where it was typed
			want = []string{"echo draftsleep 1; echo X", "place:sleep 1; echo X"}
		}
		if tc.pending != "" && !slices.Equal(unset, []string{"d"}) {
			t.Errorf("%s: unset %q", tc.name, unset)
		}
		if !slices.Equal(texts, want) {
			t.Errorf("%s: entries %q, want %q", tc.name, texts, want)
		}
	}
	// The alternate screen (an agent composer, tester4 D7): no place, only
	// the text before the cursor; C-u brings the cursor back after the
	// composer's prompt, and the draft is no longer pending.
	composer, afterDraft := &PromptMark{Len: 2, Hash: 7}, &PromptMark{Len: 18, Hash: 9}
	altDraft := EchoEntry{Text: "some draft", Typed: now.UnixMilli() - 2000, Prompt: composer}
	for _, tc := range []struct {
		name    string
		prompt  *PromptMark
		pending string
		want    []string
	}{
		{"alternate screen, draft kept", afterDraft, "some draft", []string{"some draftecho jackal"}},
		{"alternate screen, draft cleared", composer, "", []string{"echo jackal", "some draft"}},
		{"alternate screen, cursor unknown", nil, "some draft", []string{"some draftecho jackal"}},
	} {
		l := Ledger{now: now, prompt: tc.prompt, entries: map[string]EchoEntry{"d": altDraft}}
		if got, _ := l.Pending(); got != tc.pending {
			t.Errorf("%s: Pending %q, want %q", tc.name, got, tc.pending)
		}
		set, _ := l.plan("echo jackal", true)
		var texts []string
		for _, v := range set {
			e := ledgerFrom(map[string]string{ledgerPrefix + "x": v}).entries[ledgerPrefix+"x"]
			texts = append(texts, e.Text)
			if e.Text == "echo jackal" && (e.Prompt == nil || *e.Prompt != *composer) {
				t.Errorf("%s: the new entry's prompt %+v, want %+v", tc.name, e.Prompt, composer)
			}
		}
		sort.Strings(texts)
		if !slices.Equal(texts, tc.want) {
			t.Errorf("%s: entries %q, want %q", tc.name, texts, tc.want)
		}
	}
	// typed moments ago: pending whatever the screen shows (not drawn yet)
	fresh := draft
	fresh.Typed = now.UnixMilli() - 10
	l := Ledger{now: now, at: prompt, entries: map[string]EchoEntry{"d": fresh}}
	if got, _ := l.Pending(); got != "echo draft" {
		t.Errorf("fresh: Pending %q", got)
	}
}

// The rows an echo covers come from the text's widths and where it began,
// however the program broke them into rows.
func TestEchoRows(t *testing.T) {
	for _, tc := range []struct {
		col, width int
		widths     []int
		want       int
	}{
		{4, 80, []int{99}, 2},     // zsh: "vm# " and 99 cells
		{14, 80, []int{2010}, 26}, // fish: a line taller than the pane
		{2, 80, []int{78}, 1},     // exactly one row
		{2, 80, []int{10, 0, 5}, 3},
		{2, 0, []int{10}, 0}, // width unknown
	} {
		e := EchoEntry{At: &Place{Col: tc.col, Width: tc.width}, Widths: tc.widths}
		if got := echoRows(e); got != tc.want {
			t.Errorf("echoRows(col %d, width %d, %v) = %d, want %d", tc.col, tc.width, tc.widths, got, tc.want)
		}
	}
	if got := joinWidths([][]int{{3}, {4, 5}, {6}}); !slices.Equal(got, []int{7, 11}) {
		t.Errorf("joinWidths = %v", got)
	}
	if joinWidths([][]int{{3}, nil}) != nil {
		t.Error("joinWidths with an unknown piece is not nil")
	}
}

// Past EchoWindow a submitted entry no longer discounts by text (output
// identical to typed text elsewhere matches again) but, knowing its place
// and row, is held: it discounts by place in any read that starts at or
// before its row, whatever the time since (injected: no wall clock), and
// the ledger keeps it until maxEntries newer entries push it out.
func TestLedgerHeldByPlace(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_000)
	ms := now.UnixMilli()
	at := &Place{AnchorLen: 5, AnchorHash: 1, PrefixLen: 2, PrefixHash: 2, Col: 2, Width: 80, Row: 8} // absolute row 7
	noRow := *at
	noRow.Row = 0
	for _, tc := range []struct {
		name         string
		e            EchoEntry
		active, held bool
	}{
		{"pending", EchoEntry{Text: "x", Typed: ms - 60_000, At: at}, true, false},
		{"submitted 9 s ago", EchoEntry{Text: "x", Typed: ms - 9_000, Submitted: ms - 9_000, At: at}, true, false},
		{"submitted 11 s ago", EchoEntry{Text: "x", Typed: ms - 11_000, Submitted: ms - 11_000, At: at}, false, true},
		{"submitted a day ago", EchoEntry{Text: "x", Typed: ms - 86_400_000, Submitted: ms - 86_400_000, At: at}, false, true},
		{"no place (alternate screen)", EchoEntry{Text: "x", Typed: ms - 11_000, Submitted: ms - 11_000, Prompt: &PromptMark{}}, false, false},
		{"no row (an older panectl's entry)", EchoEntry{Text: "x", Typed: ms - 11_000, Submitted: ms - 11_000, At: &noRow}, false, false},
		{"pending too long", EchoEntry{Text: "x", Typed: ms - int64(pendingWindow/time.Millisecond) - 1, At: at}, false, false},
	} {
		if got := tc.e.active(now); got != tc.active {
			t.Errorf("%s: active %v, want %v", tc.name, got, tc.active)
		}
		if got := tc.e.held(now); got != tc.held {
			t.Errorf("%s: held %v, want %v", tc.name, got, tc.held)
		}
	}

	typed := "sleep 25; echo SENTINEL-DONE"
	old := EchoEntry{Text: typed, Typed: ms - 11_000, Submitted: ms - 11_000, At: at}
	l := Ledger{now: now, entries: map[string]EchoEntry{ledgerPrefix + "old": old}}
	if l.IsEcho("$ " + typed) {
		t.Error("11 s after submission the text alone still discounts")
	}
	for row, want := range map[int]bool{0: true, 7: true, 8: false, 100: false} {
		if got := l.HasPlacesFrom(row); got != want {
			t.Errorf("HasPlacesFrom(%d) = %v, want %v (its row is 7)", row, got, want)
		}
		active, held := l.placesFrom(row)
		if len(active) != 0 || len(held) != map[bool]int{true: 1}[want] {
			t.Errorf("placesFrom(%d) = %d active, %d held", row, len(active), len(held))
		}
	}
	if len(l.places()) != 0 {
		t.Error("a held entry is among the active places")
	}
	// the next typing keeps it (an entry past its window without a place goes)
	l.entries[ledgerPrefix+"gone"] = EchoEntry{Text: "y", Typed: ms - 11_000, Submitted: ms - 11_000}
	_, unset := l.plan("echo next", true)
	if !slices.Equal(unset, []string{ledgerPrefix + "gone"}) {
		t.Errorf("plan unset %q, want only the expired entry without a place", unset)
	}
	// bounded: maxEntries newer entries push it out, oldest first
	for i := range maxEntries {
		l.entries[fmt.Sprintf("%snew%02d", ledgerPrefix, i)] = EchoEntry{Text: "n", Typed: ms - 1000 + int64(i), Submitted: ms - 1000 + int64(i), At: at}
	}
	delete(l.entries, ledgerPrefix+"gone")
	_, unset = l.plan("echo more", true)
	sort.Strings(unset)
	if want := []string{ledgerPrefix + "new00", ledgerPrefix + "old"}; !slices.Equal(unset, want) {
		t.Errorf("plan unset %q, want %q (the oldest two: %d entries at most)", unset, want, maxEntries)
	}
}

// A held entry (submitted long ago) discounts the rows where its typing
// landed when a read covers them, and only those: the same text printed
// as output elsewhere is not discounted. When its place can no longer be
// found (history cleared or trimmed before it), a line that shows its
// text is discounted instead, and marked Unplaced.
func TestEchoByPlaceHeld(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_000)
	typed := "sleep 25; echo SENTINEL-DONE"
	// where typing began: after "bash$ " on row 1 (no history)
	before := normalView{start: 0, rows: []string{"some earlier output", "bash$"}}
	at := before.placeAt(tmux.PaneInfo{CursorX: 6, CursorY: 1, Width: 80, Height: 24})
	if at == nil || at.Row != 2 {
		t.Fatalf("place %+v, want row 1 (+1)", at)
	}
	e := EchoEntry{Text: typed, Typed: now.UnixMilli() - 11_000, Submitted: now.UnixMilli() - 11_000, At: at,
		Lines: 1, Widths: widths(typed)}
	l := Ledger{now: now, entries: map[string]EchoEntry{"e": e}}

	lines := func(v normalView, from int) ([]int, []string) {
		var starts []int
		var out []string
		for i, r := range v.rows {
			if v.start+i >= from {
				starts, out = append(starts, v.start+i), append(out, r)
			}
		}
		return starts, out
	}
	for _, tc := range []struct {
		name           string
		v              normalView
		from           int // the read's first relative row (history_size is 0)
		echo, unplaced []bool
	}{
		{"the echo, output, the same text as output", normalView{start: 0, rows: []string{
			"some earlier output", "bash$ " + typed, "SENTINEL-DONE", typed, "bash$"}},
			1, []bool{true, false, false, false}, nil},
		{"a read from before it", normalView{start: 0, rows: []string{
			"some earlier output", "bash$ " + typed, "SENTINEL-DONE"}},
			0, []bool{false, true, false}, nil},
		{"history cleared: its place is gone", normalView{start: 0, rows: []string{
			"bash$ " + typed, "SENTINEL-DONE"}},
			0, []bool{true, false}, []bool{true, false}},
	} {
		active, held := l.placesFrom(tc.from)
		starts, ls := lines(tc.v, tc.from)
		echo, unplaced, lost := tc.v.echoByPlace(starts, ls, active, held)
		if !slices.Equal(echo, tc.echo) || !slices.Equal(unplaced, tc.unplaced) || lost != (tc.unplaced != nil) {
			t.Errorf("%s: echo %v unplaced %v lost %v, want %v %v", tc.name, echo, unplaced, lost, tc.echo, tc.unplaced)
		}
	}
	// a read that starts after its row leaves it out
	if _, held := l.placesFrom(2); len(held) != 0 {
		t.Error("a read after the entry's row considers it")
	}
}

// Where no place can be known (a journal), a held entry discounts the
// lines that show its text; an entry past its window without a place, or a
// place-only piece, does not.
func TestLedgerUnplaced(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_000)
	old := now.UnixMilli() - 11_000
	at := &Place{PrefixLen: 2, PrefixHash: hash64("$ "), Row: 3}
	l := Ledger{now: now, entries: map[string]EchoEntry{
		"held":  {Text: "sleep 25; echo SENTINEL-DONE", Typed: old, Submitted: old, At: at},
		"piece": {Text: "echo PIECE", Typed: old, Submitted: old, At: at, PlaceOnly: true},
		"alt":   {Text: "echo ALT", Typed: old, Submitted: old, Prompt: &PromptMark{}},
	}}
	lines := []string{"$ sleep 25; echo SENTINEL-DONE", "SENTINEL-DONE", "$ echo PIECE", "$ echo ALT  "}
	if got, want := l.Unplaced(lines), []bool{true, false, false, false}; !slices.Equal(got, want) {
		t.Errorf("Unplaced = %v, want %v", got, want)
	}
	if got := l.Unplaced(lines[1:]); got != nil {
		t.Errorf("Unplaced without the echo = %v, want nil", got)
	}
}

// A stream keeps the echo marks its capture found for held entries: its
// decisions use them while the ledger holds only those entries; an active
// entry, or a held one the capture did not look for, needs a capture.
func TestStreamEchoOf(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_000)
	old := now.UnixMilli() - 11_000
	at := &Place{PrefixLen: 2, Row: 5} // absolute row 4
	held := EchoEntry{Text: "sleep 1; echo X", Typed: old, Submitted: old, At: at}
	s := &Stream{bodyAbs: 3, held: &heldEcho{keys: map[string]bool{"a": true}, echo: []bool{false, true}}}
	for _, tc := range []struct {
		name    string
		entries map[string]EchoEntry
		echo    []bool
		ok      bool
	}{
		{"no entries", nil, nil, true},
		{"the held entry", map[string]EchoEntry{"a": held}, []bool{false, true, false}, true},
		{"a held entry typed before the stream's lines", map[string]EchoEntry{"a": held, "b": {Text: "b", Typed: old, Submitted: old, At: &Place{Row: 2}}},
			[]bool{false, true, false}, true},
		{"another held entry", map[string]EchoEntry{"a": held, "c": held}, nil, false},
		{"an active entry", map[string]EchoEntry{"a": held, "d": {Text: "d", Typed: now.UnixMilli(), Submitted: now.UnixMilli(), At: at}}, nil, false},
	} {
		echo, ok := s.EchoOf(Ledger{now: now, entries: tc.entries}, 3)
		if ok != tc.ok || !slices.Equal(echo, tc.echo) {
			t.Errorf("%s: EchoOf = %v %v, want %v %v", tc.name, echo, ok, tc.echo, tc.ok)
		}
	}
	if _, ok := (&Stream{bodyAbs: 3}).EchoOf(Ledger{now: now, entries: map[string]EchoEntry{"a": held}}, 3); ok {
		t.Error("a stream without kept marks decides with a held entry in its lines")
	}
}

// A line taller than the pane: fish draws pieces of it far below the rows
// its text needs, and a row tmux joins to a full row above holds nothing.
// With End (the shell's cursor once it took the line), every piece is the
// echo and the output after it is not.
func TestEchoEndBoundsTallLine(t *testing.T) {
	full := strings.Repeat("y", 8)
	typed := ": " + strings.Repeat("y", 30) + " NEEDLE"
	v := normalView{start: 0,
		rows:   []string{"$ : yyyy", full, "", "", "", "", "", "  : yyyy", full, full, "", "", "NEEDLE", "$"},
		joined: []string{"$ : yyyy" + full, "", "", "", "", "", "  : yyyy" + full + full, "", "NEEDLE", "$"}}
	// (one of rows 10 and 11 is joined to the piece above: which one, the
	// text cannot say; the line after them starts at 12)
	starts := v.lineStarts(0)
	if !slices.Equal(starts, []int{0, 2, 3, 4, 5, 6, 7, 10, 12, 13}) {
		t.Fatalf("lineStarts %v", starts)
	}
	at := &Place{PrefixLen: 2, PrefixHash: hash64("$ "), Col: 2, Width: 8, Row: 1}
	now := time.Now()
	e := EchoEntry{Text: typed, Typed: now.UnixMilli(), Submitted: now.UnixMilli(), At: at, Lines: 1, Widths: widths(typed)}
	echo, _, _ := v.echoByPlace(starts, v.joined, []EchoEntry{e}, nil)
	if !slices.Equal(echo, []bool{true, true, true, true, true, false, false, false, false, false}) {
		t.Fatalf("without End: echo %v (the rows its width needs)", echo)
	}
	e.End = 13 // the cursor at row 12, where NEEDLE is printed
	if !e.valid() {
		t.Fatal("an End after the place is valid")
	}
	echo, _, _ = v.echoByPlace(starts, v.joined, []EchoEntry{e}, nil)
	if !slices.Equal(echo, []bool{true, true, true, true, true, true, true, true, false, false}) {
		t.Fatalf("with End: echo %v", echo)
	}
	e.End = at.Row + maxEchoRows + 1
	if e.valid() {
		t.Error("an End beyond maxEchoRows is valid")
	}
}

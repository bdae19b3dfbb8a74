package pane

import (
	"slices"
	"sort"
	"testing"
	"time"
)

func TestEchoes(t *testing.T) {
	cases := []struct {
		line, typed string
		want        bool
	}{
		{"$ sleep 2; echo DONE_7", "sleep 2; echo DONE_7", true},
		{"DONE_7", "sleep 2; echo DONE_7", false},
		{"bash-5.2$ make", "make", true},
		{"make: *** [all] Error 1", "make", false},
		{"make", "make", true}, // identical output is ambiguous: discounted
		{"% ls -la                                  [12:01]", "ls -la", true},
		{"> y", "y", true},
		{"yes", "y", false},
		{"partial more", "echo partial more", false},
		{"~/src> git status", "git status", true},
		{"❯ npm test", "npm test", true},
		{"xnpm test", "npm test", false},
		// a long line's echo caught while the terminal still draws it
		{"$ python3 -c 'print(4", "python3 -c 'print(42)'", true},
		{"python3 -c", "python3 -c 'print(42)'", true},
		{"$ pyth", "python3 -c 'print(42)'", false}, // too short to tell
		{"3 -c 'print(42)'", "python3 -c 'print(42)'", false},
	}
	for _, c := range cases {
		if got := echoes(c.line, c.typed); got != c.want {
			t.Errorf("echoes(%q, %q) = %v, want %v", c.line, c.typed, got, c.want)
		}
	}
}

func TestLedgerWindows(t *testing.T) {
	now := time.Now()
	l := Ledger{now: now, entries: map[string]EchoEntry{
		"a": {Text: "echo recent", Typed: now.Add(-2 * time.Second).UnixMilli(), Submitted: now.Add(-2 * time.Second).UnixMilli()},
		"b": {Text: "echo stale", Typed: now.Add(-20 * time.Second).UnixMilli(), Submitted: now.Add(-11 * time.Second).UnixMilli()},
		"c": {Text: "echo pending", Typed: now.Add(-time.Minute).UnixMilli()},
		"d": {Text: "line one\nline two", Typed: now.UnixMilli(), Submitted: now.UnixMilli()},
	}}
	for line, want := range map[string]bool{
		"$ echo recent": true, "$ echo stale": false, "$ echo pending": true,
		"> line two": true, "line one": true, "": false,
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
	if len(set) != 1 {
		t.Fatalf("set %v", set)
	}
	for _, v := range set {
		got := ledgerFrom(map[string]string{ledgerPrefix + "x": v}).entries[ledgerPrefix+"x"]
		if got.Text != "one two three" || got.Submitted == 0 {
			t.Errorf("entry %+v", got)
		}
	}
	// an empty ledger (none read) only adds
	set, unset = Ledger{}.plan("x", false)
	if len(set) != 1 || len(unset) != 0 {
		t.Errorf("empty ledger: set %v unset %v", set, unset)
	}
}

package pane

import (
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

package tmux

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A target resolves among the panes whose rows parse. A pane whose row did
// not may be the one named (its session name is unknown): then the target is
// ambiguous, unless its known fields rule it out.
func TestNamedWithBadRows(t *testing.T) {
	panes := []PaneInfo{{ID: "%1", SessionID: "$1", SessionName: "real", WindowID: "@1"}}
	badPane := &RowError{Pane: PaneInfo{ID: "%2", SessionID: "$2", WindowID: "@2", WindowIndex: 3}, Err: errors.New("cut short")}
	for target, want := range map[string]string{
		"real:3":   "ambiguous", // %2 may be in a session named real
		"real:0.0": "%1",        // %2 is window 3
		"real:1":   "0",
		"$1":       "ambiguous", // a session may be named "$1"
		"@1":       "%1",
		"@2":       "ambiguous",
		"build":    "ambiguous",
		"real:@1":  "%1",
	} {
		hits, err := named(target, panes, []*RowError{badPane})
		got := "ambiguous"
		if err == nil {
			got = fmt.Sprint(len(hits))
			if len(hits) == 1 {
				got = hits[0].ID
			}
		} else if !errors.Is(err, ErrAmbiguousTarget) || !strings.Contains(err.Error(), "%2") {
			t.Errorf("%q: %v", target, err)
		}
		if got != want {
			t.Errorf("%q names %s, want %s (%v)", target, got, want, err)
		}
	}
	if _, err := named("real", panes, []*RowError{{Err: errors.New("no fields")}}); !errors.Is(err, ErrAmbiguousTarget) {
		t.Errorf("a row with no known field: %v, want ambiguous", err)
	}
	if hits, err := named("real", panes, nil); err != nil || len(hits) != 1 {
		t.Errorf("no bad rows: %v, %v", hits, err)
	}
}

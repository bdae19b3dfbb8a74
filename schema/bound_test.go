package schema

import (
	"strings"
	"testing"
)

func TestBoundBytes(t *testing.T) {
	long := strings.Repeat("x", 100)
	lines := []string{"a", long, "bb", "ccc"}
	o := CaptureOutput{Output: lines, Note: "n"}
	if o.BoundBytes(1000) || len(o.Output) != 4 || o.Truncated {
		t.Errorf("within the bound: %+v", o)
	}
	// "bb\n" and "ccc\n" fit in 8 bytes; the 100-byte line does not
	if !o.BoundBytes(8) || strings.Join(o.Output, "|") != "bb|ccc" || !o.Truncated ||
		!strings.HasPrefix(o.Note, "n; output cut to its newest 0 KiB") || !strings.Contains(o.Note, "2 older lines left out") {
		t.Errorf("cut: %+v", o)
	}
	// the newest line alone too long: its end, on a rune boundary
	r := RunOutput{Output: []string{"old", "é" + strings.Repeat("y", 9)}}
	if !r.BoundBytes(11) || len(r.Output) != 1 || r.Output[0] != strings.Repeat("y", 9) {
		t.Errorf("newest line cut: %q", r.Output)
	}
}

// TestBoundBytesSeveral: the results of a wait over several panes share
// the budget; one pane's screen is kept whole.
func TestBoundBytesSeveral(t *testing.T) {
	rows := []string{"aaaa", "bbbb", "cccc"} // 5 bytes each, with a newline
	one := WaitForTurnOutput{WaitForTurnResult: WaitForTurnResult{Screen: rows}}
	if one.BoundBytes(6) || len(one.Screen) != 3 {
		t.Errorf("one pane: %+v", one)
	}
	r := WaitForTurnResult{PaneID: "%1", Screen: rows}
	all := WaitForTurnOutput{WaitForTurnResult: r, Results: []WaitForTurnResult{r, r}}
	if !all.BoundBytes(30) || len(all.Screen) != 2 || len(all.Results[1].Screen) != 2 ||
		!strings.Contains(all.Results[0].Note, "1 rows above left out") {
		t.Errorf("several panes, 10 bytes each: %+v", all)
	}
	text := WaitForTextOutput{WaitForTextResult: WaitForTextResult{Output: rows},
		Results: []WaitForTextResult{{Output: rows}}}
	if !text.BoundBytes(20) || len(text.Output) != 2 || !text.Results[0].Truncated {
		t.Errorf("text over several panes, 10 bytes each: %+v", text)
	}
}

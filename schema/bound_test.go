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

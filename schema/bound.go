package schema

import (
	"fmt"
	"unicode/utf8"
)

// MaxResultBytes bounds the output lines of one MCP tool result. Clients
// cut longer results (Claude Code keeps a 2 KB preview of a 130 KB one,
// Codex about 12 KB), and a model pays for every byte it reads.
const MaxResultBytes = 32 << 10

// Bounded is an output whose lines can be cut to a byte budget.
type Bounded interface {
	// BoundBytes keeps the newest lines that fit in max bytes, marks the
	// output truncated and says so in its note. It reports whether it cut.
	BoundBytes(max int) bool
}

// boundLines cuts lines to max bytes, keeping the newest, and marks the cut
// in truncated and note.
func boundLines(lines *[]string, truncated *bool, note *string, max int) bool {
	kept, left, cut := keepBytes(*lines, max)
	if cut {
		*lines, *truncated = kept, true
		*note = JoinNotes(*note, fmt.Sprintf("output cut to its newest %d KiB for this result (%d older lines left out); read them with capture and a smaller max_lines", max>>10, left))
	}
	return cut
}

// keepBytes keeps the newest lines whose bytes (a newline each) fit in
// max, and at least the end of the newest line. It returns the lines kept
// and how many were left out.
func keepBytes(lines []string, max int) ([]string, int, bool) {
	size, i := 0, len(lines)
	for i > 0 && size+len(lines[i-1])+1 <= max {
		size += len(lines[i-1]) + 1
		i--
	}
	if i == 0 {
		return lines, 0, false
	}
	if i == len(lines) { // the newest line alone is too long: keep its end
		last := lines[i-1]
		at := len(last) - max + 1
		for at < len(last) && !utf8.RuneStart(last[at]) {
			at++
		}
		return []string{last[at:]}, len(lines) - 1, true
	}
	return lines[i:], i, true
}

// BoundBytes cuts Output (see Bounded).
func (o *CaptureOutput) BoundBytes(max int) bool {
	return boundLines(&o.Output, &o.Truncated, &o.Note, max)
}

// BoundBytes cuts Output (see Bounded).
func (o *WaitForTextOutput) BoundBytes(max int) bool {
	return boundLines(&o.Output, &o.Truncated, &o.Note, max)
}

// BoundBytes cuts Output (see Bounded).
func (o *RunOutput) BoundBytes(max int) bool {
	return boundLines(&o.Output, &o.Truncated, &o.Note, max)
}

// BoundBytes cuts Output (see Bounded).
func (o *StatusOutput) BoundBytes(max int) bool {
	return boundLines(&o.Output, &o.Truncated, &o.Note, max)
}

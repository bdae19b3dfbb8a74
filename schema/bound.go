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

// BoundBytes cuts Output (see Bounded). With results, every pane's
// output and the top one share max.
func (o *WaitForTextOutput) BoundBytes(max int) bool {
	share := max / (len(o.Results) + 1)
	cut := boundLines(&o.Output, &o.Truncated, &o.Note, share)
	for i := range o.Results {
		r := &o.Results[i]
		cut = boundLines(&r.Output, &r.Truncated, &r.Note, share) || cut
	}
	return cut
}

// BoundBytes cuts the screens of a result over several panes (see
// boundScreens).
func (o *WaitForTurnOutput) BoundBytes(max int) bool {
	return boundScreens(max, len(o.Results), func(i int) (*[]string, *string) {
		if i < 0 {
			return &o.Screen, &o.Note
		}
		return &o.Results[i].Screen, &o.Results[i].Note
	})
}

// BoundBytes cuts the screens of a result over several panes (see
// boundScreens).
func (o *WaitForQuietOutput) BoundBytes(max int) bool {
	return boundScreens(max, len(o.Results), func(i int) (*[]string, *string) {
		if i < 0 {
			return &o.Screen, &o.Note
		}
		return &o.Results[i].Screen, &o.Results[i].Note
	})
}

// boundScreens cuts the screens of a result with n results: the top one
// (screen(-1)) and each result's (screen(i)) share max. Without results
// nothing is cut: one pane's screen is bounded by its height.
func boundScreens(max, n int, screen func(i int) (rows *[]string, note *string)) bool {
	cut := false
	for i := -1; i < n && n > 0; i++ {
		rows, note := screen(i)
		cut = boundScreen(rows, note, max/(n+1)) || cut
	}
	return cut
}

// boundScreen cuts a screen's rows to max bytes, keeping the bottom ones,
// and says so in note.
func boundScreen(rows *[]string, note *string, max int) bool {
	kept, left, cut := keepBytes(*rows, max)
	if cut {
		*rows = kept
		*note = JoinNotes(*note, fmt.Sprintf("screen cut to its bottom %d bytes for this result over several panes (%d rows above left out)", max, left))
	}
	return cut
}

// BoundBytes cuts Output (see Bounded).
func (o *RunOutput) BoundBytes(max int) bool {
	return boundLines(&o.Output, &o.Truncated, &o.Note, max)
}

// BoundBytes cuts Output (see Bounded).
func (o *StatusOutput) BoundBytes(max int) bool {
	return boundLines(&o.Output, &o.Truncated, &o.Note, max)
}

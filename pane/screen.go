package pane

import (
	"context"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/panectl/panectl/tmux"
)

// Screen is the visible screen of a pane, as displayed. It holds one string
// per row, not joined into logical lines. Trailing whitespace is trimmed
// and trailing blank rows are removed. The pane's description comes from
// the same snapshot.
type Screen struct {
	Rows     []string      // plain rows: escapes stripped
	ANSIRows []string      // the same rows with colour escapes (only when asked for)
	Info     tmux.PaneInfo // cursor, size, alternate_on, title, command, dead
}

// Same reports whether two looks show the same content. The rows, size and
// screen (normal or alternate) must be the same. The cursor position is not
// compared. A cursor moved about by a redraw of identical content, or a
// blink, is not a change.
func (s Screen) Same(o Screen) bool {
	if s.Info.Width != o.Info.Width || s.Info.Height != o.Info.Height || s.Info.AlternateOn != o.Info.AlternateOn {
		return false
	}
	if len(s.Rows) != len(o.Rows) {
		return false
	}
	for i := range s.Rows {
		if s.Rows[i] != o.Rows[i] {
			return false
		}
	}
	return true
}

// Last returns the last n rows (all when n <= 0 or n is larger).
func (s Screen) Last(n int) []string {
	return lastN(s.Rows, n)
}

func lastN(rows []string, n int) []string {
	if n <= 0 || n >= len(rows) {
		return rows
	}
	return rows[len(rows)-n:]
}

// CaptureScreen takes one look at the visible screen. It takes the
// description and the rows in one tmux command list, so they show the same
// instant. With withANSI the rows are also captured with their colour
// escapes.
func CaptureScreen(ctx context.Context, c *tmux.Client, id string, withANSI bool) (Screen, error) {
	return CaptureScreenVia(ctx, c, id, withANSI)
}

// CaptureScreenVia is CaptureScreen through any snapshotter. That is a tmux
// process (*tmux.Client), or an attached control client (*tmux.Control),
// which starts no process.
func CaptureScreenVia(ctx context.Context, via tmux.Snapshotter, id string, withANSI bool) (Screen, error) {
	s, _, err := CaptureScreenOptions(ctx, via, id, withANSI, "")
	return s, err
}

// CaptureScreenOptions is CaptureScreenVia that also reads the pane options
// named with prefix ("": none), in the same command list.
func CaptureScreenOptions(ctx context.Context, via tmux.Snapshotter, id string, withANSI bool, prefix string) (Screen, map[string]string, error) {
	specs := []tmux.CaptureSpec{{Start: 0, ToBottom: true}}
	if withANSI {
		specs = append(specs, tmux.CaptureSpec{Start: 0, ToBottom: true, Escapes: true})
	}
	info, texts, opts, err := via.SnapshotOptions(ctx, id, prefix, specs...)
	if err != nil {
		return Screen{}, nil, err
	}
	s := Screen{Info: info}
	for _, r := range splitRows(texts[0]) {
		s.Rows = append(s.Rows, trimRow(ansi.Strip(r)))
	}
	n := lastNonBlank(s.Rows) + 1
	s.Rows = s.Rows[:n]
	if withANSI {
		rows := splitRows(texts[1])
		for i := 0; i < n; i++ {
			r := ""
			if i < len(rows) {
				r = trimRow(rows[i])
			}
			s.ANSIRows = append(s.ANSIRows, r)
		}
	}
	if s.Rows == nil {
		s.Rows = []string{}
	}
	return s, opts, nil
}

// Settle bounds StableScreen. Captures Gap apart must agree. After Max the
// last capture is returned as it is.
type Settle struct {
	Gap time.Duration // pause between two captures (default 50ms)
	Max time.Duration // give up waiting for agreement after this (default 1s)
}

// DefaultSettle is what `screen` and `recognize` use.
var DefaultSettle = Settle{Gap: 50 * time.Millisecond, Max: time.Second}

// StableScreen returns the screen once output has paused briefly. That is
// two captures Gap apart that show the same content (Screen.Same). So a
// frame in the middle of a redraw is not returned. A program that redraws
// without pause still gets an answer after about settle.Max. stable is then
// false.
func StableScreen(ctx context.Context, c *tmux.Client, id string, withANSI bool, settle Settle) (s Screen, stable bool, err error) {
	if settle.Gap <= 0 {
		settle.Gap = DefaultSettle.Gap
	}
	if settle.Max <= 0 {
		settle.Max = DefaultSettle.Max
	}
	deadline := time.Now().Add(settle.Max)
	prev, err := CaptureScreen(ctx, c, id, withANSI)
	if err != nil {
		return Screen{}, false, err
	}
	for {
		t := time.NewTimer(settle.Gap)
		select {
		case <-ctx.Done():
			t.Stop()
			return prev, false, ctx.Err()
		case <-t.C:
		}
		next, err := CaptureScreen(ctx, c, id, withANSI)
		if err != nil {
			return Screen{}, false, err
		}
		if next.Same(prev) {
			return next, true, nil
		}
		if !time.Now().Before(deadline) {
			return next, false, nil
		}
		prev = next
	}
}

package pane

import (
	"testing"

	"github.com/panectl/panectl/tmux"
)

func scr(pid int, rows ...string) Screen {
	return Screen{Rows: rows, Info: tmux.PaneInfo{PID: pid, Width: 80, Height: 24}}
}

func TestScreenSameIgnoresCursor(t *testing.T) {
	a, b := scr(1, "x"), scr(1, "x")
	b.Info.CursorX = 5
	if !a.Same(b) {
		t.Fatal("a cursor move is not a change")
	}
	b.Info.AlternateOn = true
	if a.Same(b) {
		t.Fatal("switching to the alternate screen is a change")
	}
}

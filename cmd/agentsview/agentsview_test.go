package agentsview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/panectl/panectl/schema"
)

// The table fits any width: narrow terminals drop columns, never the line.
func TestRenderFits(t *testing.T) {
	rows := []schema.Agent{
		{PaneID: "%1", SessionName: "a-very-long-session-name", Recognizer: "claude", State: schema.StateAwaitingApproval,
			Title: "✳ Claude Code", Line: "Do you want to proceed? " + strings.Repeat("x", 100)},
		{PaneID: "%12", SessionName: "b", Recognizer: "shell", State: schema.StateAwaitingInput, Line: "$"},
	}
	for _, size := range [][2]int{{80, 24}, {40, 12}, {20, 5}} {
		m := &model{rows: rows, width: size[0], height: size[1]}
		lines := strings.Split(ansi.Strip(m.render()), "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines, want %d", size[0], size[1], len(lines), size[1])
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %q is %d cells wide", size[0], size[1], l, w)
			}
		}
		if !strings.HasPrefix(lines[0], "PANE  STATE") || !strings.Contains(lines[1], "approval") {
			t.Errorf("%dx%d: heading and first row %q, %q", size[0], size[1], lines[0], lines[1])
		}
	}
}

// Keys move the selection, which stays on its pane as rows change.
func TestKeysMoveSelection(t *testing.T) {
	m := &model{rows: []schema.Agent{{PaneID: "%1"}, {PaneID: "%2"}, {PaneID: "%3"}}}
	m.key("down")
	m.key("j")
	m.key("down") // past the end: stays on the last
	if m.sel != "%3" {
		t.Fatalf("selected %s after three downs, want %%3", m.sel)
	}
	m.rows = m.rows[1:]
	if i := m.selected(); i != 1 {
		t.Errorf("selection moved to row %d when a row above went, want 1", i)
	}
	m.key("up")
	if m.sel != "%2" {
		t.Errorf("selected %s after up, want %%2", m.sel)
	}
}

// Text from a pane cannot drive the terminal.
func TestCutReplacesControls(t *testing.T) {
	if got := Cut("a\x1b]0;evil\x07b\nc", 80); got != "a?]0;evil?b?c" {
		t.Errorf("Cut = %q", got)
	}
	if got := Cut("abcdef", 4); ansi.StringWidth(got) > 4 {
		t.Errorf("Cut to 4 cells = %q", got)
	}
}

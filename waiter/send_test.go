package waiter

import (
	"strings"
	"testing"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
)

func TestInputKey(t *testing.T) {
	for text, want := range map[string]string{
		"hello":                       "hello",
		"say hello copilot":           "hellocopilot",
		"sleep 2; echo \"TAB\tDONE\"": "cho\"TABDONE\"",
		"first line\nsecond line\n\n": "secondline",
		"  \n\t":                      "",
		"│ boxed │":                   "boxed",
	} {
		if got := inputKey(text); got != want {
			t.Errorf("inputKey(%q) = %q, want %q", text, got, want)
		}
	}
}

func scr(x, y, width int, rows ...string) pane.Screen {
	return pane.Screen{Rows: rows, Info: tmux.PaneInfo{CursorX: x, CursorY: y, Width: width}}
}

// The input line up to the cursor: a composer that took Enter as a newline
// still holds the text (on the row above the cursor); one that submitted
// shows its prompt (or placeholder) before the cursor; a shell's cursor on a
// new row has left the text.
func TestBeforeCursor(t *testing.T) {
	cases := []struct {
		name  string
		s     pane.Screen
		shell bool
		held  bool
	}{
		{"composer holds it", scr(7, 1, 40, "transcript", "› hello"), false, true},
		{"composer newline", scr(2, 2, 40, "transcript", "› hello", ""), false, true},
		{"composer submitted", scr(2, 3, 40, "› hello", "• OK done.", "", "› Ask Codex to do anything"), false, false},
		{"framed composer newline", scr(5, 2, 40, "┃", "┃  hello", "┃  "), false, true},
		{"framed composer submitted", scr(5, 1, 40, "┃", "┃  "), false, false},
		{"shell echo", scr(7, 0, 40, "$ hello"), true, true},
		{"shell ran it", scr(0, 1, 40, "$ hello", ""), true, false},
		{"shell next prompt", scr(2, 2, 40, "$ echo hello", "hello", "$ "), true, false},
		{"shell wrapped line", scr(4, 1, 10, "$ abcdefhe", "llo"), true, true},
	}
	for _, c := range cases {
		if got := strings.Contains(squeeze(beforeCursor(c.s, c.shell)), inputKey("hello")); got != c.held {
			t.Errorf("%s: before cursor %q holds hello = %v, want %v", c.name, beforeCursor(c.s, c.shell), got, c.held)
		}
	}
}

func TestLongestLine(t *testing.T) {
	cases := []struct {
		pending, text string
		cr            bool
		want          int
	}{
		{"", "abc", true, 3},
		{"ab", "cd\nxyz12", true, 5},
		{"", "a\rbcd", true, 3},
		{"", "a\rbcd", false, 5},
	}
	for _, c := range cases {
		if got := longestLine(c.pending, c.text, c.cr); got != c.want {
			t.Errorf("longestLine(%q, %q) = %d, want %d", c.pending, c.text, got, c.want)
		}
	}
}

// A line that asks for a secret marks text typed after it as one.
func TestSecretPrompt(t *testing.T) {
	for line, want := range map[string]bool{
		"Password: ":                       true,
		"[sudo] password for root: ":       true,
		"Enter passphrase for key '/a/b':": true,
		"API token> ":                      true,
		"Enter PIN:":                       true,
		"$ ":                               false,
		"Name: ":                           false,
		"spinning: ":                       false,
		"password manager installed":       false,
	} {
		if got := secretPrompt().MatchString(line); got != want {
			t.Errorf("secretPrompt(%q) = %v, want %v", line, got, want)
		}
	}
}

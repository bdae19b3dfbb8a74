package pane

import "testing"

// landedOn: the rows after a place show where typing landed, as typed or
// as a line editor redrew it from a control character on (completion).
func TestLandedOn(t *testing.T) {
	for _, c := range []struct {
		typed, shown string
		want         bool
	}{
		{"echo QQ3", "echo QQ3", true},
		{"echo QQ3", "ec  ho QQ3", true}, // blanks aside
		{"echo QQ3", "QQ3", false},       // later output, not the echo (stty -echo)
		{"echo QQ3", "", false},
		{"   ", "anything", false},
		// a TAB in the first word: bash and fish complete it to "echo ",
		// zsh -f to "echo"; the typed part or the text after it shows
		{"ech\tQQ3 QQ4", "echo QQ3 QQ4", true},
		{"ech\tQQ3 QQ4", "echoQQ3 QQ4", true},
		{"ech\tQQ3 QQ4", "ech     QQ3 QQ4", true}, // no line editor: the tab as blanks
		{"ECH\tQQ3 QQ4", "echo QQ3 QQ4", true},    // completed ignoring case
		{"ech\tQQ3 QQ4", "PID USER", false},
		// a TAB in a later word: the words before it must show as typed
		{"sleep 2; echo \"TAB\tDONE\"", "sleep 2; echo \"TAB     DONE\"", true},
		{"cd /us\tloc\t", "cd /usr/local/", true},
		{"cd /us\tloc\t", "QQ3", false},
		{"\t", "echo", true}, // nothing printable typed: anything drawn
		{"\t", "", false},
	} {
		if got := landedOn(c.typed, c.shown); got != c.want {
			t.Errorf("landedOn(%q, %q) = %v, want %v", c.typed, c.shown, got, c.want)
		}
	}
}

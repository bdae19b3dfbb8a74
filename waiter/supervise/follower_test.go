package supervise

import "testing"

// The last meaningful line skips rules, box borders and blank rows.
func TestLastLine(t *testing.T) {
	for _, c := range []struct {
		rows []string
		want string
	}{
		{[]string{">>>"}, ">>>"},
		{[]string{"  Do you want to proceed?", "╭──────╮", "│      │", "╰──────╯", "────", ""}, "Do you want to proceed?"},
		{[]string{"answer", "────────", "> ", "────────", "  ? for shortcuts  "}, "? for shortcuts"},
		{[]string{"", "   "}, ""},
	} {
		if got := lastLine(c.rows); got != c.want {
			t.Errorf("lastLine(%q) = %q, want %q", c.rows, got, c.want)
		}
	}
}

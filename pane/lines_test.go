package pane

import "testing"

func TestCleanLine(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[31mred\x1b[0m  ": "red",
		"中文|x":                 "中文|x",
		"e\u0301  \t":          "e\u0301",
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\": "link",
	} {
		if got := cleanLine(in, false); got != want {
			t.Errorf("cleanLine(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cleanLine("\x1b[1mbold\x1b[0m  ", true); got != "\x1b[1mbold\x1b[0m" {
		t.Errorf("keepANSI: %q", got)
	}
}

func TestCutPlainPrefix(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"$ echo hi", 2, "echo hi"},
		{"\x1b[32m$\x1b[0m echo", 2, "\x1b[32m\x1b[0mecho"},
		{"ab", 5, ""},
		{"中文x", 6, "x"},
	} {
		if got := cutPlainPrefix(c.in, c.n); got != c.want {
			t.Errorf("cutPlainPrefix(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

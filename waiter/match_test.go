package waiter

import (
	"errors"
	"strings"
	"testing"
)

func TestMatcher(t *testing.T) {
	cases := []struct {
		patterns   []string
		regex      bool
		ignoreCase bool
		line       string
		want       string
	}{
		{[]string{"DONE"}, false, false, "all DONE now", "DONE"},
		{[]string{"done"}, false, false, "all DONE now", ""},
		{[]string{"done"}, false, true, "all DONE now", "done"},
		{[]string{"a.c"}, false, false, "abc", ""},
		{[]string{"a.c"}, true, false, "abc", "a.c"},
		{[]string{`foo(?!bar)`}, true, false, "foobar", ""},
		{[]string{`foo(?!bar)`}, true, false, "foobaz", `foo(?!bar)`},
		{[]string{`(?i)^ok$`}, true, false, "OK", `(?i)^ok$`},
		{[]string{`^\$$`}, true, false, "$", `^\$$`},
		{[]string{`^(ab)\1$`}, true, false, "abab", `^(ab)\1$`},
		{[]string{"x", "y"}, false, false, "why", "y"},
	}
	for _, c := range cases {
		m, err := NewMatcher("pattern", c.patterns, c.regex, c.ignoreCase)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := m.Match(c.line); got != c.want {
			t.Errorf("%v regex=%v ic=%v Match(%q) = %q, want %q", c.patterns, c.regex, c.ignoreCase, c.line, got, c.want)
		}
	}
}

func TestMatcherLimits(t *testing.T) {
	many := make([]string, MaxPatterns+1)
	for i := range many {
		many[i] = "x"
	}
	for _, c := range []struct {
		p     []string
		regex bool
		why   string
	}{
		{many, false, "at most 32"},
		{[]string{strings.Repeat("a", MaxPatternLength+1)}, false, "at most 4096"},
		{[]string{""}, false, "empty"},
		{[]string{"a(b"}, true, "a(b"},
		{[]string{"ok", "a\xffb"}, false, "2 holds bytes that are not UTF-8"},
		{[]string{"a\xffb"}, true, "not UTF-8"},
	} {
		_, err := NewMatcher("pattern", c.p, c.regex, false)
		if !errors.Is(err, ErrInvalidPattern) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("NewMatcher(%.20q): %v, want ErrInvalidPattern mentioning %q", c.p, err, c.why)
		}
	}
}

// The limit is in characters (SPEC.md section 3, and maxLength in the JSON
// Schema), not bytes: 4096 two-byte characters are allowed.
func TestMatcherLimitIsCharacters(t *testing.T) {
	if _, err := NewMatcher("pattern", []string{strings.Repeat("é", MaxPatternLength)}, false, false); err != nil {
		t.Errorf("4096 characters of é: %v", err)
	}
	_, err := NewMatcher("pattern", []string{strings.Repeat("é", MaxPatternLength+1)}, false, false)
	if err == nil || !strings.Contains(err.Error(), "is 4097 characters") {
		t.Errorf("4097 characters of é: %v", err)
	}
}

func TestCatastrophicPatternIsBounded(t *testing.T) {
	m, err := NewMatcher("pattern", []string{`^(a+)+$`}, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Match(strings.Repeat("a", 40) + "!"); ok {
		t.Fatal("should not match")
	}
	if m.TimedOut != 1 {
		t.Fatalf("TimedOut = %d, want the match abandoned", m.TimedOut)
	}
}

func FuzzNewMatcher(f *testing.F) {
	f.Add("foo(?!bar)", "foobaz", true)
	f.Add("(a+)+$", "aaaa!", true)
	f.Add("plain", "a plain line", false)
	f.Fuzz(func(t *testing.T, pattern, line string, regex bool) {
		m, err := NewMatcher("pattern", []string{pattern}, regex, false)
		if err != nil {
			if !errors.Is(err, ErrInvalidPattern) {
				t.Fatalf("error does not wrap ErrInvalidPattern: %v", err)
			}
			return
		}
		m.Match(line)
	})
}

func TestMatcherHasTab(t *testing.T) {
	for _, c := range []struct {
		pattern string
		regex   bool
		want    bool
	}{
		{"a\tb", false, true},
		{"a\tb", true, true},
		{`a\tb`, false, false}, // plain: a backslash and a t
		{`a\tb`, true, true},
		{`\t`, true, true},
		{`a\\tb`, true, false}, // a backslash, then t
		{`a\\\tb`, true, true},
		{`a\s+b`, true, false},
	} {
		m, err := NewMatcher("pattern", []string{c.pattern}, c.regex, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.hasTab(); got != c.want {
			t.Errorf("%q (regex %v): hasTab %v, want %v", c.pattern, c.regex, got, c.want)
		}
	}
	var none *Matcher
	if none.hasTab() {
		t.Error("nil matcher has a tab")
	}
}

package waiter

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// Input limits (SPEC.md section 3).
const (
	MaxPatterns      = 32
	MaxPatternLength = 4096
	// MatchTimeout bounds one regexp2 match on a line, so a catastrophic pattern cannot hang.
	MatchTimeout = 100 * time.Millisecond
)

// ErrInvalidPattern: a pattern that cannot be compiled or breaks a limit.
var ErrInvalidPattern = errors.New("invalid pattern")

// Matcher matches logical lines against patterns: plain substrings or regexp2 expressions. regexp2
// has Perl/.NET syntax with lookaround, backreferences and (?i). ^ and $ anchor at the line's ends.
type Matcher struct {
	raw      []string
	plain    []string
	res      []*regexp2.Regexp
	fold     bool
	TimedOut int // matches abandoned at MatchTimeout
}

// NewMatcher compiles patterns, and what names them in errors ("pattern", "stop"). A pattern that
// is empty, too long, not UTF-8 or not valid regexp2 is ErrInvalidPattern (exit 2). A pane's text
// is decoded as UTF-8, so a pattern that is not could never match.
func NewMatcher(what string, patterns []string, regex, ignoreCase bool) (*Matcher, error) {
	if len(patterns) > MaxPatterns {
		return nil, fmt.Errorf("%w: %d %ss given, at most %d allowed", ErrInvalidPattern, len(patterns), what, MaxPatterns)
	}
	m := &Matcher{raw: patterns, fold: ignoreCase}
	for i, p := range patterns {
		if p == "" {
			return nil, fmt.Errorf("%w: %s %d is empty", ErrInvalidPattern, what, i+1)
		}
		if !utf8.ValidString(p) {
			return nil, fmt.Errorf("%w: %s %d holds bytes that are not UTF-8: a pane's text is read as UTF-8, so it could never match", ErrInvalidPattern, what, i+1)
		}
		if n := utf8.RuneCountInString(p); n > MaxPatternLength {
			return nil, fmt.Errorf("%w: %s %d is %d characters, at most %d allowed", ErrInvalidPattern, what, i+1, n, MaxPatternLength)
		}
		if !regex {
			if ignoreCase {
				p = strings.ToLower(p)
			}
			m.plain = append(m.plain, p)
			continue
		}
		var opts []regexp2.CompileOption
		if ignoreCase {
			opts = append(opts, regexp2.IgnoreCase)
		}
		re, err := regexp2.Compile(p, opts...)
		if err != nil {
			return nil, fmt.Errorf("%w: %s %q: %v", ErrInvalidPattern, what, p, err)
		}
		re.MatchTimeout = MatchTimeout
		m.res = append(m.res, re)
	}
	return m, nil
}

// Match returns the first pattern (as given) that matches line.
func (m *Matcher) Match(line string) (string, bool) {
	if m == nil {
		return "", false
	}
	if m.plain != nil {
		l := line
		if m.fold {
			l = strings.ToLower(line)
		}
		for i, p := range m.plain {
			if strings.Contains(l, p) {
				return m.raw[i], true
			}
		}
		return "", false
	}
	for i, re := range m.res {
		ok, err := re.MatchString(line)
		if err != nil {
			m.TimedOut++
			continue
		}
		if ok {
			return m.raw[i], true
		}
	}
	return "", false
}

// hasTab reports whether a pattern looks for a tab: a tab character, or the escape \t in a regex.
func (m *Matcher) hasTab() bool {
	if m == nil {
		return false
	}
	for _, p := range m.raw {
		if strings.ContainsRune(p, '\t') || (m.res != nil && regexTabEscape().MatchString(p)) {
			return true
		}
	}
	return false
}

// regexTabEscape finds \t after an even number of backslashes (\\t is a backslash and a t).
var regexTabEscape = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^\\])(\\\\)*\\t`) })

// Len is the number of patterns.
func (m *Matcher) Len() int {
	if m == nil {
		return 0
	}
	return len(m.raw)
}

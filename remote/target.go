package remote

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Target is a host as -H names it: [user@]host[:port], or [host]:port for
// an IPv6 address. Host may also be a Host alias of the ssh config.
type Target struct {
	User, Host, Port string
}

// ParseTarget parses -H's value. It refuses what ssh could take for an
// option (a leading "-") and any space or control character.
func ParseTarget(s string) (Target, error) {
	var t Target
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		t.User, s = s[:i], s[i+1:]
		if t.User == "" {
			return t, fmt.Errorf("host %q: empty user before @", s)
		}
	}
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return t, fmt.Errorf("host %q: no ] after [", s)
		}
		t.Host, s = s[1:end], s[end+1:]
		if s != "" && !strings.HasPrefix(s, ":") {
			return t, fmt.Errorf("host %q: want [ADDRESS]:PORT", "["+t.Host+"]"+s)
		}
		t.Port = strings.TrimPrefix(s, ":")
	case strings.Count(s, ":") == 1:
		t.Host, t.Port, _ = strings.Cut(s, ":")
	default:
		t.Host = s // a name, or an IPv6 address without a port
	}
	return t, t.check()
}

func (t Target) check() error {
	if t.Host == "" {
		return fmt.Errorf("no host in %q", t.String())
	}
	for _, part := range []string{t.User, t.Host} {
		if strings.HasPrefix(part, "-") || strings.IndexFunc(part, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
			return fmt.Errorf("host %q: a leading '-', a space or a control character is not allowed", t.String())
		}
	}
	if t.Port != "" {
		if n, err := strconv.Atoi(t.Port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("host %q: port %q is not a number in 1..65535", t.String(), t.Port)
		}
	}
	return nil
}

// String is the target as -H takes it.
func (t Target) String() string {
	s := t.Host
	if strings.Contains(s, ":") {
		s = "[" + s + "]"
	}
	if t.Port != "" {
		s += ":" + t.Port
	}
	if t.User != "" {
		s = t.User + "@" + s
	}
	return s
}

// destination is ssh's destination argument: [user@]host.
func (t Target) destination() string {
	if t.User != "" {
		return t.User + "@" + t.Host
	}
	return t.Host
}

package tmux

import (
	"context"
	"fmt"
	"strings"
)

// CompareAndSetPaneOption sets the pane's user option name to new only when its
// value is old. old "" matches an unset or empty option, new "" empties it. It
// returns the value held afterwards, new when the swap happened. Test and
// change are one command: set-option -F expands the value as a format (tmux(1),
// set-option -F; FORMATS "#{?...}" and "#{==:...}"), new when the option is
// old, else its own value, with no other client's command between. A
// show-options in the same list reads the result. Values must be plain tokens
// (letters, digits, '.', '_', '-'), which tmux's parsers pass unchanged. Both
// commands may go through a control client (ownOptionWrite).
func (c *Client) CompareAndSetPaneOption(ctx context.Context, id, name, old, new string) (string, error) {
	if !strings.HasPrefix(name, "@") || !plainToken(name[1:]) || !plainToken(old) || !plainToken(new) || !strings.HasPrefix(id, "%") || !plainToken(id[1:]) {
		return "", fmt.Errorf("compare-and-set of pane %s option %s: %q -> %q: not plain tokens", id, name, old, new)
	}
	out, err := c.RunList(ctx, nil,
		Command{"set-option", "-p", "-t", id, "-F", name, casFormat(name, old, new)},
		Command{"show-options", "-p", "-q", "-v", "-t", id, name})
	if err != nil {
		return "", c.notFound(id, err)
	}
	return strings.TrimSuffix(out, "\n"), nil
}

// casFormat is the format that expands to new when option name holds old,
// else to the option's own value.
func casFormat(name, old, new string) string {
	return "#{?#{==:#{" + name + "}," + old + "}," + new + ",#{" + name + "}}"
}

// plainToken reports whether s holds only letters, digits, '.', '_' and '-'.
func plainToken(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

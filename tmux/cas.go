package tmux

import (
	"context"
	"fmt"
	"strings"
)

// CompareAndSetPaneOption sets the pane's user option name to new only when
// its value is old ("" matches an unset option; new "" unsets it), and
// returns the value it holds afterwards: new when the swap happened. The
// test and the change are one tmux command list, run by the server without
// any other client's command in between: if-shell -F evaluates the
// comparison as a format (no shell is started) and runs the chosen command
// at once, before the show-options that follows it (tmux(1), if-shell,
// FORMATS "#{==:...}"). Values must be plain tokens (letters, digits, '.',
// '_', '-'), which pass tmux's command and format parsers unchanged.
func (c *Client) CompareAndSetPaneOption(ctx context.Context, id, name, old, new string) (string, error) {
	if !strings.HasPrefix(name, "@") || !plainToken(name[1:]) || !plainToken(old) || !plainToken(new) || !strings.HasPrefix(id, "%") || !plainToken(id[1:]) {
		return "", fmt.Errorf("compare-and-set of pane %s option %s: %q -> %q: not plain tokens", id, name, old, new)
	}
	set := "set-option -p -t " + id + " " + name + " " + new
	if new == "" {
		set = "set-option -p -u -t " + id + " " + name
	}
	out, err := c.RunList(ctx, nil,
		Command{"if-shell", "-F", "-t", id, "#{==:#{" + name + "}," + old + "}", set},
		Command{"show-options", "-p", "-q", "-v", "-t", id, name})
	if err != nil {
		return "", c.notFound(id, err)
	}
	return strings.TrimSuffix(out, "\n"), nil
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

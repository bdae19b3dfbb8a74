package tmux

import (
	"context"
	"fmt"
	"strings"
)

// PaneOptions returns the pane's user options (set-option -p) starting with
// prefix, itself starting with "@". Values must be plain tokens, which
// show-options prints unquoted; panectl stores base64url.
func (c *Client) PaneOptions(ctx context.Context, id, prefix string) (map[string]string, error) {
	out, err := c.Run(ctx, "show-options", "-p", "-t", id)
	if err != nil {
		return nil, c.notFound(id, err)
	}
	return parseOptions(id, out, prefix)
}

// parseOptions reads show-options' "name value" lines of plain tokens, keeping
// names starting with prefix.
func parseOptions(id, out, prefix string) (map[string]string, error) {
	opts := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok || !strings.HasPrefix(name, prefix) {
			continue
		}
		if strings.HasPrefix(value, `"`) {
			return nil, fmt.Errorf("pane %s option %s holds a quoted value %q that panectl did not write", id, name, value)
		}
		opts[name] = value
	}
	return opts, nil
}

// PaneOption returns one user option of the pane, "" when unset.
func (c *Client) PaneOption(ctx context.Context, id, name string) (string, error) {
	out, err := c.Run(ctx, "show-options", "-p", "-q", "-v", "-t", id, name)
	if err != nil {
		return "", c.notFound(id, err)
	}
	return strings.TrimSuffix(out, "\n"), nil
}

// SetPaneOptions sets and unsets pane user options in one list, atomic towards
// other panectl processes. Each option is its own key: no read-modify-write.
func (c *Client) SetPaneOptions(ctx context.Context, id string, set map[string]string, unset []string) error {
	list, err := optionCommands(id, set, unset)
	if err != nil || len(list) == 0 {
		return err
	}
	return c.runLong(ctx, id, list)
}

// optionCommands is the command list of SetPaneOptions (nil: nothing to do).
func optionCommands(id string, set map[string]string, unset []string) (CommandList, error) {
	var list CommandList
	for k, v := range set {
		if strings.HasSuffix(v, ";") || strings.ContainsAny(v, " \"'\n") {
			return nil, fmt.Errorf("pane option %s: value %q is not a plain token", k, v)
		}
		list.Add("set-option", "-p", "-t", id, k, v)
	}
	for _, k := range unset {
		list.Add("set-option", "-p", "-u", "-t", id, k)
	}
	return list, nil
}

// runLong runs a list of plain-token arguments. One too long for a command line
// ("command too long") goes as a configuration file on stdin, a command a line,
// arguments single-quoted (taken literally), run as one unit.
func (c *Client) runLong(ctx context.Context, id string, list CommandList) error {
	if list.size() <= maxCommand {
		_, err := c.RunList(ctx, nil, list...)
		return c.notFound(id, err)
	}
	var script strings.Builder
	for _, cmd := range list {
		for _, a := range cmd {
			if strings.ContainsAny(a, "'\n") {
				return fmt.Errorf("pane option argument %q cannot be quoted", a)
			}
			script.WriteString("'" + a + "' ")
		}
		script.WriteString("\n")
	}
	_, err := c.RunList(ctx, []byte(script.String()), Command{"source-file", "-"})
	return c.notFound(id, err)
}

// maxCommand bounds one command line: the client sends its arguments in one
// message of at most 16 KiB (MAX_IMSGSIZE), refusing more ("command too long").
const maxCommand = 8 << 10

// SetPaneOption sets one pane option (set-option -p) to any value, even "".
// The commands with run after it in the same tmux call.
func (c *Client) SetPaneOption(ctx context.Context, id, name, value string, with ...Command) error {
	_, err := c.RunList(ctx, nil, append(CommandList{{"set-option", "-p", "-t", id, name, value}}, with...)...)
	return c.notFound(id, err)
}

// UnsetPaneOption removes the pane's own value (set-option -p -u), so the
// window's or global value applies again.
func (c *Client) UnsetPaneOption(ctx context.Context, id, name string) error {
	_, err := c.Run(ctx, "set-option", "-p", "-u", "-t", id, name)
	return c.notFound(id, err)
}

// EffectiveOption returns an option's value for the pane as tmux resolves
// #{NAME}: pane, window, session or global.
func (c *Client) EffectiveOption(ctx context.Context, id, name string) (string, error) {
	return c.Format(ctx, id, "#{"+name+"}")
}

// Format expands a tmux format for the pane (display-message -p).
func (c *Client) Format(ctx context.Context, id, format string) (string, error) {
	out, err := c.Run(ctx, "display-message", "-p", "-t", id, format)
	if err != nil {
		return "", c.notFound(id, err)
	}
	return strings.TrimSuffix(out, "\n"), nil
}

// Signal wakes every client waiting on the channel (wait-for -S).
func (c *Client) Signal(ctx context.Context, channel string) error {
	_, err := c.Run(ctx, "wait-for", "-S", channel)
	return err
}

package tmux

import "context"

// ForceAttach makes Control attach with mode ("proto": panectl's own
// client; "locked": `tmux -C` under the socket lock; "plain": `tmux -C`
// with no lock, the pattern that crashes tmux 3.3a to 3.6b; "": chosen by
// version) until restore runs. Panes' own commands take the lock unless
// the mode is "plain".
func ForceAttach(mode string) (restore func()) {
	old := forceAttach
	forceAttach = map[string]attachMode{"proto": attachProto, "locked": attachLocked, "plain": attachPlain, "": 0}[mode]
	return func() { forceAttach = old }
}

// ControlKind is "proto" for panectl's own client, "exec" for `tmux -C`.
func ControlKind(k *Control) string {
	if _, ok := k.end.(ownClient); ok {
		return "proto"
	}
	return "exec"
}

// AttachModeOf is the mode Control would use with c ("proto", "locked",
// "plain").
func AttachModeOf(c *Client) string {
	return map[attachMode]string{attachProto: "proto", attachLocked: "locked", attachPlain: "plain"}[c.attachMode()]
}

// ReadOnlyFlag reports whether c's control clients attach with tmux's
// read-only flag (below tmux 3.7).
func ReadOnlyFlag(c *Client) bool { return readOnlyFlag(c.version()) }

// StartExitHold starts a new pane's exit hold (hold.go) on its own: the
// commands that set it (without -t) and release, which closes its guard as
// panectl's death would.
func StartExitHold(c *Client) ([]Command, func(), error) {
	h, err := c.startHold()
	if err != nil {
		return nil, nil, err
	}
	return h.commands(), func() { h.release(context.Background()) }, nil
}

// ViaKept runs cmds through a kept client of c, as RunList does; ok is false
// when it would start a tmux process instead.
func ViaKept(ctx context.Context, c *Client, cmds ...Command) (string, bool, error) {
	return c.viaKept(ctx, cmds)
}

// RunOwn runs cmds through panectl's own one-shot client, as RunList does;
// ok is false when it would start a tmux process instead.
func RunOwn(ctx context.Context, c *Client, cmds ...Command) (string, bool, error) {
	return c.runOwn(ctx, cmds)
}

// RunProcess runs cmds in a tmux process, as RunList does without a client.
func RunProcess(ctx context.Context, c *Client, cmds ...Command) (string, error) {
	return c.exec(ctx, nil, DefaultCallTimeout, CommandList(cmds).argv())
}

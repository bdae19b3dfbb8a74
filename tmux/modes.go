package tmux

import "context"

// LeaveMode ends whatever mode the pane is in (copy mode, view mode, a
// chooser: pane_in_mode) so that keys reach its program again: copy-mode
// -q (tmux(1): "cancels copy mode and any other modes"), or, where that
// flag is unknown, send-keys -X cancel.
func (c *Client) LeaveMode(ctx context.Context, id string) error {
	if _, err := c.Run(ctx, "copy-mode", "-q", "-t", id); err == nil {
		return nil
	}
	_, err := c.Run(ctx, "send-keys", "-t", id, "-X", "cancel")
	return c.notFound(id, err)
}

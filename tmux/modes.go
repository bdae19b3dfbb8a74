package tmux

import "context"

// LeaveMode ends the pane's mode (pane_in_mode: copy or view mode, a chooser),
// so keys reach its program again. It runs copy-mode -q ("cancels copy mode and
// any other modes"), or send-keys -X cancel where that flag is unknown.
func (c *Client) LeaveMode(ctx context.Context, id string) error {
	if _, err := c.Run(ctx, "copy-mode", "-q", "-t", id); err == nil {
		return nil
	}
	_, err := c.Run(ctx, "send-keys", "-t", id, "-X", "cancel")
	return c.notFound(id, err)
}

package tmux

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// ErrNoUserClient: no client of a person is attached to the server, so there
// is nothing to switch.
var ErrNoUserClient = errors.New("no tmux client is attached to the server (control clients are not a person's)")

// SwitchClient shows pane id in a person's client (switch-client -c NAME -t
// id; tmux(1) CLIENTS AND SESSIONS). It never picks a control client, such
// as panectl's own. Given own, a pane of the caller, it prefers the clients
// attached to own's session. Of those it picks the most recently active.
func (c *Client) SwitchClient(ctx context.Context, id, own string) error {
	ownSession := ""
	if own != "" {
		if p, err := c.Pane(ctx, own); err == nil {
			ownSession = p.SessionID
		}
	}
	out, err := c.Run(ctx, "list-clients", "-F", "#{client_control_mode}\t#{client_activity}\t#{session_id}\t#{client_name}")
	if err != nil {
		return err
	}
	best, bestActivity, bestOwn := "", int64(-1), false
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		f := strings.SplitN(line, "\t", 4)
		if len(f) != 4 || f[0] != "0" || f[3] == "" {
			continue // a control client, or a row that says nothing
		}
		activity, _ := strconv.ParseInt(f[1], 10, 64)
		isOwn := f[2] == ownSession && ownSession != ""
		if isOwn && !bestOwn || isOwn == bestOwn && activity > bestActivity {
			best, bestActivity, bestOwn = f[3], activity, isOwn
		}
	}
	if best == "" {
		return ErrNoUserClient
	}
	_, err = c.Run(ctx, "switch-client", "-c", best, "-t", id)
	return err
}

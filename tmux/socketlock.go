package tmux

import (
	"context"
	"os"
	"time"

	"github.com/panectl/panectl/tmux/socketlock"
)

// lockWait bounds how long panectl's commands wait for the lock, then run
// without it. A slower holder is frozen, and its client identifies anyway.
const lockWait = 3 * time.Second

// serialized runs fn under the socket lock when a half-identified `tmux -C` of
// panectl's could be on the server. fn creates or kills sessions, windows,
// panes or the server, which notifies control clients.
//
//   - tmux 3.7 and later (attachPlain): never, since it is fixed upstream.
//   - A tmux without a release number (attachLocked): always, since every
//     panectl attach there is a `tmux -C` under the lock, which makes the file.
//   - tmux 3.2 to 3.6 (attachProto): only when the lock file exists. panectl's
//     own client is never half identified. A server that refuses it, run from
//     another tmux binary, gets a `tmux -C` under the lock, which makes the
//     file. The race left: a command that looked just before the first such
//     attach made the file runs unlocked, and could land in that attach's
//     identify window. Every later command, also of a later process, sees the
//     file.
func (c *Client) serialized(ctx context.Context, fn func() error) error {
	switch c.attachMode() {
	case attachPlain:
		return fn()
	case attachProto:
		if _, err := os.Lstat(socketlock.Path(c.Server.Socket)); err != nil {
			return fn() // no `tmux -C` of panectl's has attached here
		}
	}
	l := socketlock.New(c.Server.Socket)
	if err := l.Acquire(ctx, "command", time.Now().Add(lockWait), false); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fn() // a frozen holder or an unwritable lock: run anyway
	}
	defer l.Release("command")
	return fn()
}

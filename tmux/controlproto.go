package tmux

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/panectl/panectl/tmux/imsg"
)

// errRefused: the server did not take panectl's own client (imsg.ErrRefused).
var errRefused = imsg.ErrRefused

// controlProto attaches k with panectl's own client (imsg.Dial) instead of
// `tmux -C`. Package imsg's doc says why.
func (c *Client) controlProto(ctx context.Context, k *Control, argv []string, layout imsg.Layout, deadline time.Time) error {
	pc, stdin, stream, err := imsg.Dial(ctx, c.Server.Socket, c.Bin, argv, layout, deadline, false)
	switch {
	case errors.Is(err, imsg.ErrNoServer):
		return &NoServerError{Socket: c.Server.Socket, Stderr: "no server running on " + c.Server.Socket}
	case errors.Is(err, imsg.ErrUnavailable):
		return fmt.Errorf("%w%s", ErrControlUnavailable, strings.TrimPrefix(err.Error(), imsg.ErrUnavailable.Error()))
	case err != nil:
		return err
	}
	k.stdin = stdin
	k.end = ownClient{pc}
	k.startReader(stream, pc.Finish)
	return nil
}

// ownClient is panectl's own client as a Control's end.
type ownClient struct{ *imsg.Client }

func (o ownClient) kill() { o.Kill() }

// failure is "": no tmux process runs, and tmux's messages are in the stream.
func (o ownClient) failure() string { return "" }

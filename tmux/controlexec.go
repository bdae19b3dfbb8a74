package tmux

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/panectl/panectl/tmux/socketlock"
)

// execClient is a `tmux -C` process as control client: on tmux 3.7 and later
// (attachPlain), and under the lock where panectl's own cannot (attachLocked).
type execClient struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	out    *os.File // panectl's end of the client's stdout
}

// controlExec starts `tmux -S SOCK -N -C ARGV...`. -N starts no server, so one
// that just died is reported, not replaced. With lock, the attach holds the
// socket lock until the client's first line (tmux writes none before identify),
// and Close until the process is reaped.
func (c *Client) controlExec(ctx context.Context, k *Control, argv []string, lock bool, deadline time.Time) error {
	if lock {
		k.lock = socketlock.New(c.Server.Socket)
		if err := k.lock.Acquire(ctx, "attach", deadline, false); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("%w: %v", ErrControlUnavailable, err)
		}
	}
	// Not exec.CommandContext: Close detaches cleanly first, then kills.
	cmd := exec.Command(c.Bin, append([]string{"-u", "-S", c.Server.Socket, "-N", "-C"}, argv...)...)
	cmd.Env = tmuxEnv()
	cmd.SysProcAttr = controlSysProcAttr()
	cmd.WaitDelay = waitDelay
	e := &execClient{cmd: cmd}
	cmd.Stderr = &e.stderr
	inR, inW, err := os.Pipe()
	if err != nil {
		k.releaseAttachLock()
		return fmt.Errorf("%w: %v", ErrControlUnavailable, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		k.releaseAttachLock()
		return fmt.Errorf("%w: %v", ErrControlUnavailable, err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = startControl(cmd)
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		k.releaseAttachLock()
		return fmt.Errorf("%w: %v", ErrControlUnavailable, err)
	}
	k.stdin, e.out = inW, outR
	k.end = e
	k.startReader(outR, func() {
		_ = cmd.Wait()
		outR.Close()
	})
	return nil
}

// kill kills the process. tmux passes the client's stdout to the server, so a
// stopped or hung server keeps the pipe open, and EOF may never come. Closing
// panectl's end a moment later ends the reader, then Wait.
func (e *execClient) kill() {
	if e.cmd.Process != nil {
		_ = e.cmd.Process.Kill()
	}
	time.AfterFunc(waitDelay, func() { _ = e.out.Close() })
}

// failure is what tmux wrote on stderr, read once the process is reaped.
func (e *execClient) failure() string { return strings.TrimSpace(e.stderr.String()) }

package tmux

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// A Guard is a tmux client that runs a script when panectl ends, however it
// ends: `tmux source-file -` reading stdin from a pipe only panectl can write.
// tmux reads a "-" file to its end before it runs it, so the script, written at
// once, runs when the pipe closes: by Close, or by the kernel when panectl
// dies, SIGKILL included. Its own process group keeps a signal to panectl's
// group off it. No shell is involved. Guards put back options panectl changed
// on a user's pane, such as watch's remain-on-exit, acting only while a token
// option says the change is panectl's.
type Guard struct {
	w    *os.File
	done chan struct{}
	err  error
}

// GuardLine is one line of a guard script: a tmux command and its arguments, or
// the "{" or "}" of a command-list argument (tmux(1), COMMAND PARSING: braces).
// Arguments are single-quoted, so no single quote or newline.
type GuardLine []string

// Guard starts a guard client that will run script. It fails on an argument
// that cannot be quoted, or when the client cannot start.
func (c *Client) Guard(script []GuardLine) (*Guard, error) { return c.guardWith(false, script) }

// guardWith is Guard, with startServer running start-server before source-file
// and staying connected: the server cannot exit for want of sessions first.
func (c *Client) guardWith(startServer bool, script []GuardLine) (*Guard, error) {
	var b strings.Builder
	for _, line := range script {
		for i, a := range line {
			if i > 0 {
				b.WriteByte(' ')
			}
			switch {
			case (a == "{" || a == "}") && (i == len(line)-1 || i == 0):
				b.WriteString(a)
			case strings.ContainsAny(a, "'\n"):
				return nil, fmt.Errorf("tmux: guard argument %q holds a quote or newline", a)
			default:
				b.WriteString("'" + a + "'")
			}
		}
		b.WriteByte('\n')
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	// not exec.CommandContext, since it must outlive panectl's context
	args := []string{"-u", "-S", c.Server.Socket, "source-file", "-"}
	if startServer {
		args = []string{"-u", "-S", c.Server.Socket, "start-server", ";", "source-file", "-"}
	}
	cmd := exec.Command(c.Bin, args...)
	cmd.Env = tmuxEnv()
	cmd.WaitDelay = waitDelay
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	r.Close()
	g := &Guard{w: w, done: make(chan struct{})}
	go func() {
		g.err = cmd.Wait()
		close(g.done)
	}()
	if _, err := w.WriteString(b.String()); err != nil {
		g.Close(context.Background())
		return nil, err
	}
	return g, nil
}

// Close closes the pipe to run the script, and waits until tmux ran it,
// DefaultCallTimeout passed or ctx ended (use Client.CleanupContext). The
// client outlives panectl: unwaited, the script runs when the server reads it,
// a stopped server once continued.
func (g *Guard) Close(ctx context.Context) {
	if g == nil {
		return
	}
	_ = g.w.Close()
	t := time.NewTimer(DefaultCallTimeout)
	defer t.Stop()
	select {
	case <-g.done:
	case <-t.C:
	case <-ctx.Done():
	}
}

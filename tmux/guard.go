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

// A Guard is a tmux client that runs a script when panectl ends, however
// it ends: `tmux source-file -` reading its standard input from a pipe
// whose write end only panectl holds. tmux reads a file given as "-" from
// the client's stdin to its end before it parses and runs it, so the
// script (written at once) runs when the pipe closes: when panectl closes
// it (Close), or when the kernel closes it because panectl died, SIGKILL
// included. The client runs in a process group of its own, so a signal to
// panectl's group does not end it first. No shell is involved.
//
// panectl uses a guard to put back options it changed on a user's pane
// (watch's remain-on-exit): the script does the restoring, guarded by a
// token option so that it acts only while panectl's change is in place.
type Guard struct {
	w    *os.File
	done chan struct{}
	err  error
}

// GuardLine is one line of a guard script: a tmux command and its
// arguments, or the opening "{" / closing "}" of a command-list argument
// (tmux(1), COMMAND PARSING: braces). Arguments are single-quoted, so they
// must not hold a single quote or a newline.
type GuardLine []string

// Guard starts a guard client that will run script (see Guard). Errors:
// an argument that cannot be quoted, or the client could not start.
func (c *Client) Guard(script []GuardLine) (*Guard, error) { return c.guardWith(false, script) }

// guardWith is Guard; with startServer the client starts the server when
// there is none (start-server before source-file), and stays connected to
// it, so the server does not exit for want of sessions before the script
// has run.
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
	// not exec.CommandContext: it must outlive panectl's context
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

// Close runs the script now (it closes the pipe) and waits, at most
// DefaultCallTimeout or until ctx ends, for tmux to have run it. A guard
// not waited for runs its script all the same, whenever its server reads
// it (a stopped server: once it is continued); the client outlives
// panectl. Pass a cleanup context (Client.CleanupContext).
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

package remote

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"
)

// HelloTimeout bounds how long Dial, and a call through the daemon, wait
// for the remote to answer.
const HelloTimeout = 30 * time.Second

// Stream is a long-lived remote call (panectl mcp there): its stdin and
// stdout as one io.ReadWriteCloser. It ends when the remote command
// exits or the connection drops: Read then returns io.EOF.
type Stream struct {
	fw   *frameWriter
	out  *io.PipeReader
	done chan struct{}
	stop func()
}

// Dial starts call on t (the installed panectl, else the one on PATH) and
// returns its stream once the remote answered; an *Error when ssh failed.
func (s SSH) Dial(ctx context.Context, t Target, call Call) (*Stream, error) {
	var err error
	for _, bin := range binaries(call.Version) {
		var st *Stream
		st, err = s.dial(ctx, t, bin, call)
		if !errors.Is(err, ErrNotInstalled) {
			return st, err
		}
	}
	return nil, err
}

func (s SSH) dial(ctx context.Context, t Target, bin string, call Call) (*Stream, error) {
	call = expectSelf(call, bin)
	c := s.command(context.Background(), t, bin, "remote-exec")
	var sshErr strings.Builder
	c.Stderr = &limitWriter{w: &sshErr, n: 64 << 10}
	c.WaitDelay = killAfter
	in, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, &Error{Target: t, Code: -1, Stderr: err.Error()}
	}
	pr, pw := io.Pipe()
	st := &Stream{fw: newFrameWriter(in), out: pr, done: make(chan struct{})}
	st.stop = func() { in.Close(); _ = c.Process.Kill() }
	_ = st.fw.send(call)
	hello := make(chan struct{})
	go func() {
		readReplies(out, hello, pw, io.Discard)
		pw.Close()
		_ = c.Wait()
		close(st.done)
	}()
	select {
	case <-hello:
		return st, nil
	case <-st.done:
		return nil, &Error{Target: t, Code: c.ProcessState.ExitCode(), Stderr: sshErr.String()}
	case <-ctx.Done():
	case <-time.After(HelloTimeout):
	}
	st.stop()
	<-st.done
	return nil, &Error{Target: t, Code: -1, Stderr: "no answer from the remote panectl: " + sshErr.String()}
}

// Read reads the remote command's stdout.
func (st *Stream) Read(p []byte) (int, error) { return st.out.Read(p) }

// Write sends p to the remote command's stdin.
func (st *Stream) Write(p []byte) (int, error) {
	if err := st.fw.send(frame{Stdin: p}); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close ends the remote command's stdin and waits a moment for it to
// exit, then ends ssh.
func (st *Stream) Close() error {
	_ = st.fw.send(frame{EOF: true})
	select {
	case <-st.done:
	case <-time.After(killAfter):
		st.stop()
		<-st.done
	}
	return nil
}

// Done is closed when the stream has ended.
func (st *Stream) Done() <-chan struct{} { return st.done }

package remote

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// killAfter is how long Run waits for the remote's exit frame after it
// forwarded an interrupt, before it kills ssh.
const killAfter = 2 * time.Second

// InstallDir is where `panectl remote install` puts binaries: a word for
// the remote login shell (sh, bash, zsh, fish and csh expand it alike).
const InstallDir = `"$HOME"/.local/share/panectl/bin`

var safeVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`) })

// InstallPath is the installed binary of version, as InstallDir a word
// for the remote shell; "" when version is not safe in one.
func InstallPath(version string) string {
	if !safeVersion().MatchString(version) {
		return ""
	}
	return InstallDir + "/panectl-" + version
}

// Run runs call on t: the installed panectl of call.Version, else panectl
// on the remote PATH. It returns the remote command's exit code, or an
// *Error when ssh failed before the remote answered. Cancelling ctx
// forwards an interrupt; the remote cleans up and answers 130.
//
// A call goes through the host's daemon when one is forwarded to this
// connection (daemon.go); else over a new ssh session, after which the
// daemon is started and forwarded for the calls that follow.
func (s SSH) Run(ctx context.Context, t Target, call Call, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	bins := binaries(call.Version)
	for _, bin := range bins {
		if code, err, ok := s.viaDaemon(ctx, t, bin, call, stdin, stdout, stderr); ok {
			return code, err
		}
	}
	var err error
	for _, bin := range bins {
		var code int
		code, err = s.attempt(ctx, t, bin, call, stdin, stdout, stderr)
		if errors.Is(err, ErrNotInstalled) {
			continue
		}
		if err == nil && ctx.Err() == nil {
			s.forwardDaemon(t, bin, call)
		}
		return code, err
	}
	return exitFailure, err
}

// binaries are the remote panectl to try, in order: the installed one of
// version, then panectl on the remote PATH.
func binaries(version string) []string {
	if p := InstallPath(version); p != "" {
		return []string{p, "panectl"}
	}
	return []string{"panectl"}
}

// expectSelf asks the installed binary to be a copy of this one: its
// sha256 is checked on every call. panectl on the remote PATH is another
// build; its version alone is checked.
func expectSelf(call Call, bin string) Call {
	if bin == InstallPath(call.Version) {
		call.SHA256, _ = SelfSHA256() // none: the check is left to the version
	}
	return call
}

// attempt runs call with one remote binary over a new ssh session.
// Nothing is read from stdin before the remote said hello, so a missing
// binary can be retried.
func (s SSH) attempt(ctx context.Context, t Target, bin string, call Call, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	call = expectSelf(call, bin)
	c := s.command(context.Background(), t, bin, "remote-exec")
	var sshErr strings.Builder
	c.Stderr = &limitWriter{w: &sshErr, n: 64 << 10}
	c.WaitDelay = 100 * time.Millisecond // a persisting master keeps stderr open
	in, err := c.StdinPipe()
	if err != nil {
		return exitFailure, err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return exitFailure, err
	}
	if err := c.Start(); err != nil {
		return exitFailure, &Error{Target: t, Code: -1, Stderr: err.Error()}
	}
	code, _, _ := converse(ctx, in, out, call, stdin, stdout, stderr, func() { _ = c.Process.Kill() }, 0)
	in.Close()
	if code != nil {
		// the remote has exited; a child of it holding the channel open
		// must not hold this call
		waited := make(chan struct{})
		go func() { _ = c.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-time.After(killAfter):
			_ = c.Process.Kill()
		}
		return *code, nil
	}
	werr := c.Wait()
	status := -1
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		status = ee.ExitCode()
	}
	return exitFailure, &Error{Target: t, Code: status, Stderr: sshErr.String()}
}

// converse sends call on w, then stdin once the remote said hello, and
// copies the replies from r until the exit frame. It returns the exit
// code (nil: the stream ended without one) and whether the remote said
// hello (without it, nothing ran). Cancelling ctx forwards an interrupt;
// kill ends the stream when the remote does not answer it in time, or
// does not say hello within helloWait (when > 0: late is then true, and
// whether the call ran is not known).
func converse(ctx context.Context, w io.Writer, r io.Reader, call Call, stdin io.Reader, stdout, stderr io.Writer, kill func(), helloWait time.Duration) (code *int, said, late bool) {
	fw := newFrameWriter(w)
	_ = fw.send(call)
	hello, ended := make(chan struct{}), make(chan struct{})
	result := make(chan *int, 1)
	go func() {
		result <- readReplies(r, hello, stdout, stderr)
		close(ended)
	}()
	var lateFlag atomic.Bool
	go func() {
		var timeout <-chan time.Time
		if helloWait > 0 {
			t := time.NewTimer(helloWait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-hello:
			pumpStdin(fw, stdin)
		case <-ended:
		case <-timeout:
			lateFlag.Store(true)
			kill()
		}
	}()
	select {
	case code = <-result:
	case <-ctx.Done():
		_ = fw.send(frame{Signal: "INT"})
		select {
		case code = <-result:
		case <-time.After(killAfter):
			kill()
			code = <-result
		}
	}
	select {
	case <-hello:
		return code, true, false
	default:
		return code, false, lateFlag.Load()
	}
}

// readReplies copies the remote's stdout and stderr frames until the exit
// frame, and returns its code (nil: the stream ended without one).
func readReplies(r io.Reader, hello chan<- struct{}, stdout, stderr io.Writer) *int {
	fr := newFrameReader(r)
	said := false
	for {
		var f frame
		if fr.next(&f) != nil {
			return nil
		}
		switch {
		case f.Hello != "" && !said:
			said = true
			close(hello)
		case f.Exit != nil:
			if *f.Exit < 0 || *f.Exit > 255 {
				*f.Exit = exitFailure // not an exit status
			}
			return f.Exit
		case len(f.Stdout) > 0:
			_, _ = stdout.Write(f.Stdout)
		case len(f.Stderr) > 0:
			_, _ = stderr.Write(f.Stderr)
		}
	}
}

// pumpStdin sends stdin as frames, then the end-of-input frame.
func pumpStdin(fw *frameWriter, stdin io.Reader) {
	if stdin != nil {
		buf := make([]byte, maxChunk)
		for {
			n, err := stdin.Read(buf)
			if n > 0 && fw.send(frame{Stdin: buf[:n]}) != nil {
				return
			}
			if err != nil {
				break
			}
		}
	}
	_ = fw.send(frame{EOF: true})
}

// limitWriter keeps the first n bytes written to it.
type limitWriter struct {
	w io.Writer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.n -= k
		_, _ = l.w.Write(p[:k])
	}
	return len(p), nil
}

package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// ForwardRetry is how long a host whose daemon could not be started or
// forwarded is left to new ssh sessions before panectl tries again.
const ForwardRetry = 10 * time.Minute

// daemonPath is the local end of t's forward to the daemon of bin: in the
// private control directory, named by the connection and by the binary
// and build it must run (a new build gets a daemon of its own).
func (s SSH) daemonPath(t Target, bin string, call Call) string {
	sum := sha256.Sum256([]byte(bin + "\x00" + call.Version + "\x00" + expectSelf(call, bin).SHA256))
	return s.controlFile(t) + "-" + hex.EncodeToString(sum[:4]) + ".d"
}

// viaDaemon runs call through t's forwarded daemon of bin. ok is false
// when there is none to reach, or it went away before the call started:
// nothing ran, and stdin was not read.
func (s SSH) viaDaemon(ctx context.Context, t Target, bin string, call Call, stdin io.Reader, stdout, stderr io.Writer) (code int, err error, ok bool) {
	path := s.daemonPath(t, bin, call)
	conn, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			removeSocket(path) // its connection has ended
		}
		return 0, nil, false
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Time{})
	c, hello, late := converse(ctx, conn, conn, expectSelf(call, bin), stdin, stdout, stderr, func() { conn.Close() }, HelloTimeout)
	switch {
	case c != nil:
		return *c, nil, true
	case late:
		// its waiting panectl may take the call yet: not tried again
		return exitFailure, &Error{Target: t, Code: -1, Stderr: fmt.Sprintf("the daemon of the remote panectl did not answer within %v; the call may or may not have run there", HelloTimeout)}, true
	case !hello:
		return 0, nil, false
	}
	return exitFailure, &Error{Target: t, Code: -1, Stderr: "the connection to the remote panectl ended before it answered"}, true
}

// forwardDaemon starts the daemon of bin on t (panectl remote-daemon
// there prints its socket) and forwards a socket in the control directory
// to it over t's connection (ssh -O forward). A failure, such as a server
// that forbids stream forwarding, is remembered for ForwardRetry; calls
// then each take a session of their own, as before.
func (s SSH) forwardDaemon(t Target, bin string, call Call) {
	local := s.daemonPath(t, bin, call)
	if strings.ContainsAny(local, "%:") {
		return // ssh would read it as tokens or as the remote end
	}
	failed := local + ".failed"
	if fi, err := os.Stat(failed); err == nil && time.Since(fi.ModTime()) < ForwardRetry {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := s.command(ctx, t, bin, "remote-daemon").Output()
	remotePath := strings.TrimSuffix(string(out), "\n")
	if err == nil && !usableSocketPath(remotePath) {
		err = os.ErrInvalid
	}
	if err == nil {
		args := append(s.options(t), "-O", "forward", "-o", "StreamLocalBindUnlink=yes",
			"-L", local+":"+remotePath, "--", t.destination())
		err = exec.CommandContext(ctx, s.Command[0], args...).Run()
	}
	if err != nil {
		_ = os.WriteFile(failed, nil, 0o600)
		_ = os.Chtimes(failed, time.Now(), time.Now())
	}
}

// usableSocketPath accepts what remote-daemon printed only as an absolute
// path that -L can carry (no colon, no space or control byte).
func usableSocketPath(p string) bool {
	if !filepath.IsAbs(p) || len(p) > 100 {
		return false
	}
	for _, r := range p {
		if r == ':' || r <= ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

// dropForwards removes t's forwards to daemons, so that the next call takes
// a session (after remote install: the installed copy is then the one
// that runs, not a daemon of the panectl on the remote PATH).
func (s SSH) dropForwards(t Target) {
	paths, _ := filepath.Glob(s.controlFile(t) + "-*.d")
	for _, p := range paths {
		removeSocket(p)
		_ = os.Remove(p + ".failed")
	}
}

// removeSocket removes path when it is a socket (it is in panectl's own
// private directory, named by panectl).
func removeSocket(path string) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().Type() == os.ModeSocket {
		_ = os.Remove(path)
	}
}

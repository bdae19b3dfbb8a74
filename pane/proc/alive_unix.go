//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package proc

import (
	"errors"

	"golang.org/x/sys/unix"
)

// Alive reports whether process pid exists (kill(2) with signal 0:
// ESRCH means it does not; EPERM means it does, owned by someone else) and
// has not exited: a zombie (Linux: state Z or X in /proc/PID/stat) is an
// exited process its parent has not reaped yet, which can last (a
// daemonized tmux server's parent is pid 1, and in a container pid 1 may
// never reap).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := unix.Kill(pid, 0); err != nil && errors.Is(err, unix.ESRCH) {
		return false
	}
	if f, ok := procStat(pid); ok && len(f) > 0 && (f[0] == "Z" || f[0] == "X") {
		return false
	}
	return true
}

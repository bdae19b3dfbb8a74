//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package pane

import (
	"errors"

	"golang.org/x/sys/unix"
)

// processAlive reports whether process pid exists (kill(2) with signal 0:
// ESRCH means it does not; EPERM means it does, owned by someone else).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := unix.Kill(pid, 0)
	return err == nil || !errors.Is(err, unix.ESRCH)
}

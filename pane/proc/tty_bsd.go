//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package proc

import "golang.org/x/sys/unix"

func readTTYMode(path string) (TTYMode, error) {
	return termiosOf(path, unix.TIOCGETA)
}

// fionread is FIONREAD (_IOR('f', 127, int)) on the BSDs and macOS, which
// golang.org/x/sys/unix does not export there.
const fionread = 0x4004667f

func unreadInput(path string) (int, error) { return unreadOf(path, fionread) }

//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package pane

import "golang.org/x/sys/unix"

func readTTYMode(path string) (TTYMode, error) {
	return termiosOf(path, unix.TIOCGETA)
}

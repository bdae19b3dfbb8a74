package proc

import "golang.org/x/sys/unix"

func readTTYMode(path string) (TTYMode, error) {
	return termiosOf(path, unix.TCGETS)
}

func unreadInput(path string) (int, error) { return unreadOf(path, unix.TIOCINQ) }

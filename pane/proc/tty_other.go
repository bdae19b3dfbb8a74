//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package proc

import "fmt"

func readTTYMode(path string) (TTYMode, error) { return TTYMode{}, nil }

func unreadInput(path string) (int, error) {
	return 0, fmt.Errorf("reading a terminal's input queue is not supported here")
}

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package proc

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// termiosOf opens the terminal (O_NOCTTY: it never becomes ours to control;
// O_NONBLOCK: a terminal waiting for carrier does not hold us) and reads its
// termios with the request req (TCGETS on Linux, TIOCGETA on the BSDs).
func termiosOf(path string, req uint) (TTYMode, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return TTYMode{}, fmt.Errorf("reading the terminal mode of %s: %w", path, err)
	}
	defer unix.Close(fd)
	t, err := unix.IoctlGetTermios(fd, req)
	if err != nil {
		return TTYMode{}, fmt.Errorf("reading the terminal mode of %s: %w", path, err)
	}
	return TTYMode{
		Known:     true,
		Canonical: t.Lflag&unix.ICANON != 0,
		Echo:      t.Lflag&unix.ECHO != 0,
		CRToNL:    t.Iflag&unix.ICRNL != 0,
	}, nil
}

// unreadOf opens the terminal as termiosOf does and asks how many bytes of
// input wait there for its program to read (req: TIOCINQ on Linux,
// FIONREAD on the BSDs).
func unreadOf(path string, req uint) (int, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, fmt.Errorf("reading the input queue of %s: %w", path, err)
	}
	defer unix.Close(fd)
	n, err := unix.IoctlGetInt(fd, req)
	if err != nil {
		return 0, fmt.Errorf("reading the input queue of %s: %w", path, err)
	}
	return n, nil
}

package proc

import (
	"fmt"
	"regexp"
	"sync"
)

// MaxCanonLine is the longest line a terminal in canonical mode (ICANON)
// passes to the program reading it: the kernel's line buffer holds 4096
// bytes, the last one kept for the newline (Linux n_tty; MAX_CANON on the
// BSDs is smaller still). Bytes typed beyond it are dropped, so the program
// reads a cut line.
const MaxCanonLine = 4095

// TTYMode is the line discipline of a pane's terminal as the program in it
// set it (termios(3), read from pane_tty).
type TTYMode struct {
	Known     bool // the terminal could be read (same user, supported OS)
	Canonical bool // ICANON: the kernel edits lines (no line editor in the program)
	Echo      bool // ECHO: the kernel echoes what is typed
	CRToNL    bool // ICRNL: Enter (CR) ends a line
}

// ReadTTYMode reads the termios of the terminal at path (a pane's
// pane_tty, /dev/pts/N). It opens the terminal without making it the
// controlling terminal and without blocking. Errors: the open or the ioctl
// failed (another user's terminal, a closed pane).
func ReadTTYMode(path string) (TTYMode, error) {
	if err := checkTerminalPath(path); err != nil {
		return TTYMode{}, err
	}
	return readTTYMode(path)
}

// UnreadInput reads how many bytes typed into the terminal at path (a
// pane's pane_tty) its program has not read yet (TIOCINQ; in canonical mode
// only whole lines count). A line editor at its prompt reads every key as
// it comes: bytes waiting there mean the program has not taken what was
// typed (a shell still busy, or about to run a command that will read
// them). Errors: as ReadTTYMode's, or not supported on this system.
func UnreadInput(path string) (int, error) {
	if err := checkTerminalPath(path); err != nil {
		return 0, err
	}
	return unreadInput(path)
}

// ptyPathRE is the path of a pseudo-terminal: /dev/pts/N (Linux, the BSDs),
// /dev/ttysN (macOS), /dev/ttyXY (older BSD ptys). Never a serial line
// (/dev/ttyS0 on Linux) or another device, whose opening may act.
var ptyPathRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/dev/(pts/[0-9]+|ttys[0-9]+|tty[p-z][0-9a-zA-Z])$`) })

// checkTerminalPath refuses a path that is no pseudo-terminal's, before
// anything opens it.
func checkTerminalPath(path string) error {
	if path == "" {
		return fmt.Errorf("the pane has no terminal path (pane_tty)")
	}
	if !ptyPathRE().MatchString(path) {
		return fmt.Errorf("the pane's terminal path %q is not a pseudo-terminal's: not opened", path)
	}
	return nil
}

// String is how the mode is named in messages.
func (m TTYMode) String() string {
	switch {
	case !m.Known:
		return "unknown"
	case m.Canonical:
		return "canonical (the kernel edits the line)"
	}
	return "raw (the program edits the line)"
}

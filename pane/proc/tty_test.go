//go:build unix

package proc

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A terminal path read back from tmux is opened only when it is a
// pseudo-terminal's: never a FIFO, a serial line or a path with "..".
func TestTerminalPathChecked(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/ttyS0", "/dev/pts/../sda", "/dev/pts/1x", "/dev/null", "dev/pts/1"} {
		if _, err := ReadTTYMode(p); err == nil || !strings.Contains(err.Error(), "not a pseudo-terminal's") {
			t.Errorf("ReadTTYMode(%q): %v", p, err)
		}
		if _, err := UnreadInput(p); err == nil || !strings.Contains(err.Error(), "not a pseudo-terminal's") {
			t.Errorf("UnreadInput(%q): %v", p, err)
		}
	}
	for _, p := range []string{"/dev/pts/3", "/dev/ttys003", "/dev/ttyp0"} {
		if err := checkTerminalPath(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

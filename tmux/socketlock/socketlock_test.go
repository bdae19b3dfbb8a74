package socketlock

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A symlink planted at the lock file's path makes nothing: the lock is not
// taken, and the link's target is not created.
func TestSocketLockRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	socket := filepath.Join(dir, "s")
	target := filepath.Join(dir, "victim")
	if err := os.Symlink(target, socket+".panectl.lock"); err != nil {
		t.Fatal(err)
	}
	l := New(socket)
	err := l.Acquire(context.Background(), "attach", time.Now().Add(time.Second), false)
	if err == nil {
		l.Release("attach")
		t.Fatal("a symlinked lock file was locked")
	}
	if _, serr := os.Lstat(target); !os.IsNotExist(serr) {
		t.Errorf("the symlink's target was created (%v)", serr)
	}
	// a FIFO there is refused at once, not waited on
	fifo := filepath.Join(dir, "f")
	if err := unix.Mkfifo(fifo+".panectl.lock", 0o600); err != nil {
		t.Fatal(err)
	}
	if err := New(fifo).Acquire(context.Background(), "attach", time.Now().Add(time.Second), false); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO lock file: %v", err)
	}
}

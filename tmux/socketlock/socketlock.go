// Package socketlock is panectl's per-server lock file: an exclusive
// flock(2) shared by every panectl process on one tmux server. Package tmux
// says when to take it. It runs nothing.
package socketlock

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Lock is panectl's per-server lock, shared by every panectl process: an
// exclusive flock(2) on SOCKET.panectl.lock beside the server's socket. It
// serializes the fallback `tmux -C` attach until the client's first line, its
// detach until the process is reaped, and panectl's commands that notify
// control clients, so none lands while a client is half identified. One
// Lock is one hold, and stages name its holder: "attach", then "detach"
// of the same client, taking the hold over if the client never wrote a line.
// The file exists only where needed (serialized). KillServer removes it.
type Lock struct {
	path  string
	mu    sync.Mutex
	f     *os.File // open and locked while held
	stage string
}

// New is the lock of the server at socket.
func New(socket string) *Lock {
	return &Lock{path: Path(socket)}
}

// Path is SOCKET.panectl.lock when the socket's directory is writable (as
// tmux's per-user one is) or not made yet. Else it is a file in the temporary
// directory named by a hash of the socket path.
func Path(socket string) string {
	if err := unix.Access(filepath.Dir(socket), unix.W_OK); err == nil || err == unix.ENOENT {
		return socket + ".panectl.lock"
	}
	h := fnv.New64a()
	h.Write([]byte(socket))
	return filepath.Join(os.TempDir(), fmt.Sprintf("panectl-%d-%x.lock", os.Getuid(), h.Sum64()))
}

// Acquire takes the lock for stage by polling flock, until deadline or ctx
// ends. With takeOver, another stage's hold of this Lock becomes stage's.
func (l *Lock) Acquire(ctx context.Context, stage string, deadline time.Time, takeOver bool) error {
	wait := time.Millisecond
	for {
		l.mu.Lock()
		if l.f != nil && takeOver {
			l.stage = stage
			l.mu.Unlock()
			return nil
		}
		if l.f == nil {
			f, err := openLockFile(l.path)
			if err != nil {
				l.mu.Unlock()
				return fmt.Errorf("tmux: lock %s: %w", l.path, err)
			}
			if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err == nil {
				l.f, l.stage = f, stage
				l.mu.Unlock()
				return nil
			}
			f.Close()
		}
		l.mu.Unlock()
		if !time.Now().Before(deadline) {
			return fmt.Errorf("tmux: another panectl process held %s for too long", l.path)
		}
		t := time.NewTimer(min(wait, time.Until(deadline)))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 20*time.Millisecond)
	}
}

// openLockFile opens (or makes) a lock file without following a symlink,
// and checks it is a regular file of this user. A link planted there could
// otherwise make panectl create or lock a file elsewhere (as root: anywhere).
func openLockFile(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || st.Uid != uint32(os.Getuid()) {
		unix.Close(fd)
		return nil, fmt.Errorf("not a regular file of yours (owner uid %d, mode %o): remove it", st.Uid, st.Mode)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// Release gives the lock up if stage holds it.
func (l *Lock) Release(stage string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil || l.stage != stage {
		return
	}
	l.f.Close() // closing the last descriptor releases the flock
	l.f, l.stage = nil, ""
}

// Remove removes a gone server's lock file, after kill-server. A
// process holding or awaiting the old file's lock holds it for the dead server
// only. A new server gets a new file when a fallback attach needs one.
func Remove(socket string) { _ = os.Remove(Path(socket)) }

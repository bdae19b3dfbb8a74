package tmux

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

// socketLock is panectl's per-server lock, shared by every panectl process: an
// exclusive flock(2) on SOCKET.panectl.lock beside the server's socket. It
// serializes the fallback `tmux -C` attach until the client's first line, its
// detach until the process is reaped, and panectl's commands that notify
// control clients, so none lands while a client is half identified. One
// socketLock is one hold, and stages name its holder: "attach", then "detach"
// of the same client, taking the hold over if the client never wrote a line.
// The file exists only where needed (serialized). KillServer removes it.
type socketLock struct {
	path  string
	mu    sync.Mutex
	f     *os.File // open and locked while held
	stage string
}

func newSocketLock(socket string) *socketLock {
	return &socketLock{path: lockPath(socket)}
}

// lockPath is SOCKET.panectl.lock when the socket's directory is writable (as
// tmux's per-user one is) or not made yet. Else it is a file in the temporary
// directory named by a hash of the socket path.
func lockPath(socket string) string {
	if err := unix.Access(filepath.Dir(socket), unix.W_OK); err == nil || err == unix.ENOENT {
		return socket + ".panectl.lock"
	}
	h := fnv.New64a()
	h.Write([]byte(socket))
	return filepath.Join(os.TempDir(), fmt.Sprintf("panectl-%d-%x.lock", os.Getuid(), h.Sum64()))
}

// acquire takes the lock for stage by polling flock, until deadline or ctx
// ends. With takeOver, another stage's hold of this socketLock becomes stage's.
func (l *socketLock) acquire(ctx context.Context, stage string, deadline time.Time, takeOver bool) error {
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

// release gives the lock up if stage holds it.
func (l *socketLock) release(stage string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil || l.stage != stage {
		return
	}
	l.f.Close() // closing the last descriptor releases the flock
	l.f, l.stage = nil, ""
}

// lockWait bounds how long panectl's commands wait for the lock, then run
// without it. A slower holder is frozen, and its client identifies anyway.
const lockWait = 3 * time.Second

// serialized runs fn under the socket lock when a half-identified `tmux -C` of
// panectl's could be on the server. fn creates or kills sessions, windows,
// panes or the server, which notifies control clients.
//
//   - tmux 3.7 and later (attachPlain): never, since it is fixed upstream.
//   - A tmux without a release number (attachLocked): always, since every
//     panectl attach there is a `tmux -C` under the lock, which makes the file.
//   - tmux 3.2 to 3.6 (attachProto): only when the lock file exists. panectl's
//     own client is never half identified. A server that refuses it, run from
//     another tmux binary, gets a `tmux -C` under the lock, which makes the
//     file. The race left: a command that looked just before the first such
//     attach made the file runs unlocked, and could land in that attach's
//     identify window. Every later command, also of a later process, sees the
//     file.
func (c *Client) serialized(ctx context.Context, fn func() error) error {
	switch c.attachMode() {
	case attachPlain:
		return fn()
	case attachProto:
		if _, err := os.Lstat(lockPath(c.Server.Socket)); err != nil {
			return fn() // no `tmux -C` of panectl's has attached here
		}
	}
	l := newSocketLock(c.Server.Socket)
	if err := l.acquire(ctx, "command", time.Now().Add(lockWait), false); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fn() // a frozen holder or an unwritable lock: run anyway
	}
	defer l.release("command")
	return fn()
}

// removeSocketLock removes a gone server's lock file, after kill-server. A
// process holding or awaiting the old file's lock holds it for the dead server
// only. A new server gets a new file when a fallback attach needs one.
func removeSocketLock(socket string) { _ = os.Remove(lockPath(socket)) }

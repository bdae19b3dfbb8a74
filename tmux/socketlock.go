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

// socketLock is panectl's per-server lock: an exclusive flock(2) on a file
// next to the server's socket (SOCKET.panectl.lock), shared by every
// panectl process. It serializes the fallback `tmux -C` attach (until the
// client's first line), its detach (until the process is reaped) and
// panectl's own commands that make tmux notify control clients, so none of
// them lands while one of panectl's clients is half identified (doc.go).
// One socketLock is one hold; stages name who holds it ("attach", then
// "detach" of the same client, which takes the attach's hold over when
// the client never got its first line).
//
// The file exists only where the lock is needed (serialized): a `tmux -C`
// attach under the lock makes it; commands take the lock only when the
// file is there, or always where every attach is a `tmux -C` under the
// lock (a tmux without a release number); KillServer removes it with the
// server.
type socketLock struct {
	path  string
	mu    sync.Mutex
	f     *os.File // open and locked while held
	stage string
}

func newSocketLock(socket string) *socketLock {
	return &socketLock{path: lockPath(socket)}
}

// lockPath is SOCKET.panectl.lock when the socket's directory is writable
// (tmux's own per-user directory is) or not made yet, else a file in the
// temporary directory named after a hash of the socket path.
func lockPath(socket string) string {
	if err := unix.Access(filepath.Dir(socket), unix.W_OK); err == nil || err == unix.ENOENT {
		return socket + ".panectl.lock"
	}
	h := fnv.New64a()
	h.Write([]byte(socket))
	return filepath.Join(os.TempDir(), fmt.Sprintf("panectl-%d-%x.lock", os.Getuid(), h.Sum64()))
}

// acquire takes the lock for stage, waiting until deadline or ctx ends
// (flock is polled, so the wait is bounded). With takeOver, a hold of this
// socketLock by another stage becomes stage's.
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
			f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o600)
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

// lockWait bounds how long panectl's own commands wait for the lock before
// they run without it (a holder that takes longer is frozen, and its client
// identifies on its own anyway).
const lockWait = 3 * time.Second

// serialized runs fn, which makes tmux notify control clients (creates or
// kills sessions, windows or panes, or the server), under the socket lock
// when a half-identified `tmux -C` of panectl's could be on the server:
//
//   - tmux 3.7 and later (attachPlain): never (fixed upstream);
//   - a tmux without a release number (attachLocked): always, since every
//     panectl attach there is a `tmux -C` under the lock;
//   - tmux 3.2 to 3.6 (attachProto): only when the lock file exists. There
//     panectl attaches with its own client, which is never half
//     identified, and needs no lock; it falls back to a `tmux -C` under the
//     lock only when the server refuses that client (a server run from
//     another tmux binary), and that attach makes the file. The race left:
//     a command that looked for the file just before the first such attach
//     on the server made it runs without the lock, and could land in that
//     attach's identify window. Every later command, and every command of a
//     later panectl process, sees the file.
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

// removeSocketLock removes the lock file of a server that is gone (after
// kill-server). A panectl process still holding or awaiting the old file's
// lock holds it for the dead server only; a new server on the socket gets
// a new file when a fallback attach needs one.
func removeSocketLock(socket string) { _ = os.Remove(lockPath(socket)) }

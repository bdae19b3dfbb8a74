package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// The daemon makes a call over a warm connection cost about one round
// trip. It is a process on the remote host that listens on a unix socket
// and keeps one spare panectl waiting in accept, already started: the
// spare serves the next call as remote-exec would (the same frames, the
// same version and sha256 checks), and the daemon starts the next spare.
// The caller reaches the socket through its ssh connection's stream
// forwarding (ssh -O forward -L LOCAL:REMOTE). Each call still runs in a
// process of its own.

// DaemonIdle is how long a daemon waits for a call before it exits; it
// also exits within daemonCheck of its socket being removed or replaced.
const (
	DaemonIdle  = 10 * time.Minute
	daemonCheck = 5 * time.Second
)

// daemonFD, notifyFD and lifeFD are the spare's inherited descriptors:
// the listening socket, the pipe it reports an accepted call on, and a pipe
// that ends when the daemon does.
const (
	daemonFD = 3
	notifyFD = 4
	lifeFD   = 5
)

// DaemonSocket is where the daemon of this binary listens for calls from
// sessions with environment environ: a private directory of this user
// ($XDG_RUNTIME_DIR/panectl/remote, else ~/.local/state/panectl/remote),
// a name that hashes the version, the binary's sha256 and the environment
// (a session's variables, as ssh's SetEnv, pick its tmux servers), less
// the variables that change with every connection.
func DaemonSocket(version, sha string, environ []string) (string, error) {
	base := os.Getenv("XDG_RUNTIME_DIR")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		base = filepath.Join(home, ".local", "state")
	}
	dir := filepath.Join(base, "panectl", "remote")
	if err := privateDir(dir); err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", version, sha)
	for _, kv := range sessionEnv(environ) {
		fmt.Fprintf(h, "%s\x00", kv)
	}
	path := filepath.Join(dir, "d-"+hex.EncodeToString(h.Sum(nil)[:8])+".sock")
	if len(path) > 100 {
		return "", fmt.Errorf("the socket path %s is too long for a unix socket", path)
	}
	return path, nil
}

// sessionEnv is environ sorted, less what changes with every connection
// or shell (SSH_*, PWD, OLDPWD, SHLVL, _).
func sessionEnv(environ []string) []string {
	var keep []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "SSH_") || slices.Contains([]string{"PWD", "OLDPWD", "SHLVL", "_"}, name) {
			continue
		}
		keep = append(keep, kv)
	}
	slices.Sort(keep)
	return keep
}

// StartDaemon makes sure a daemon of exe listens on path: one answering
// there is kept; else it listens and starts `exe remote-daemon --serve`
// detached with the socket, which outlives this call.
func StartDaemon(exe, path string) error {
	lock, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	for deadline := time.Now().Add(5 * time.Second); ; {
		err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			return fmt.Errorf("remote-daemon: %s stays locked: %w", path+".lock", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return nil
	}
	removeSocket(path) // a daemon of ours that is gone
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return err
	}
	l.SetUnlinkOnClose(false) // the daemon owns it now
	defer l.Close()
	lf, err := l.File()
	if err != nil {
		return err
	}
	defer lf.Close()
	c := exec.Command(exe, "remote-daemon", "--serve")
	c.ExtraFiles = []*os.File{lf}
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	c.Dir = homeDir()
	if err := c.Start(); err != nil {
		_ = os.Remove(path)
		return err
	}
	return c.Process.Release()
}

// Daemon is the daemon's body (panectl remote-daemon --serve): it keeps
// one spare `exe remote-exec --accept` waiting on the socket it inherited,
// starts the next when one takes a call, and exits after DaemonIdle
// without one (removing the socket if it is still the one it listens on).
func Daemon(exe string) error {
	lf := os.NewFile(daemonFD, "listener")
	ln, err := net.FileListener(lf)
	if err != nil {
		return fmt.Errorf("remote-daemon: no listening socket on descriptor %d: %w", daemonFD, err)
	}
	defer ln.Close()
	path := ln.Addr().String()
	own, _ := os.Stat(path)
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer lifeW.Close() // held, never written: the spares' lifeline
	accepted := make(chan struct{})
	go func() {
		b := make([]byte, 1)
		for {
			if _, err := r.Read(b); err != nil {
				return
			}
			accepted <- struct{}{}
		}
	}()
	ours := func() bool {
		fi, err := os.Stat(path)
		return err == nil && own != nil && os.SameFile(fi, own)
	}
	defer func() {
		if ours() {
			_ = os.Remove(path)
		}
	}()
	idle := time.NewTimer(DaemonIdle)
	check := time.NewTicker(daemonCheck)
	defer check.Stop()
	for lost := 0; lost < 3; {
		spare := exec.Command(exe, "remote-exec", "--accept")
		spare.ExtraFiles = []*os.File{lf, w, lifeR}
		spare.Dir = homeDir() // where an ssh session starts
		if err := spare.Start(); err != nil {
			return err
		}
		exited := make(chan struct{})
		go func() { _ = spare.Wait(); close(exited) }()
		switch waitSpare(accepted, exited, idle, check, ours) {
		case spareTook:
			idle.Reset(DaemonIdle)
			lost = 0
		case spareLost:
			lost++
		case spareStop:
			_ = spare.Process.Kill()
			return nil
		}
	}
	return errors.New("remote-daemon: three spares in a row ended without a call")
}

// What became of a spare.
const (
	spareTook = iota // it took a call
	spareLost        // it ended without one
	spareStop        // the daemon is to stop: idle, or its socket is gone
)

// waitSpare waits until the spare took a call or ended, or the daemon is
// to stop.
func waitSpare(accepted <-chan struct{}, exited <-chan struct{}, idle *time.Timer, check *time.Ticker, ours func() bool) int {
	for {
		select {
		case <-accepted:
			return spareTook
		case <-exited:
			// after a call whose report may still be on its way
			select {
			case <-accepted:
				return spareTook
			case <-time.After(100 * time.Millisecond):
				return spareLost
			}
		case <-idle.C:
			return spareStop
		case <-check.C:
			if !ours() {
				return spareStop
			}
		}
	}
}

// Accept is the spare's wait (panectl remote-exec --accept): it takes one
// connection from the inherited socket, tells the daemon, and returns the
// connection once its peer is this user (sshd forwarding for the caller).
// It gives up when the daemon ends first.
func Accept() (net.Conn, error) {
	lf, nf, life := os.NewFile(daemonFD, "listener"), os.NewFile(notifyFD, "notify"), os.NewFile(lifeFD, "life")
	defer nf.Close()
	ln, err := net.FileListener(lf)
	lf.Close()
	if err != nil {
		return nil, fmt.Errorf("remote-exec --accept: no listening socket: %w", err)
	}
	go func() {
		_, _ = io.Copy(io.Discard, life) // until the daemon is gone
		ln.Close()
	}()
	conn, err := ln.Accept()
	ln.Close()
	if err != nil {
		return nil, fmt.Errorf("remote-exec --accept: %w (the daemon is gone)", err)
	}
	_, _ = nf.Write([]byte{1})
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		conn.Close()
		return nil, errors.New("remote-exec --accept: not a unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		conn.Close()
		return nil, err
	}
	uid := -1
	_ = raw.Control(func(fd uintptr) { uid, err = peerUID(int(fd)) })
	if err != nil || uid != os.Getuid() {
		conn.Close()
		return nil, errors.New("remote-exec --accept: a peer that is not this user")
	}
	return conn, nil
}

// homeDir is where sshd starts a session, so a call that takes the
// daemon's waiting panectl starts in the same directory: $HOME, else "/".
func homeDir() string {
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	return "/"
}

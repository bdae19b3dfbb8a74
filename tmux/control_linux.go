package tmux

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// controlSysProcAttr puts a `tmux -C` client in its own process group (a
// Ctrl-C at the terminal reaches panectl, which detaches the client itself)
// and asks the kernel to SIGKILL it when panectl dies, so a killed panectl
// never leaves a client attached.
func controlSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// startControl starts the client. Linux sends Pdeathsig when the thread
// that forked exits; the Go runtime only ends a thread when a goroutine
// exits while locked to it, which panectl never does, so in practice the
// signal comes when the process dies.
func startControl(cmd *exec.Cmd) error { return cmd.Start() }

// sameServerBinary reports whether the server at the other end of conn runs
// the binary bin (the one whose `tmux -V` chose the imsg layout): the
// server's pid from SO_PEERCRED (the server made the socket), then
// /proc/PID/exe against bin. known is false when that cannot be told (the
// server's /proc entry is not readable).
func sameServerBinary(conn *net.UnixConn, bin string) (same, known bool) {
	rc, err := conn.SyscallConn()
	if err != nil {
		return false, false
	}
	var cred *unix.Ucred
	var cerr error
	if err := rc.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil || cerr != nil || cred.Pid <= 0 {
		return false, false
	}
	exe, err := os.Stat(fmt.Sprintf("/proc/%d/exe", cred.Pid))
	if err != nil {
		return false, false
	}
	b, err := os.Stat(bin)
	if err != nil {
		return false, false
	}
	return os.SameFile(exe, b), true
}

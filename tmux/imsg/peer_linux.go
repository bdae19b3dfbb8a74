package imsg

import (
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

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

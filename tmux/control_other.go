//go:build !linux

package tmux

import (
	"net"
	"os/exec"
	"syscall"
)

// controlSysProcAttr puts a `tmux -C` client in its own process group, so
// a Ctrl-C at the terminal reaches panectl, which detaches the client.
func controlSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

func startControl(cmd *exec.Cmd) error { return cmd.Start() }

// sameServerBinary cannot tell the server's binary outside Linux: the
// version of bin is trusted, as tmux's own client trusts its own.
func sameServerBinary(conn *net.UnixConn, bin string) (same, known bool) { return false, false }

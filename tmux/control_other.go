//go:build !linux

package tmux

import (
	"os/exec"
	"syscall"
)

// controlSysProcAttr puts a `tmux -C` client in its own process group, so
// a Ctrl-C at the terminal reaches panectl, which detaches the client.
func controlSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

func startControl(cmd *exec.Cmd) error { return cmd.Start() }

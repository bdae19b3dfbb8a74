package tmux

import (
	"os/exec"
	"syscall"
)

// controlSysProcAttr puts a `tmux -C` client in its own process group, so a
// Ctrl-C at the terminal reaches panectl, which detaches it. The kernel
// SIGKILLs it when panectl dies, so a killed panectl leaves no client attached.
func controlSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// startControl starts the client. Linux sends Pdeathsig when the forking thread
// exits. Go ends a thread only when a goroutine exits locked to it, which
// panectl never does. So the signal comes when the process dies.
func startControl(cmd *exec.Cmd) error { return cmd.Start() }

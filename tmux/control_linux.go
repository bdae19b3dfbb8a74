package tmux

import (
	"os/exec"
	"syscall"
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

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// startGroup starts sleep as the leader of a process group of its own.
func startGroup(t *testing.T, cred *syscall.Credential) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: cred}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

func TestCheckGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	for _, pgid := range []int{-1, 0, 1} {
		if err := CheckGroup(pgid, 1); !errors.Is(err, ErrNotOurs) {
			t.Errorf("CheckGroup(%d) = %v; want ErrNotOurs", pgid, err)
		}
	}
	cmd := startGroup(t, nil)
	pid := cmd.Process.Pid
	start := StartTime(pid)
	if start == 0 {
		t.Fatal("no start time")
	}
	if err := CheckGroup(pid, start); err != nil {
		t.Errorf("the group started: %v", err)
	}
	for _, s := range []uint64{0, start + 1} {
		if err := CheckGroup(pid, s); !errors.Is(err, ErrNotOurs) {
			t.Errorf("start %d: %v; want ErrNotOurs", s, err)
		}
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if err := CheckGroup(pid, start); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("a group gone: %v; want ErrProcessDone", err)
	}
	if os.Getuid() == 0 {
		other := startGroup(t, &syscall.Credential{Uid: 65534, Gid: 65534})
		if err := CheckGroup(other.Process.Pid, StartTime(other.Process.Pid)); !errors.Is(err, ErrNotOurs) {
			t.Errorf("another user's group: %v; want ErrNotOurs", err)
		}
	}
}

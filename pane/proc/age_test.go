package proc

import (
	"os"
	"os/exec"
	"testing"
)

// A process started just now is younger than this test's own.
func TestAge(t *testing.T) {
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	young, ok := Age(cmd.Process.Pid)
	if !ok {
		t.Skip("no /proc")
	}
	old, ok := Age(os.Getpid())
	if !ok || young > old {
		t.Errorf("Age(child) = %v, Age(self) = %v, %v: want the child younger", young, old, ok)
	}
	if _, ok := Age(-1); ok {
		t.Error("Age(-1) is known")
	}
}

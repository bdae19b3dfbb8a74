package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/sshdtest"
	"github.com/panectl/panectl/internal/tmuxtest"
)

// remoteWait measures P12: per trial, in rotating order, one `ssh host
// true`, one `ssh host panectl version` (the floor: ssh and one start of
// panectl there) and one `panectl -H host wait-for-text` satisfied at once, all
// over the same warm ControlMaster connection to a private sshd on
// 127.0.0.1 (panectl installed there by remote install), after one
// warm-up run of each.
func remoteWait(b *testing.B, s *tmuxtest.Server, bin string) (sshTrue, floor, viaH []time.Duration) {
	sshd := sshdtest.Start(b, filepath.Dir(bin)+":"+os.Getenv("PATH"))
	runtime := b.TempDir()
	env := append(os.Environ(), "TMUX=", "TMUX_PANE=", "PANECTL_HOST=", "PANECTL_SSH="+sshd.SSH(), "XDG_RUNTIME_DIR="+runtime)
	p := s.NewPane([2]int{80, 24}, "sh", "-c", "echo READY; exec cat")
	wait := func() {
		c := exec.Command(bin, "-H", "local", "-S", s.Socket, "wait-for-text", p.ID, "--cursor", "history", "--pattern", "READY", "--timeout", "10")
		c.Env = env
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("panectl -H local wait-for-text: %v: %s", err, out)
		}
	}
	// installed as users should (else each call first looks for it)
	install := exec.Command(bin, "remote", "install", "local")
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil {
		b.Fatalf("panectl remote install local: %v: %s", err, out)
	}
	wait()
	// the connection's control socket, not the forward to the daemon
	socks, _ := filepath.Glob(filepath.Join(runtime, "panectl", "ssh", "*"))
	socks = slices.DeleteFunc(socks, func(p string) bool { return strings.Contains(filepath.Base(p), ".") })
	if len(socks) != 1 {
		b.Fatalf("want one control socket, have %q", socks)
	}
	defer exec.Command("ssh", "-F", sshd.Config, "-o", "ControlPath="+socks[0], "-O", "exit", "local").Run()
	ssh := []string{"ssh", "-F", sshd.Config, "-o", "ControlPath=" + socks[0], "-o", "ControlMaster=no", "-T", "local"}
	timed := func(into *[]time.Duration, name string, args ...string) func(bool) {
		return func(keep bool) {
			c := exec.Command(args[0], args[1:]...)
			c.Env = env
			t0 := time.Now()
			if out, err := c.CombinedOutput(); err != nil {
				b.Fatalf("%s: %v: %s", name, err, out)
			}
			if keep {
				*into = append(*into, time.Since(t0))
			}
		}
	}
	measure := []func(bool){
		timed(&sshTrue, "ssh local true", append(ssh, "true")...),
		timed(&floor, "ssh local panectl version", append(ssh, "panectl", "version")...),
		func(keep bool) {
			t0 := time.Now()
			wait()
			if keep {
				viaH = append(viaH, time.Since(t0))
			}
		},
	}
	for i := range trials + 1 {
		for j := range measure {
			measure[(i+j)%len(measure)](i > 0)
		}
	}
	return sshTrue, floor, viaH
}

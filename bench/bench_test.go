// Package bench measures panectl against SPEC.md section 11's budgets with a
// real tmux server (a private one per run) and the real binary. It holds
// benchmarks only: `go test ./...` runs nothing here; scripts/bench.sh (or
// `go test -run '^$' -bench Budgets -benchtime 1x ./bench`) runs them and
// prints a table with the budgets.
package bench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
)

const trials = 20

// BenchmarkBudgets runs P1 (detection latency against a capture-pane poll
// loop), P2 (CPU of a 5 s wait that never matches) and P6 (its peak RSS).
func BenchmarkBudgets(b *testing.B) {
	bin := buildPanectl(b)
	s := tmuxtest.New(b)
	fifo := filepath.Join(b.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		b.Fatal(err)
	}
	// Held open read-write so cat never sees end of file between trials.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	p := s.NewPane([2]int{80, 24}, "cat", fifo)
	panectl := func(args ...string) *exec.Cmd {
		c := exec.Command(bin, append([]string{"-S", s.Socket}, args...)...)
		c.Env = append(os.Environ(), "TMUX=", "TMUX_PANE=")
		return c
	}
	b.ResetTimer()
	for range b.N {
		// P1: panectl
		var ours, base []time.Duration
		for i := range trials {
			mark := fmt.Sprintf("MARK-p-%d-%d", i, rand.Int())
			c := panectl("wait-for-text", p.ID, "--pattern", mark, "--timeout", "10")
			if err := c.Start(); err != nil {
				b.Fatal(err)
			}
			waitAttached(b, s, 1)
			time.Sleep(30 * time.Millisecond) // its first check is done
			t0 := time.Now()
			fmt.Fprintln(w, mark)
			if err := c.Wait(); err != nil {
				b.Fatalf("panectl wait-for-text: %v", err)
			}
			ours = append(ours, time.Since(t0))
		}
		// P1: the naive baseline
		for i := range trials {
			mark := fmt.Sprintf("MARK-b-%d-%d", i, rand.Int())
			script := fmt.Sprintf("until tmux -S %s capture-pane -p -t '%s' | grep -q %s; do sleep 0.1; done", s.Socket, p.ID, mark)
			c := exec.Command("sh", "-c", script)
			c.Env = append(os.Environ(), "TMUX=", "TMUX_PANE=")
			if err := c.Start(); err != nil {
				b.Fatal(err)
			}
			time.Sleep(150*time.Millisecond + time.Duration(rand.IntN(100))*time.Millisecond)
			t0 := time.Now()
			fmt.Fprintln(w, mark)
			if err := c.Wait(); err != nil {
				b.Fatalf("baseline: %v", err)
			}
			base = append(base, time.Since(t0))
		}
		// P2 and P6: a 5 s wait that never matches, on an idle pane
		c := panectl("wait-for-text", p.ID, "--pattern", "NEVER-"+fmt.Sprint(rand.Int()), "--timeout", "5")
		start := time.Now()
		err := c.Run()
		wall := time.Since(start)
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 124 {
			b.Fatalf("the 5 s wait ended with %v, want exit 124", err)
		}
		ru := c.ProcessState.SysUsage().(*syscall.Rusage)
		cpu := c.ProcessState.UserTime() + c.ProcessState.SystemTime()
		rss := float64(ru.Maxrss) / 1024 // KiB -> MiB

		om, op := pct(ours, 50), pct(ours, 90)
		bm, bp := pct(base, 50), pct(base, 90)
		ratio := float64(bm) / float64(om)
		fmt.Printf("\npanectl budgets (SPEC.md section 11), %d trials, tmux %s\n", trials, strings.TrimSpace(s.Tmux("-V")))
		fmt.Printf("%-4s %-52s %-22s %-18s %s\n", "id", "what", "measured", "budget", "")
		row := func(id, what, got, budget string, ok bool) {
			verdict := "PASS"
			if !ok {
				verdict = "FAIL"
				b.Errorf("%s over budget: %s (budget %s)", id, got, budget)
			}
			fmt.Printf("%-4s %-52s %-22s %-18s %s\n", id, what, got, budget, verdict)
		}
		row("P1", "detection latency, panectl (median / p90)", ms(om)+" / "+ms(op), "median <= 10 ms", om <= 10*time.Millisecond)
		row("", "capture-pane + sleep 0.1 loop (median / p90)", ms(bm)+" / "+ms(bp), "", true)
		row("", "baseline median / panectl median", fmt.Sprintf("%.1fx", ratio), ">= 5x", ratio >= 5)
		row("P2", fmt.Sprintf("CPU user+sys, 5 s wait (wall %.2f s)", wall.Seconds()), ms(cpu), "<= 50 ms", cpu <= 50*time.Millisecond)
		row("P6", "peak RSS, 5 s wait", fmt.Sprintf("%.1f MiB", rss), "<= 30 MiB", rss <= 30)
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// pct is the q-th percentile (nearest rank).
func pct(d []time.Duration, q int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	i := (q*len(s)+99)/100 - 1
	return s[max(0, min(i, len(s)-1))]
}

// waitAttached waits until n clients are attached (the wait's control client).
func waitAttached(b *testing.B, s *tmuxtest.Server, n int) {
	b.Helper()
	for range 500 {
		if len(s.Clients()) == n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.Fatalf("no control client attached: %q", s.Clients())
}

// buildPanectl builds the binary under test (as users run it).
func buildPanectl(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "panectl")
	c := exec.Command("go", "build", "-o", bin, "github.com/panectl/panectl")
	c.Stderr = os.Stderr
	if err := c.Run(); err != nil {
		b.Fatalf("go build: %v", err)
	}
	return bin
}

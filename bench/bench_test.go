// Package bench measures panectl against SPEC.md section 11's budgets (P1 to
// P6) with a real tmux server (a private one per run) and the real binary. It holds
// benchmarks only: `go test ./...` runs nothing here; scripts/bench.sh (or
// `go test -run '^$' -bench Budgets -benchtime 1x ./bench`) runs them and
// prints a table with the budgets.
package bench

import (
	"context"
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
	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
)

const trials = 20

// BenchmarkBudgets runs P1 (detection latency against a capture-pane poll
// loop), P2 (CPU of a 5 s wait that never matches), P3 (a read since a
// cursor with 50,000 lines of history against none), P4 (`run PANE true`
// end to end), P5 (`panectl version`) and P6 (peak RSS of the 5 s wait).
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

		p3small, p3big := readSinceCursor(b, s.Client, 0), readSinceCursor(b, s.Client, 50000)
		p3 := float64(p3big) / float64(p3small)
		p4 := runTrue(b, s, panectl)
		p5 := version(b, panectl)

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
		row("P3", "read 100 lines since a cursor, 50,000 history / none", fmt.Sprintf("%.2fx (%s / %s)", p3, ms(p3big), ms(p3small)), "<= 2x", p3 <= 2)
		row("P4", "`run PANE true` end to end, bash (median / p90)", ms(pct(p4, 50))+" / "+ms(pct(p4, 90)), "median <= 60 ms", pct(p4, 50) <= 60*time.Millisecond)
		row("P5", "`panectl version` (median / p90)", ms(pct(p5, 50))+" / "+ms(pct(p5, 90)), "median <= 10 ms", pct(p5, 50) <= 10*time.Millisecond)
		row("P6", "peak RSS, 5 s wait", fmt.Sprintf("%.1f MiB", rss), "<= 30 MiB", rss <= 30)
	}
}

// runTrue measures P4: `panectl run PANE true` against a warm bash pane,
// trials times after one warm-up run.
func runTrue(b *testing.B, s *tmuxtest.Server, panectl func(...string) *exec.Cmd) []time.Duration {
	p := s.NewPane([2]int{80, 24}, "env", "PS1=$ ", "bash", "--norc", "--noprofile")
	if out, err := panectl("wait-for-text", p.ID, "--cursor", "history", "--regex", "--pattern", `^\$$`, "--timeout", "10").CombinedOutput(); err != nil {
		b.Fatalf("no bash prompt: %v: %s", err, out)
	}
	var d []time.Duration
	for i := range trials + 1 {
		c := panectl("run", p.ID, "true")
		t0 := time.Now()
		if out, err := c.CombinedOutput(); err != nil || len(out) > 0 {
			b.Fatalf("panectl run %s true: %v: %q", p.ID, err, out)
		}
		if i > 0 {
			d = append(d, time.Since(t0))
		}
	}
	return d
}

// version measures P5: `panectl version` start-up.
func version(b *testing.B, panectl func(...string) *exec.Cmd) []time.Duration {
	var d []time.Duration
	for i := range trials + 1 {
		c := panectl("version")
		t0 := time.Now()
		if err := c.Run(); err != nil {
			b.Fatalf("panectl version: %v", err)
		}
		if i > 0 {
			d = append(d, time.Since(t0))
		}
	}
	return d
}

// readSinceCursor measures P3: the median time of one read of the 100 lines
// after a cursor, in a pane whose history holds history lines before them.
func readSinceCursor(b *testing.B, c *tmux.Client, history int) time.Duration {
	ctx := context.Background()
	p, err := c.NewPane(ctx, tmux.NewOptions{Width: 80, Height: 24, HistoryLimit: 60000, Command: []string{"sh"}})
	if err != nil {
		b.Fatal(err)
	}
	defer c.KillPane(ctx, p.ID)
	if history > 0 {
		fill(b, c, p.ID, fmt.Sprintf("seq 1 %d\n", history), history-100)
	}
	cur, _, err := pane.Now(ctx, c, p.ID)
	if err != nil {
		b.Fatal(err)
	}
	fill(b, c, p.ID, "seq 1 100\n", 0)
	// testing.Benchmark cannot run inside a benchmark: median of 30 reads
	var d []time.Duration
	for range 30 {
		t0 := time.Now()
		r, err := pane.Read(ctx, c, p.ID, cur, pane.ReadOptions{MaxLines: 200})
		if err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t0))
		if len(r.Lines) < 100 {
			b.Fatalf("read %d lines, want >= 100", len(r.Lines))
		}
	}
	return pct(d, 50)
}

// fill types a command and waits until the pane's history holds at least
// minHistory rows and output has settled.
func fill(b *testing.B, c *tmux.Client, id, command string, minHistory int) {
	ctx := context.Background()
	if err := c.SendText(ctx, id, command, false); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	last := -1
	for time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		p, err := c.Pane(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		if p.HistorySize >= minHistory && p.HistorySize == last {
			return
		}
		last = p.HistorySize
	}
	b.Fatal("the pane did not settle")
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

package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
)

// P11's shape: 50 stub agents in 50 sessions, 10 state changes a second among them.
const (
	agents      = 50
	changeEvery = 100 * time.Millisecond
	changes     = 150
	quietMS     = 600
	idleFor     = 10 * time.Second
)

// TestMain runs the stub agent when the test binary is started as "benchagent" (a link to it).
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "benchagent" {
		benchAgent(os.Args[1])
		return
	}
	os.Exit(m.Run())
}

// benchAgent is the stub agent: it draws a prompt or a busy footer, as each line of its FIFO says.
func benchAgent(fifo string) {
	os.Stdout.WriteString("> ")
	f, err := os.OpenFile(fifo, os.O_RDWR, 0) // read-write: never an end of file
	if err != nil {
		os.Exit(1)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sc.Text() == "busy" {
			os.Stdout.WriteString("\x1b[H\x1b[2Jworking\r\n✻ Working… (esc to interrupt)\r\n")
		} else {
			os.Stdout.WriteString("\x1b[H\x1b[2Jdone\r\n> ")
		}
	}
}

// benchManifest is the stub agent's recognizer (a user manifest).
const benchManifest = `id = "benchagent"
processes = ["benchagent"]
fallback = "unknown"

[[rules]]
id = "bench-working"
state = "busy"
region = "screen"
regex = 'Working… \(esc to interrupt\)'

[[rules]]
id = "bench-prompt"
state = "awaiting_input"
region = "screen"
regex = '^>( |$)'
`

// BenchmarkSupervise measures P11: one `panectl events` process supervising 50 stub agents across
// 50 sessions while 10 state changes a second happen among them: the latency from each change to
// its state_changed line (p99 within the quiet window + 500 ms), then its CPU over 10 s with nothing
// changing (<= 2% of a core) and its peak RSS (<= 64 MiB). In the same run, 50 `panectl recognize`
// polls a second, the way without a supervisor, for as long as they keep up: their CPU.
func BenchmarkSupervise(b *testing.B) {
	bin := buildPanectl(b)
	s := tmuxtest.New(b)
	dir := b.TempDir()
	cfg := filepath.Join(dir, "config")
	must(b, os.MkdirAll(filepath.Join(cfg, "panectl", "recognizers"), 0o700))
	must(b, os.WriteFile(filepath.Join(cfg, "panectl", "recognizers", "bench.toml"), []byte(benchManifest), 0o600))
	self, err := os.Executable()
	must(b, err)
	agent := filepath.Join(dir, "benchagent")
	must(b, os.Symlink(self, agent))
	fifos := make([]string, agents)
	ids := make([]string, agents)
	for i := range agents {
		fifos[i] = filepath.Join(dir, fmt.Sprintf("fifo%d", i))
		must(b, mkfifo(fifos[i]))
		ids[i] = s.NewPane([2]int{80, 24}, agent, fifos[i]).ID
	}
	env := append(os.Environ(), "TMUX=", "TMUX_PANE=", "XDG_CONFIG_HOME="+cfg)
	b.ResetTimer()
	for range b.N {
		ev := startEvents(b, bin, s.Socket, env)
		// every agent's first settled state: at its prompt
		for _, id := range ids {
			ev.await(b, id, "awaiting_input", time.Now().Add(20*time.Second))
		}
		lat, busy := drive(b, ev, ids, fifos)
		for i, id := range ids { // all back at the prompt, settled
			if busy[i] {
				say(b, fifos[i], "idle")
				ev.await(b, id, "awaiting_input", time.Now().Add(20*time.Second))
			}
		}
		before := treeCPU(b, ev.cmd.Process.Pid)
		time.Sleep(idleFor)
		idle := treeCPU(b, ev.cmd.Process.Pid) - before
		rss := peakRSS(b, ev.cmd.Process.Pid)
		clients := len(s.Clients())
		ev.close()
		pollCPU, rate := recognizePolls(b, bin, s.Socket, env, ids)

		budget := time.Duration(quietMS)*time.Millisecond + 500*time.Millisecond
		share := float64(idle) / float64(idleFor)
		fmt.Printf("\nP11: one `panectl events` supervising %d stub agents in %d sessions, %d changes at 10/s, %s\n",
			agents, agents, changes, strings.TrimSpace(s.Tmux("-V")))
		row := func(what, got, budget string, ok bool) {
			verdict := map[bool]string{true: "PASS", false: "FAIL"}[ok]
			if budget == "" {
				verdict = ""
			}
			if !ok {
				b.Errorf("P11 over budget: %s: %s (budget %s)", what, got, budget)
			}
			fmt.Printf("     %-56s %-24s %-18s %s\n", what, got, budget, verdict)
		}
		all := append(slices.Clone(lat["busy"]), lat["awaiting_input"]...)
		row("change -> state_changed line, all (median / p99)", ms(pct(all, 50))+" / "+ms(pct(all, 99)), "p99 <= "+ms(budget), pct(all, 99) <= budget)
		for _, to := range []string{"busy", "awaiting_input"} {
			row(fmt.Sprintf("  to %s, %d changes (median / p99)", to, len(lat[to])), ms(pct(lat[to], 50))+" / "+ms(pct(lat[to], 99)), "", true)
		}
		row(fmt.Sprintf("CPU idle %s (control clients: %d)", idleFor, clients), fmt.Sprintf("%s (%.2f%%)", ms(idle), 100*share), "<= 2% of a core", share <= 0.02)
		row("peak RSS (VmHWM)", fmt.Sprintf("%.1f MiB", rss), "<= 64 MiB", rss <= 64)
		row(fmt.Sprintf("instead 50 `recognize` polls a second (%.0f/s done)", rate), fmt.Sprintf("%.0f%% of a core", 100*pollCPU), "", true)
	}
}

func must(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}

// say writes one line into an agent's FIFO: its next state. An agent gone is fatal (ENXIO).
func say(b *testing.B, fifo, line string) {
	f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	must(b, err)
	_, err = fmt.Fprintln(f, line)
	must(b, err)
	must(b, f.Close())
}

// drive makes the changes, one per changeEvery, each on an agent settled for 2 s, and returns
// each one's latency by new state: from the write to the events line saying it. busy says which
// agents it left busy.
func drive(b *testing.B, ev *events, ids, fifos []string) (lat map[string][]time.Duration, busy []bool) {
	lat = map[string][]time.Duration{}
	busy = make([]bool, len(ids))
	last := make([]time.Time, len(ids))
	var wg sync.WaitGroup
	var mu sync.Mutex
	tick := time.NewTicker(changeEvery)
	defer tick.Stop()
	for range changes {
		<-tick.C
		i := rand.IntN(len(ids))
		for time.Since(last[i]) < 2*time.Second {
			i = rand.IntN(len(ids))
		}
		busy[i] = !busy[i]
		to, line := "awaiting_input", "idle"
		if busy[i] {
			to, line = "busy", "busy"
		}
		t0 := time.Now()
		last[i] = t0
		say(b, fifos[i], line)
		wg.Add(1)
		go func(id, to string) {
			defer wg.Done()
			at := ev.await(b, id, to, t0.Add(10*time.Second))
			mu.Lock()
			lat[to] = append(lat[to], at.Sub(t0))
			mu.Unlock()
		}(ids[i], to)
	}
	wg.Wait()
	return lat, busy
}

// events is a running `panectl events` and the state lines it printed.
type events struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	cond *sync.Cond
	seen map[string][]seenState // by pane
	done bool
}

type seenState struct {
	to string
	at time.Time
}

func startEvents(b *testing.B, bin, socket string, env []string) *events {
	c := exec.Command(bin, "-S", socket, "events", "--quiet-ms", fmt.Sprint(quietMS))
	c.Env = env
	c.Stderr = os.Stderr
	out, err := c.StdoutPipe()
	must(b, err)
	must(b, c.Start())
	ev := &events{cmd: c, seen: map[string][]seenState{}}
	ev.cond = sync.NewCond(&ev.mu)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			at := time.Now()
			var e struct{ Type, PaneID, To string }
			var raw map[string]any
			if json.Unmarshal(sc.Bytes(), &raw) != nil {
				continue
			}
			e.Type, _ = raw["type"].(string)
			e.PaneID, _ = raw["pane_id"].(string)
			e.To, _ = raw["to"].(string)
			if e.Type != "state_changed" {
				continue
			}
			ev.mu.Lock()
			ev.seen[e.PaneID] = append(ev.seen[e.PaneID], seenState{e.To, at})
			ev.cond.Broadcast()
			ev.mu.Unlock()
		}
		ev.mu.Lock()
		ev.done = true
		ev.cond.Broadcast()
		ev.mu.Unlock()
	}()
	return ev
}

// await returns when the pane was reported in state to, taking that report; fatal after deadline.
func (ev *events) await(b *testing.B, id, to string, deadline time.Time) time.Time {
	stop := time.AfterFunc(time.Until(deadline), func() { ev.mu.Lock(); ev.cond.Broadcast(); ev.mu.Unlock() })
	defer stop.Stop()
	ev.mu.Lock()
	defer ev.mu.Unlock()
	for {
		for i, s := range ev.seen[id] {
			if s.to == to {
				ev.seen[id] = append(ev.seen[id][:i:i], ev.seen[id][i+1:]...)
				return s.at
			}
		}
		if ev.done || time.Now().After(deadline) {
			b.Errorf("P11: no state_changed to %s for %s", to, id)
			return time.Now()
		}
		ev.cond.Wait()
	}
}

func (ev *events) close() {
	_ = ev.cmd.Process.Signal(os.Interrupt)
	_ = ev.cmd.Wait()
}

// peakRSS is a process's peak resident set (VmHWM) in MiB.
func peakRSS(b *testing.B, pid int) float64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	must(b, err)
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb float64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb)
			return kb / 1024
		}
	}
	b.Fatal("no VmHWM")
	return 0
}

// recognizePolls starts `panectl recognize` on the agents in turn, one every 20 ms (50 a second),
// for 2 s, without waiting for the one before. It returns their CPU (user+sys of the processes and
// of what they waited for) as a share of one core, and the rate they ended at.
func recognizePolls(b *testing.B, bin, socket string, env []string, ids []string) (share, rate float64) {
	const polls = 100
	var mu sync.Mutex
	var cpu time.Duration
	var wg sync.WaitGroup
	start := time.Now()
	for i := range polls {
		if d := time.Until(start.Add(time.Duration(i) * 20 * time.Millisecond)); d > 0 {
			time.Sleep(d)
		}
		wg.Add(1)
		go func(id string) {
			defer wg.Done()
			c := exec.Command(bin, "-S", socket, "recognize", id)
			c.Env = env
			if err := c.Run(); err != nil {
				b.Errorf("recognize %s: %v", id, err)
				return
			}
			mu.Lock()
			cpu += c.ProcessState.UserTime() + c.ProcessState.SystemTime()
			mu.Unlock()
		}(ids[i%len(ids)])
	}
	wg.Wait()
	wall := time.Since(start)
	return float64(cpu) / float64(wall), polls / wall.Seconds()
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

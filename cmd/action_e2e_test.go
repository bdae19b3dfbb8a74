package cmd_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
)

// runJSON runs panectl --json ARGS and decodes its stdout.
func runJSON(s *tmuxtest.Server, args ...string) (map[string]any, int, string) {
	c := panectlCmd(s, append([]string{"--json"}, args...)...)
	var stderr strings.Builder
	c.Stderr = &stderr
	out, err := c.Output()
	var v map[string]any
	_ = json.Unmarshal(out, &v)
	return v, exitCode(err), stderr.String()
}

// newShellPane starts bash in a pane and waits for its prompt.
func newShellPane(t *testing.T, s *tmuxtest.Server) string {
	t.Helper()
	p := s.NewPane([2]int{100, 30}, "env", "PS1=$ ", "bash", "--norc", "--noprofile")
	if _, code, stderr := runJSON(s, "wait-for-text", p.ID, "--cursor", "history", "--regex", "--pattern", `\$ ?$`, "--timeout", "10"); code != 0 {
		t.Fatalf("no prompt: %s", stderr)
	}
	return p.ID
}

// Two runs on one pane at the same time (as parallel MCP calls make them)
// are served in turn by the pane's action lock: each returns exactly its own
// output and exit code, 10 of 10.
func TestConcurrentRunsOnePane(t *testing.T) {
	s := tmuxtest.New(t)
	id := newShellPane(t, s)
	for i := range 10 {
		var wg sync.WaitGroup
		type result struct {
			out    map[string]any
			code   int
			stderr string
		}
		res := make([]result, 2)
		for k, name := range []string{"A", "B"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := fmt.Sprintf("(echo one-%s-%d; sleep 0.2; echo two-%s-%d; exit %d)", name, i, name, i, 3+k)
				v, code, stderr := runJSON(s, "run", id, cmd, "--timeout", "20")
				res[k] = result{v, code, stderr}
			}()
		}
		wg.Wait()
		for k, name := range []string{"A", "B"} {
			r := res[k]
			want := fmt.Sprintf(`["one-%s-%d","two-%s-%d"]`, name, i, name, i)
			got, _ := json.Marshal(r.out["output"])
			if string(got) != want || r.code != 3+k || r.out["exit_code"] != float64(3+k) {
				t.Errorf("round %d run %s: output %s exit_code %v, panectl exit %d; want %s and %d (stderr %s)", i, name, got, r.out["exit_code"], r.code, want, 3+k, r.stderr)
			}
		}
	}
	if v := s.Tmux("show-options", "-p", "-q", "-v", "-t", id, "@panectl_lock"); v != "" {
		t.Errorf("lock left behind: %q", v)
	}
}

// A lock whose holder died is taken over at once; one whose lease ended is
// taken over then; a live holder makes a run wait its turn, then time out
// (exit 124) naming the holder, with nothing typed.
func TestActionLockRecovery(t *testing.T) {
	s := tmuxtest.New(t)
	id := newShellPane(t, s)
	ns, _ := os.Readlink("/proc/self/ns/pid")
	ns = strings.TrimSuffix(strings.TrimPrefix(ns, "pid:["), "]")
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	far := time.Now().Add(time.Hour).UnixMilli()
	lock := func(pid int, expiry int64) {
		s.Tmux("set-option", "-p", "-t", id, "@panectl_lock", fmt.Sprintf("run.%d.%s.0123456789abcdef.%d", pid, ns, expiry))
	}

	lock(dead.Process.Pid, far)
	start := time.Now()
	if v, code, stderr := runJSON(s, "run", id, "echo took-over", "--timeout", "10"); code != 0 || time.Since(start) > 3*time.Second {
		t.Errorf("dead holder: exit %d after %v, output %v (stderr %s); want 0 at once", code, time.Since(start), v["output"], stderr)
	}

	lock(os.Getpid(), time.Now().Add(1500*time.Millisecond).UnixMilli())
	start = time.Now()
	if _, code, stderr := runJSON(s, "run", id, "echo after-lease", "--timeout", "10"); code != 0 || time.Since(start) < time.Second {
		t.Errorf("lease of a live holder: exit %d after %v (stderr %s); want 0 once the lease ended (>= 1 s)", code, time.Since(start), stderr)
	}

	lock(os.Getpid(), far)
	_, code, stderr := runJSON(s, "run", id, "echo never-typed", "--timeout", "1")
	if code != 124 || !strings.Contains(stderr, fmt.Sprintf("run (pid %d)", os.Getpid())) {
		t.Errorf("live holder: exit %d, stderr %s; want 124 naming the holder", code, stderr)
	}
	_, code, stderr = runJSON(s, "send-text", id, "never-typed-either", "--submit", "--timeout", "1")
	if code != 124 {
		t.Errorf("send-text --submit with a live holder: exit %d, stderr %s; want 124", code, stderr)
	}
	s.Tmux("set-option", "-p", "-u", "-t", id, "@panectl_lock")
	if scr := s.Tmux("capture-pane", "-p", "-t", id); strings.Contains(scr, "never-typed") {
		t.Errorf("typed while the lock was held:\n%s", scr)
	}
}

// The echo ledger is bounded whatever was typed: five unsubmitted 1 MiB
// sends leave at most 1 MiB of pane options, and a later wait on the pane
// stays within 30 MiB RSS (SPEC.md P6).
func TestLedgerBoundedAfterHugeSends(t *testing.T) {
	s := tmuxtest.New(t)
	// raw mode, no echo: the text goes to cat, not through a line editor
	p := s.NewPane([2]int{80, 24}, "sh", "-c", "stty raw -echo; exec cat > /dev/null")
	awaitCommand(t, s, p.ID, "cat")
	text := strings.Repeat("ab", 1<<19)
	for range 5 {
		c := panectlCmd(s, "send-text", p.ID, "--stdin")
		c.Stdin = strings.NewReader(text)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("send-text: %v %s", err, out)
		}
	}
	opts := s.Tmux("show-options", "-p", "-t", p.ID)
	if len(opts) > 1<<20 {
		t.Errorf("the pane's options hold %d bytes after five 1 MiB sends; want at most 1 MiB", len(opts))
	}
	if n := strings.Count(opts, "@panectl_echo_"); n == 0 || n > 16 {
		t.Errorf("%d ledger entries; want 1..16", n)
	}
	c := panectlCmd(s, "wait-for-text", p.ID, "--pattern", "never-printed", "--timeout", "3")
	err := c.Run()
	if code := exitCode(err); code != 124 {
		t.Fatalf("wait exit %d, want 124", code)
	}
	ru := c.ProcessState.SysUsage().(*syscall.Rusage)
	rss := ru.Maxrss * 1024 // KiB on Linux
	t.Logf("wait: max RSS %.1f MiB, CPU %v user + %v sys", float64(rss)/(1<<20), c.ProcessState.UserTime(), c.ProcessState.SystemTime())
	if rss > 30<<20 {
		t.Errorf("a wait after five 1 MiB sends peaked at %s bytes RSS; want <= 30 MiB", strconv.FormatInt(rss, 10))
	}
}

// SIGINT during `--json run`: the run presses C-c and ends with outcome
// interrupted; its result is on stdout, nothing on stderr (help exit-codes:
// an outcome is not an error), and the exit is 130 (tester D14).
func TestRunSIGINTJSONResultOnly(t *testing.T) {
	s := tmuxtest.New(t)
	id := newShellPane(t, s)
	c := panectlCmd(s, "--json", "run", id, "sleep 30", "--timeout", "20")
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill() })
	awaitCommand(t, s, id, "sleep") // typed, and sleep running
	_ = c.Process.Signal(syscall.SIGINT)
	code, _ := waitExit(t, c, 5*time.Second)
	var v map[string]any
	if err := json.Unmarshal([]byte(stdout.String()), &v); err != nil || v["outcome"] != "interrupted" {
		t.Errorf("stdout %q: want the result with outcome interrupted (%v)", stdout.String(), err)
	}
	if code != 130 || stderr.String() != "" {
		t.Errorf("exit %d, stderr %q; want 130 and nothing on stderr", code, stderr.String())
	}
}

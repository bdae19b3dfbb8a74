package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

// The targets of issue 30 (a lean one-shot CLI), printed under the budgets.
// They are ratios to references measured in the same run, so the machine's
// speed cancels. A missed target is printed, not failed: SPEC.md's budgets
// decide the exit status.

// buildHello builds a Go hello-world, the start-up reference.
func buildHello(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	src := "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(dir, "hello")
	c := exec.Command("go", "build", "-o", bin, ".")
	c.Dir = dir
	c.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("go build hello: %v\n%s", err, out)
	}
	return bin
}

// startup measures, interleaved trial by trial, `panectl version`, the
// hello-world, and `panectl wait-for-text` whose pattern is on the screen.
func startup(b *testing.B, panectl func(...string) *exec.Cmd, hello string, p tmux.PaneInfo, w io.Writer) (version, helloWorld, atOnce []time.Duration) {
	mark := fmt.Sprintf("ONSCREEN-%d", time.Now().UnixNano())
	fmt.Fprintln(w, mark)
	if out, err := panectl("wait-for-text", p.ID, "--cursor", "screen", "--pattern", mark, "--timeout", "10").CombinedOutput(); err != nil {
		b.Fatalf("the mark never showed: %v: %s", err, out)
	}
	timed := func(c *exec.Cmd) time.Duration {
		t0 := time.Now()
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v: %s", c.Args, err, out)
		}
		return time.Since(t0)
	}
	measure := []func(bool){
		func(keep bool) {
			if d := timed(panectl("version")); keep {
				version = append(version, d)
			}
		},
		func(keep bool) {
			if d := timed(exec.Command(hello)); keep {
				helloWorld = append(helloWorld, d)
			}
		},
		func(keep bool) {
			if d := timed(panectl("wait-for-text", p.ID, "--cursor", "screen", "--pattern", mark, "--timeout", "10")); keep {
				atOnce = append(atOnce, d)
			}
		},
	}
	for i := range trials + 1 {
		for j := range measure {
			measure[(i+j)%len(measure)](i > 0)
		}
	}
	return version, helloWorld, atOnce
}

// roundTrips counts what one warm `run PANE true` asks of tmux, through the
// CLI and through `panectl mcp`: command lists (one per tmux process, one
// per control-mode line) and client connections (tmux processes and control
// clients). It reads the log of a server of its own started with -vv.
func roundTrips(b *testing.B, bin string) (cliLists, cliClients, mcpLists, mcpClients int) {
	dir, err := os.MkdirTemp("", "pctlrt")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	socket := filepath.Join(dir, "s")
	tmuxCmd := func(args ...string) *exec.Cmd {
		c := exec.Command("tmux", append([]string{"-S", socket}, args...)...)
		c.Dir = dir
		c.Env = append(os.Environ(), "TMUX=", "TMUX_PANE=")
		return c
	}
	start := tmuxCmd("-vv", "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "env", "PS1=$ ", "bash", "--norc", "--noprofile")
	if out, err := start.CombinedOutput(); err != nil {
		b.Fatalf("tmux -vv: %v: %s", err, out)
	}
	defer tmuxCmd("kill-server").Run()
	logs, _ := filepath.Glob(filepath.Join(dir, "tmux-server-*.log"))
	if len(logs) != 1 {
		b.Fatalf("tmux -vv left no server log in %s", dir)
	}
	panectl := func(args ...string) *exec.Cmd {
		c := exec.Command(bin, append([]string{"-S", socket}, args...)...)
		c.Env = append(os.Environ(), "TMUX=", "TMUX_PANE=")
		return c
	}
	id := strings.TrimSpace(output(b, tmuxCmd("display", "-p", "#{pane_id}")))
	if out, err := panectl("wait-for-text", id, "--cursor", "history", "--regex", "--pattern", `^\$$`, "--timeout", "10").CombinedOutput(); err != nil {
		b.Fatalf("no bash prompt: %v: %s", err, out)
	}
	count := func(run func()) (lists, clients int) {
		run() // warm: the prompt is learned
		if err := os.Truncate(logs[0], 0); err != nil {
			b.Fatal(err)
		}
		run()
		return countLog(b, logs[0])
	}
	cliLists, cliClients = count(func() { output(b, panectl("run", id, "true")) })
	m := startMCP(b, bin, socket)
	defer m.close(b)
	mcpLists, mcpClients = count(func() {
		if out, err := m.call("run_shell_command", map[string]any{"pane_id": id, "command": "true"}); err != nil || out["outcome"] != "completed" {
			b.Fatalf("run_shell_command true: %v: %v", err, out)
		}
	})
	return cliLists, cliClients, mcpLists, mcpClients
}

// countLog counts the command lists and new clients in a tmux -vv server log.
func countLog(b *testing.B, path string) (lists, clients int) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 4 && fields[1] == "cmdq_fire_command":
			seen[fields[2]+fields[3]] = true // <client-PID>: (group)
		case len(fields) >= 3 && fields[1] == "new" && fields[2] == "client":
			clients++
		}
	}
	return len(seen), clients
}

func output(b *testing.B, c *exec.Cmd) string {
	b.Helper()
	out, err := c.Output()
	if err != nil {
		b.Fatalf("%s: %v", c.Args, err)
	}
	return string(out)
}

// buildPeer builds libtmux-go's MCP server (libtmux-mcp) from the source
// tree or bare git directory in PANECTL_BENCH_PEER, outside this module. It
// returns the binary, or "" and why not.
func buildPeer(b *testing.B) (bin, why string) {
	src := os.Getenv("PANECTL_BENCH_PEER")
	if src == "" {
		return "", "not built: no source given (scripts/bench.sh --peer DIR, DIR a libtmux-go checkout or bare git mirror)"
	}
	dir := b.TempDir()
	tree := src
	if _, err := os.Stat(filepath.Join(src, "mcp", "go.mod")); err != nil {
		tree = filepath.Join(dir, "src")
		if err := os.Mkdir(tree, 0o755); err != nil {
			b.Fatal(err)
		}
		archive := exec.Command("sh", "-c", `git --git-dir="$1" archive HEAD | tar -x -C "$2"`, "sh", src, tree)
		if out, err := archive.CombinedOutput(); err != nil {
			return "", fmt.Sprintf("not built: %s is no libtmux-go tree or git directory: %v: %s", src, err, out)
		}
	}
	bin = filepath.Join(dir, "libtmux-mcp")
	// The module proxy has no workspace@v0.0.1-alpha.4: use the same
	// commit's sources. (-modfile keeps a given tree unchanged.)
	modfile := filepath.Join(dir, "go.mod")
	script := `cp go.mod "$1" && cp go.sum "${1%.mod}.sum" &&
go mod edit -modfile "$1" -replace github.com/libtmux/libtmux-go/workspace=../workspace -replace github.com/libtmux/libtmux-go=../ &&
go build -modfile "$1" -o "$2" ./cmd/libtmux-mcp`
	c := exec.Command("sh", "-c", script, "sh", modfile, bin)
	c.Dir = filepath.Join(tree, "mcp")
	c.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := c.CombinedOutput(); err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return "", fmt.Sprintf("not built (offline? its modules must be in the module cache or proxy): %v: %s", err, lines[len(lines)-1])
	}
	return bin, ""
}

// startPeer starts libtmux-mcp on the server's socket.
func startPeer(b *testing.B, bin string, s *tmuxtest.Server) *mcpClient {
	return startStdio(b, exec.Command(bin, "-socket-path", s.Socket))
}

// cursorReads measures, interleaved, a read of the 100 lines after a cursor
// with 50,000 lines of history before it: panectl mcp's capture and the
// peer's capture_since (nil peer: panectl only).
func cursorReads(b *testing.B, s *tmuxtest.Server, m, peer *mcpClient) (viaMCP, viaPeer []time.Duration) {
	p, err := s.Client.NewPane(context.Background(), tmux.NewOptions{Width: 80, Height: 24, HistoryLimit: 60000, Command: []string{"sh"}})
	if err != nil {
		b.Fatal(err)
	}
	fill(b, s.Client, p.ID, "seq 1 50000\n", 50000-100)
	cur, err := m.call("cursor", map[string]any{"pane_id": p.ID})
	if err != nil {
		b.Fatal(err)
	}
	var peerCur string
	if peer != nil {
		out, err := peer.call("capture_since", map[string]any{"paneId": p.ID})
		if err != nil {
			b.Fatal(err)
		}
		peerCur, _ = out["cursor"].(string)
	}
	fill(b, s.Client, p.ID, "seq 1 100\n", 0)
	measure := []func(bool){
		func(keep bool) {
			t0 := time.Now()
			out, at, err := m.callAt("capture", map[string]any{"pane_id": p.ID, "cursor": cur["cursor"], "max_lines": 200})
			if lines, _ := out["output"].([]any); err != nil || len(lines) < 100 {
				b.Fatalf("capture since a cursor: %v: %d lines", err, len(lines))
			}
			if keep {
				viaMCP = append(viaMCP, at.Sub(t0))
			}
		},
	}
	if peer != nil {
		measure = append(measure, func(keep bool) {
			t0 := time.Now()
			out, at, err := peer.callAt("capture_since", map[string]any{"paneId": p.ID, "cursor": peerCur, "maxLines": 200})
			if lines, _ := out["lines"].([]any); err != nil || len(lines) < 100 {
				b.Fatalf("libtmux-mcp capture_since: %v: %d lines", err, len(lines))
			}
			if keep {
				viaPeer = append(viaPeer, at.Sub(t0))
			}
		})
	}
	for i := range trials + 1 {
		for j := range measure {
			measure[(i+j)%len(measure)](i > 0)
		}
	}
	return viaMCP, viaPeer
}

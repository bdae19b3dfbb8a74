package tmux_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

func TestDecodeOutput(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`plain`, "plain"},
		{`a\015\012b`, "a\r\nb"},
		{`\033[1mX`, "\x1b[1mX"},
		{`back\134slash`, `back\slash`},
		{"h\xc3\xa9llo", "h\xc3\xa9llo"}, // UTF-8 is written as is
		{"half \xc3", "half \xc3"},       // a character split across notifications
		{`\03`, `\03`},                   // truncated escape kept verbatim
		{`\9xx`, `\9xx`},                 // not octal
		{`\101\102`, "AB"},
	} {
		if got := string(tmux.DecodeOutput([]byte(tc.in))); got != tc.want {
			t.Errorf("DecodeOutput(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// recorder collects control events.
type recorder struct {
	mu     sync.Mutex
	out    bytes.Buffer
	kinds  []tmux.ControlEventKind
	lines  []string
	notify chan struct{}
}

func newRecorder() *recorder { return &recorder{notify: make(chan struct{}, 1)} }

func (r *recorder) on(e tmux.ControlEvent) {
	r.mu.Lock()
	if e.Kind == tmux.EventOutput {
		r.out.Write(e.Data)
	}
	r.kinds = append(r.kinds, e.Kind)
	r.lines = append(r.lines, e.Line)
	r.mu.Unlock()
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

// waitFor waits until cond holds on the recorder or fails after 5 s.
func (r *recorder) waitFor(t *testing.T, what string, cond func(r *recorder) bool) {
	t.Helper()
	// generous: after a stall the client reads through megabytes of
	// buffered %output before the %pause behind them, on a loaded machine
	deadline := time.After(30 * time.Second)
	for {
		r.mu.Lock()
		ok := cond(r)
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.notify:
		case <-deadline:
			r.mu.Lock()
			defer r.mu.Unlock()
			t.Fatalf("no %s; output %q, notifications %q", what, r.out.String(), r.lines)
		}
	}
}

func TestControlDeliversTargetOutputOnlyAndChangesNothing(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	// a second pane in the same window, active, and a second window
	s.Tmux("split-window", "-d", "-t", p.ID, "cat")
	other := s.Tmux("display-message", "-p", "-t", p.SessionID+":0.1", "#{pane_id}")
	s.Tmux("select-pane", "-t", other)
	s.Tmux("new-window", "-d", "-t", p.SessionID+":", "cat")
	before := s.Layout()
	if c := s.Clients(); len(c) != 0 {
		t.Fatalf("clients before: %q", c)
	}

	rec := newRecorder()
	k, err := s.Client.Control(context.Background(), p, tmux.ControlOptions{OnEvent: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	clients := s.Clients()
	if len(clients) != 1 || !strings.Contains(clients[0], "control-mode") || strings.Contains(clients[0], "read-only") != tmux.ReadOnlyFlag(s.Client) || !strings.Contains(clients[0], "ignore-size") {
		t.Fatalf("clients during (read-only flag expected: %v): %q", tmux.ReadOnlyFlag(s.Client), clients)
	}
	s.Tmux("send-keys", "-t", other, "-l", "noise-from-other")
	s.Tmux("send-keys", "-t", p.ID, "-l", "h\u00e9llo \\ \x1b[1mbold")
	rec.waitFor(t, "target output", func(r *recorder) bool { return strings.Contains(r.out.String(), "bold") })
	if got := rec.out.String(); !strings.Contains(got, "h\u00e9llo \\ ") || strings.Contains(got, "noise") {
		t.Errorf("output = %q", got)
	}
	if during := s.Layout(); during != before {
		t.Errorf("layout changed while attached:\n%s\nwas\n%s", during, before)
	}
	k.Close()
	<-k.Done()
	if c := s.Clients(); len(c) != 0 {
		t.Errorf("clients after Close: %q", c)
	}
	if after := s.Layout(); after != before {
		t.Errorf("layout changed:\n%s\nwas\n%s", after, before)
	}
	k.Close() // idempotent
}

// While panectl's control client is attached, typing into the session from
// outside tmux (a script's `tmux send-keys`, panectl's own send-text) goes
// on working. From tmux 3.7 on, send-keys refuses to run when its target
// client is read-only, and a send-keys from outside tmux takes the most
// recently active client as its target: panectl's client, were it
// read-only (tmux commit 49bb43047). So from 3.7 on it attaches without
// the read-only flag (it sends only commands that read either way).
func TestControlLeavesTypingAlone(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	rec := newRecorder()
	k, err := s.Client.Control(context.Background(), p, tmux.ControlOptions{OnEvent: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if out, err := s.TryTmux("send-keys", "-t", p.ID, "-l", "typed-from-outside"); err != nil {
		t.Fatalf("send-keys while panectl's client is attached: %v %s", err, out)
	}
	if err := s.Client.SendText(context.Background(), p.ID, "typed-by-panectl", true); err != nil {
		t.Fatalf("panectl's own typing while its client is attached: %v", err)
	}
	rec.waitFor(t, "both typed texts", func(r *recorder) bool {
		return strings.Contains(r.out.String(), "typed-from-outside") && strings.Contains(r.out.String(), "typed-by-panectl")
	})
}

func TestControlNoticesPaneDeath(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	s.Tmux("split-window", "-d", "-t", p.ID, "cat")
	rec := newRecorder()
	k, err := s.Client.Control(context.Background(), p, tmux.ControlOptions{OnEvent: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	rec.mu.Lock()
	n := len(rec.kinds)
	rec.mu.Unlock()
	s.Tmux("kill-pane", "-t", p.ID)
	rec.waitFor(t, "change after kill-pane", func(r *recorder) bool { return len(r.kinds) > n })
	// the last pane of the session: the client ends
	s.Tmux("kill-session", "-t", p.SessionID)
	select {
	case <-k.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("client still attached after its session was killed")
	}
	if !strings.Contains(k.Reason(), "tmux") {
		t.Errorf("reason = %q", k.Reason())
	}
}

func TestControlEndsWhenServerDies(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	k, err := s.Client.Control(context.Background(), p, tmux.ControlOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	s.Tmux("kill-server")
	select {
	case <-k.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("client did not end when the server died")
	}
}

func TestControlDetachesOnContextCancel(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	ctx, cancel := context.WithCancel(context.Background())
	k, err := s.Client.Control(ctx, p, tmux.ControlOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-k.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("client did not detach on cancel")
	}
	if c := s.Clients(); len(c) != 0 {
		t.Errorf("clients after cancel: %q", c)
	}
}

func TestControlUnavailable(t *testing.T) {
	s := tmuxtest.New(t)
	_, err := s.Client.Control(context.Background(), tmux.PaneInfo{ID: "%99", SessionID: "$99"}, tmux.ControlOptions{})
	if !errors.Is(err, tmux.ErrControlUnavailable) {
		t.Fatalf("err = %v, want ErrControlUnavailable", err)
	}
	if c := s.Clients(); len(c) != 0 {
		t.Errorf("clients: %q", c)
	}
}

// A panectl process that dies without detaching leaves no client: the
// kernel kills the control client (Pdeathsig).
func TestControlDiesWithParent(t *testing.T) {
	if os.Getenv("PANECTL_CONTROL_HELPER") != "" {
		return
	}
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	cmd := exec.Command(os.Args[0], "-test.run=^TestControlHelper$")
	cmd.Env = append(os.Environ(), "PANECTL_CONTROL_HELPER=1", "HELPER_SOCKET="+s.Socket, "HELPER_PANE="+p.ID, "HELPER_SESSION="+p.SessionID)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if _, err := out.Read(buf); err != nil || !strings.HasPrefix(string(buf), "ready") {
		t.Fatalf("helper: %q %v", buf, err)
	}
	if c := s.Clients(); len(c) != 1 {
		t.Fatalf("clients while the helper runs: %q", c)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	deadline := time.Now().Add(2 * time.Second)
	for len(s.Clients()) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("client left attached after its parent was killed: %q", s.Clients())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestControlHelper(t *testing.T) {
	if os.Getenv("PANECTL_CONTROL_HELPER") == "" {
		return
	}
	c, err := tmux.NewClient(tmux.Server{Socket: os.Getenv("HELPER_SOCKET"), From: "-S"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Control(context.Background(), tmux.PaneInfo{ID: os.Getenv("HELPER_PANE"), SessionID: os.Getenv("HELPER_SESSION")}, tmux.ControlOptions{})
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("ready\n")
	time.Sleep(time.Minute)
}

// A snapshot through the control client is the snapshot a tmux process
// takes: the same description, captures (wrapped, escaped, alternate) and
// user options, with no process started for it.
func TestControlSnapshotOptionsMatchesClient(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{20, 6}, "cat")
	ctx := context.Background()
	if err := s.Client.SendTextOptions(ctx, p.ID, "a fairly long line that wraps \x1b[1mbold\x1b[0m", true,
		map[string]string{"@panectl_t_a": "one", "@panectl_t_b": "two"}, nil); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		s.Tmux("send-keys", "-t", p.ID, "-l", "row "+strings.Repeat("x", i)+"\r")
	}
	s.Tmux("send-keys", "-t", p.ID, "Enter")
	rec := newRecorder()
	k, err := s.Client.Control(ctx, p, tmux.ControlOptions{OnEvent: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	specs := []tmux.CaptureSpec{
		{Start: -64, ToBottom: true},
		{Start: -3, ToBottom: true, Join: true, Escapes: true},
		{Alternate: true, Start: 0, ToBottom: true},
		{FromOldest: true, End: -1},
	}
	// the pane is quiet once two snapshots agree
	var want []string
	var wantInfo tmux.PaneInfo
	var wantOpts map[string]string
	for range 50 {
		info, texts, opts, err := s.Client.SnapshotOptions(ctx, p.ID, "@panectl_t_", specs...)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(texts, "|") == strings.Join(want, "|") {
			break
		}
		want, wantInfo, wantOpts = texts, info, opts
		time.Sleep(20 * time.Millisecond)
	}
	info, texts, opts, err := k.SnapshotOptions(ctx, p.ID, "@panectl_t_", specs...)
	if err != nil {
		t.Fatal(err)
	}
	if info != wantInfo {
		t.Errorf("pane through control:\n%+v\nthrough a process:\n%+v", info, wantInfo)
	}
	for i := range specs {
		if texts[i] != want[i] {
			t.Errorf("capture %d through control %q, through a process %q", i, texts[i], want[i])
		}
	}
	if len(opts) != 2 || opts["@panectl_t_a"] != "one" || opts["@panectl_t_b"] != "two" || len(wantOpts) != 2 {
		t.Errorf("options through control %v, through a process %v", opts, wantOpts)
	}
	if _, _, _, err := k.SnapshotOptions(ctx, "%999", ""); err == nil {
		t.Error("a snapshot of another pane through the control client succeeded")
	}
	s.Tmux("kill-pane", "-t", p.ID)
	if _, _, _, err := k.SnapshotOptions(ctx, p.ID, ""); !errors.Is(err, tmux.ErrPaneNotFound) && !errors.Is(err, tmux.ErrControlClosed) {
		t.Errorf("snapshot of a killed pane: %v", err)
	}
}

// Below tmux 3.7 (this machine's 3.3a) the client is panectl's own: tmux
// lists it with panectl's pid and no `tmux -C` process runs; from 3.7 on it
// is `tmux -C`. Either way the attach leaves the session's environment
// alone (attach-session -E) and the client detaches cleanly.
func TestControlClientKindFollowsVersion(t *testing.T) {
	s := tmuxtest.New(t)
	version := s.Tmux("display-message", "-p", "#{version}")
	mode := tmux.AttachModeOf(s.Client)
	// DISPLAY is in update-environment: the session gets it from the
	// environment it is created in; an attach without -E would copy (or
	// clear) it from the client's
	t.Setenv("DISPLAY", ":panectl-test")
	p := s.NewPane([2]int{80, 24}, "cat")
	env := func() string {
		out, err := s.TryTmux("show-environment", "-t", p.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	envBefore := env()
	k, err := s.Client.Control(context.Background(), p, tmux.ControlOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := s.Tmux("list-clients", "-F", "#{client_pid} #{client_flags}")
	switch mode {
	case "proto":
		if kind := tmux.ControlKind(k); kind != "proto" {
			t.Errorf("tmux %s: client kind %q, want panectl's own", version, kind)
		}
		if want := fmt.Sprint(os.Getpid()) + " "; !strings.HasPrefix(got, want) || !strings.Contains(got, "control-mode") || !strings.Contains(got, "UTF-8") {
			t.Errorf("clients %q, want one control-mode UTF-8 client with pid %d", got, os.Getpid())
		}
	case "plain":
		if kind := tmux.ControlKind(k); kind != "exec" {
			t.Errorf("tmux %s: client kind %q, want tmux -C", version, kind)
		}
	default:
		t.Errorf("tmux %s: attach mode %q", version, mode)
	}
	if after := env(); after != envBefore {
		t.Errorf("the attach changed the session's environment:\n%s\nwas\n%s", after, envBefore)
	}
	k.Close()
	<-k.Done()
	if k.Reason() != "closed" {
		t.Errorf("reason %q", k.Reason())
	}
	if c := s.Clients(); len(c) != 0 {
		t.Errorf("clients after Close: %q", c)
	}
}

// A server that was not started from the tmux binary panectl runs (here a
// copy of it) may speak another header layout: panectl does not speak the
// protocol to it and attaches with `tmux -C` under the socket lock.
func TestControlFallsBackToLockedTmuxC(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	bin, err := os.ReadFile(s.Client.Bin)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyBin := dir + "/tmux"
	if err := os.WriteFile(copyBin, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	c := *s.Client
	c.Bin = copyBin
	defer tmux.ForceAttach("proto")() // as below 3.7, whatever this machine's tmux
	rec := newRecorder()
	k, err := c.Control(context.Background(), p, tmux.ControlOptions{OnEvent: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	if kind := tmux.ControlKind(k); kind != "exec" {
		t.Errorf("client kind %q, want tmux -C", kind)
	}
	if _, err := os.Stat(s.Socket + ".panectl.lock"); err != nil {
		t.Errorf("no socket lock: %v", err)
	}
	s.Tmux("send-keys", "-t", p.ID, "-l", "through-tmux-C")
	rec.waitFor(t, "output", func(r *recorder) bool { return strings.Contains(r.out.String(), "through-tmux-C") })
	k.Close()
	if c := s.Clients(); len(c) != 0 {
		t.Errorf("clients after Close: %q", c)
	}
}

// A frozen server (SIGSTOP) cannot hold the attach: Control gives up after
// its attach timeout, and once the server runs again nothing stays attached.
func TestControlFrozenServer(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	pid, err := strconv.Atoi(s.Tmux("display-message", "-p", "#{pid}"))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	cont := sync.OnceFunc(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	defer cont()
	start := time.Now()
	_, err = s.Client.Control(context.Background(), p, tmux.ControlOptions{AttachTimeout: 300 * time.Millisecond})
	took := time.Since(start)
	if !errors.Is(err, tmux.ErrControlUnavailable) {
		t.Errorf("err = %v, want ErrControlUnavailable", err)
	}
	// the attach timeout, the 500 ms detach grace, and a generous margin
	if took > 5*time.Second {
		t.Errorf("Control took %v against a frozen server", took)
	}
	cont()
	deadline := time.Now().Add(5 * time.Second)
	for len(s.Clients()) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("clients after the server resumed: %q", s.Clients())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Clients that detach, end with their session, or fail to attach leave no
// file descriptor behind (a long-lived MCP server attaches many).
func TestControlLeavesNoFileDescriptors(t *testing.T) {
	s := tmuxtest.New(t)
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd")
		}
		return len(ents)
	}
	ctx := context.Background()
	// warm up: the first attach starts runtime threads and pollers
	warm := s.NewPane([2]int{80, 24}, "cat")
	if k, err := s.Client.Control(ctx, warm, tmux.ControlOptions{}); err == nil {
		k.Close()
	}
	before := fds()
	for range 5 {
		p := s.NewPane([2]int{80, 24}, "cat")
		k, err := s.Client.Control(ctx, p, tmux.ControlOptions{})
		if err != nil {
			t.Fatal(err)
		}
		k.Close()
		k, err = s.Client.Control(ctx, p, tmux.ControlOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s.Tmux("kill-session", "-t", p.SessionID)
		select {
		case <-k.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("client still attached after its session was killed")
		}
		if _, err := s.Client.Control(ctx, tmux.PaneInfo{ID: "%99", SessionID: "$99"}, tmux.ControlOptions{}); err == nil {
			t.Fatal("attached to a session that does not exist")
		}
	}
	if after := fds(); after > before {
		t.Errorf("%d file descriptors open after 15 clients, %d before", after, before)
	}
}

// An ended context stops the attach at once and leaves nothing attached.
func TestControlHonoursEndedContext(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if k, err := s.Client.Control(ctx, p, tmux.ControlOptions{}); !errors.Is(err, context.Canceled) {
		if k != nil {
			k.Close()
		}
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(s.Clients()) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("clients after a cancelled attach: %q", s.Clients())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The death watch reads the pane's process too: respawn-pane -k, which
// sends a control client nothing and leaves the pane alive, is an
// EventChange naming both pids (once per new process); the pane's death
// afterwards is still reported.
func TestControlDeathWatchSeesRespawn(t *testing.T) {
	s := tmuxtest.New(t)
	s.Tmux("set-option", "-g", "remain-on-exit", "on")
	p := s.NewPane([2]int{80, 24}, "sleep", "300")
	rec := newRecorder()
	k, err := s.Client.Control(context.Background(), p, tmux.ControlOptions{OnEvent: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	k.WatchDeath()
	s.Tmux("respawn-pane", "-k", "-t", p.ID, "sleep 1")
	now := s.Tmux("display-message", "-p", "-t", p.ID, "#{pane_pid}")
	want := fmt.Sprintf("(process %d, now %s", p.PID, now)
	rec.waitFor(t, "respawn change", func(r *recorder) bool {
		for i, l := range r.lines {
			if r.kinds[i] == tmux.EventChange && strings.Contains(l, "pane_pid changed") && strings.Contains(l, want) {
				return true
			}
		}
		return false
	})
	rec.waitFor(t, "death after the respawn", func(r *recorder) bool {
		return slices.ContainsFunc(r.lines, func(l string) bool { return strings.Contains(l, "pane_dead or gone") })
	})
	r := rec
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, l := range r.lines {
		if strings.Contains(l, "pane_pid changed") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("respawn reported %d times, want once: %q", n, r.lines)
	}
}

// A stopped server (SIGSTOP): once the death watch's question has gone
// unanswered for 5 s with nothing else heard from the server, the client
// stalls: its subscriptions get an EventChange, and commands through it
// fail at once with a *NotRespondingError instead of waiting. The server
// continued, its first line ends the stall: commands work again.
func TestControlStallsOnStoppedServerAndRecovers(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	ctx := context.Background()
	rec := newRecorder()
	k, err := s.Client.Control(ctx, p, tmux.ControlOptions{OnEvent: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	k.WatchDeath()
	pid, err := strconv.Atoi(s.Tmux("display-message", "-p", "#{pid}"))
	if err != nil {
		t.Fatal(err)
	}
	resume := func() { _ = syscall.Kill(pid, syscall.SIGCONT) }
	t.Cleanup(resume)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "not responding change", func(r *recorder) bool {
		return slices.ContainsFunc(r.lines, func(l string) bool { return strings.HasPrefix(l, "not responding: ") })
	})
	// (no bound on how fast: the point is that it fails, not waits)
	if _, err := k.Command(ctx, []string{"display-message", "-p", "x"}); !errors.Is(err, tmux.ErrNotResponding) {
		t.Fatalf("command through a stalled client: %v, want not responding", err)
	}
	if s.Client.Answering() {
		t.Error("the client still counts the server as answering")
	}
	resume()
	var out []string
	for range 200 {
		if out, err = k.Command(ctx, []string{"display-message", "-p", "back"}); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil || len(out) != 1 || strings.TrimSpace(out[0]) != "back" {
		t.Fatalf("command after SIGCONT: %q %v", out, err)
	}
}

// A cwd holding \x1f, U+241F, a newline and a line like a block's end reads
// back exactly through a process, the control client and a listing.
func TestOddCWDReadsBackExactly(t *testing.T) {
	s := tmuxtest.New(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(dir, "a\x1fb\u241fc\n%end 1 2 1\nd é")
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := s.Client.NewPane(ctx, tmux.NewOptions{CWD: odd, Command: []string{"cat"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.CWD != odd {
		t.Errorf("new pane's cwd %q, want %q", p.CWD, odd)
	}
	k, err := s.Client.Control(ctx, p, tmux.ControlOptions{OnEvent: newRecorder().on})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	info, _, _, err := k.SnapshotOptions(ctx, p.ID, "")
	if err != nil || info.CWD != odd {
		t.Errorf("through control: cwd %q, %v", info.CWD, err)
	}
	panes, bad, err := s.Client.ListPanes(ctx)
	if err != nil || len(bad) != 0 || len(panes) != 2 {
		t.Fatalf("list: %v, bad rows %v, %v", panes, bad, err)
	}
	for _, q := range panes {
		if q.ID == p.ID && q.CWD != odd {
			t.Errorf("listed with cwd %q", q.CWD)
		}
	}
}

package tmux_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

// A read-only list run by panectl's own one-shot client gives what a tmux
// process gives, byte for byte, errors included: titles and options with
// control characters, tabs and wide text, captures, several commands, a
// failure first or last, hooks that print. A pane that forges block ends
// cuts nothing short (a process reads instead); no server and a stopped
// server are reported as a process would.
func TestOwnClientRunsLikeAProcess(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	if tmux.AttachModeOf(s.Client) != "proto" {
		t.Skipf("tmux %s takes no client of panectl's own", s.Tmux("-V"))
	}
	p := s.NewPane([2]int{40, 10}, "sh", "-c", `printf 'one\ttab\n\033[1mbold\033[0m ünï ✓\n'; exec cat`)
	s.Tmux("select-pane", "-t", p.ID, "-T", "title\x01with\tbytes\\ and ;")
	s.Tmux("set-option", "-p", "-t", p.ID, "@panectl_test", "a value; with spaces")
	s.Tmux("wait-for", "-S", "x") // (a server round trip: the pane has printed by the next look)
	for _, cmds := range [][]tmux.Command{
		{{"display-message", "-p", "-t", p.ID, "#{pane_id}\x1f#{pane_title}\x1f#{@panectl_test}"}},
		{{"list-panes", "-a", "-F", "#{pane_id} #{session_id} #{pane_width}x#{pane_height}"}},
		{{"capture-pane", "-p", "-e", "-J", "-t", p.ID}},
		{{"show-options", "-p", "-t", p.ID}},
		{{"display-message", "-p", "-t", p.ID, "#{pane_pid}"}, {"capture-pane", "-p", "-t", p.ID, "-S", "-", "-E", "-"}},
		{{"capture-pane", "-p", "-t", "%999"}},
		{{"display-message", "-p", "-t", p.ID, "first"}, {"show-options", "-p", "-t", "%999"}},
		{{"list-sessions", "-F", "#{session_id}", "-f", "#{==:a,b}"}},
	} {
		own, ok, ownErr := tmux.RunOwn(ctx, s.Client, cmds...)
		if !ok {
			t.Fatalf("%q: not run by the own client", cmds)
		}
		proc, procErr := tmux.RunProcess(ctx, s.Client, cmds...)
		if own != proc {
			t.Errorf("%q: own client %q, a process %q", cmds, own, proc)
		}
		var ownTE, procTE *tmux.Error
		errors.As(ownErr, &ownTE)
		errors.As(procErr, &procTE)
		if (ownErr == nil) != (procErr == nil) || (ownTE == nil) != (procTE == nil) {
			t.Fatalf("%q: own client error %v, a process %v", cmds, ownErr, procErr)
		}
		if ownTE != nil && (ownTE.Stderr != procTE.Stderr || !reflect.DeepEqual(ownTE.Args, procTE.Args) ||
			errors.Is(ownErr, tmux.ErrPaneNotFound) != errors.Is(procErr, tmux.ErrPaneNotFound)) {
			t.Errorf("%q: own client error %#v, a process %#v", cmds, ownTE, procTE)
		}
	}
	// hooks: each hook's output comes as a block of its own, as a
	// process prints it
	s.Tmux("set-hook", "-g", "after-display-message", "set-option -g @panectl_test_hooked 1")
	s.Tmux("set-hook", "-g", "after-capture-pane", "list-sessions -F HOOKED")
	hooked := []tmux.Command{{"display-message", "-p", "-t", p.ID, "#{pane_id}"}, {"capture-pane", "-p", "-t", p.ID}, {"show-options", "-p", "-t", p.ID}}
	own, ok, err := tmux.RunOwn(ctx, s.Client, hooked...)
	proc, procErr := tmux.RunProcess(ctx, s.Client, hooked...)
	if !ok || err != nil || procErr != nil || own != proc {
		t.Errorf("with hooks: own client %q (ok %v, %v), a process %q (%v)", own, ok, err, proc, procErr)
	}
	s.Tmux("set-hook", "-gu", "after-display-message")
	s.Tmux("set-hook", "-gu", "after-capture-pane")
	// A pane that prints likely block ends ("%end TIME NUMBER FLAGS" for
	// the next seconds and the first 1500 command numbers) cuts no capture
	// short: the own client does not trust the stream, and a process reads.
	s.Tmux("set-option", "-g", "history-limit", "10000")
	spoof := s.NewPane([2]int{40, 10}, "sh", "-c",
		`awk -v now=$(date +%s) 'BEGIN { for (t = now; t <= now + 3; t++) for (n = 1; n <= 1500; n++) print "%end " t " " n " 0"; print "LAST LINE" }'; exec cat`)
	whole := []tmux.Command{{"capture-pane", "-p", "-t", spoof.ID, "-S", "-", "-E", "-"}}
	for deadline := time.Now().Add(10 * time.Second); ; {
		out, err := tmux.RunProcess(ctx, s.Client, whole...)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, "LAST LINE") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the spoofing pane never printed its last line: %q", out[max(0, len(out)-300):])
		}
	}
	proc, _ = tmux.RunProcess(ctx, s.Client, whole...)
	if own, ok, err := tmux.RunOwn(ctx, s.Client, whole...); ok && (err != nil || own != proc) {
		t.Errorf("a capture of forged block ends: own client %d bytes (%v), a process %d", len(own), err, len(proc))
	}
	if got, err := s.Client.RunList(ctx, nil, whole...); err != nil || got != proc {
		t.Errorf("a capture of forged block ends: RunList %d bytes (%v), a process %d", len(got), err, len(proc))
	}
	// nor through a kept control client: it ends, and a process reads
	func() {
		kc := *s.Client
		kc.KeepControl(time.Minute)
		defer kc.Close()
		sub, err := kc.Subscribe(ctx, spoof, func(tmux.ControlEvent) {})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		if got, ok, err := tmux.ViaKept(ctx, &kc, whole...); ok && (err != nil || got != proc) {
			t.Errorf("a capture of forged block ends through a kept client: %d bytes (%v), a process %d", len(got), err, len(proc))
		}
		if got, err := kc.RunList(ctx, nil, whole...); err != nil || got != proc {
			t.Errorf("a capture of forged block ends, kept client: RunList %d bytes (%v), a process %d", len(got), err, len(proc))
		}
	}()
	// what may change the server, or needs a process's stdin, is not run
	for _, cmds := range [][]tmux.Command{
		{{"set-option", "-g", "status", "off"}},
		{{"display-message", "-t", p.ID, "no -p: shown on a client"}},
		{{"kill-server"}},
	} {
		if _, ok, _ := tmux.RunOwn(ctx, s.Client, cmds...); ok {
			t.Errorf("%q ran through the own client", cmds)
		}
	}
	if got := s.Tmux("show-options", "-g", "-v", "status"); got != "on" {
		t.Errorf("status is %q after the refused set-option", got)
	}
	// no server on the socket: a process says so, in tmux's words
	gone := *s.Client
	gone.Server.Socket = filepath.Join(t.TempDir(), "none")
	if _, ok, _ := tmux.RunOwn(ctx, &gone, tmux.Command{"list-sessions"}); ok {
		t.Errorf("no server: the own client answered")
	}
	if _, err := gone.RunList(ctx, nil, tmux.Command{"list-sessions"}); !errors.Is(err, tmux.ErrNoServer) {
		t.Errorf("no server: %v, want ErrNoServer", err)
	}
	// a stopped server: not responding, by the caller's deadline; it
	// answers again once continued
	pid, _ := strconv.Atoi(s.Tmux("display-message", "-p", "#{pid}"))
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_, ok, err = tmux.RunOwn(short, s.Client, tmux.Command{"list-sessions"})
	cancel()
	_ = syscall.Kill(pid, syscall.SIGCONT)
	if !ok || !errors.Is(err, tmux.ErrNotResponding) {
		t.Errorf("stopped server: ok=%v err=%v, want ErrNotResponding", ok, err)
	}
	if _, err := s.Client.Run(ctx, "list-sessions"); err != nil {
		t.Fatal(err)
	}
	// the server still has the pane and no client of panectl's
	if clients := s.Clients(); len(clients) != 0 {
		t.Errorf("clients left attached: %q", clients)
	}
}

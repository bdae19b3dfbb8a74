//go:build linux

package cmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"golang.org/x/sys/unix"
)

// Free text in a pane's description cannot forge a field or a row (issue 25,
// security.md M2): a cwd holding \x1f, U+241F and a newline; a cwd and an
// argv[0] each holding a pane row of the old format (fields joined by U+241F,
// rows by newlines), one naming a session "build" that does not exist, the
// other a tty path of the program's choosing (a FIFO here, so an open shows).
func TestForgedPaneRows(t *testing.T) {
	const S = "\u241f"
	s := tmuxtest.New(t)
	dir := t.TempDir()
	odd := filepath.Join(dir, "a\x1fb"+S+"80"+S+"24\nc")
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "device")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	victim := s.Tmux("new-session", "-d", "-s", "real", "-P", "-F", "#{pane_id}", "cat")
	// pane_current_path's row, then a row of the old format naming the victim
	rowCWD := "x" + strings.Repeat(S+"0", 22) + S + "T\n" +
		strings.Join([]string{victim, "$9", "build", "@9", "0", "0", "bash", "1", "/dev/pts/0", "/root"}, S)
	forgedDir := filepath.Join(dir, rowCWD)
	if err := os.MkdirAll(forgedDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// pane_current_command onwards: pid 1, the FIFO as tty
	argv0 := "bash" + S + "1" + S + fifo + S + "/etc" + strings.Repeat(S+"0", 22) + S + "T"
	first := s.Tmux("new-session", "-d", "-s", "first", "-c", odd, "-P", "-F", "#{pane_id}", "env", "PS1=$ ", "bash", "--norc", "--noprofile")
	s.Tmux("new-session", "-d", "-s", "other", "-c", forgedDir, "sleep", "100")
	forger := s.Tmux("new-session", "-d", "-s", "argv", "-e", "ARGV0="+argv0, "-P", "-F", "#{pane_id}", "bash", "-c", `exec -a "$ARGV0" sleep 100`)
	waitFor(t, "the forged argv[0]", func() bool {
		out, _ := s.TryTmux("display", "-p", "-t", forger, "#{pane_current_command}")
		return strings.HasPrefix(out, "bash"+S)
	})
	if _, code, stderr := runJSON(s, "wait-for-text", first, "--cursor", "history", "--regex", "--pattern", `\$ ?$`, "--timeout", "10"); code != 0 {
		t.Fatalf("no prompt in %s: %s", first, stderr)
	}

	// list: every pane, each with its own session and cwd, no note
	out, code, stderr := runJSON(s, "list")
	if code != 0 {
		t.Fatalf("list exited %d: %s", code, stderr)
	}
	var list struct {
		Panes []struct {
			PaneID      string `json:"pane_id"`
			SessionName string `json:"session_name"`
			CWD         string `json:"cwd"`
		} `json:"panes"`
		Note string `json:"note"`
	}
	b, _ := json.Marshal(out)
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(s.Tmux("list-panes", "-a", "-F", "#{pane_id}"))
	var got []string
	for _, p := range list.Panes {
		got = append(got, p.PaneID)
		if name := s.Tmux("display", "-p", "-t", p.PaneID, "#{session_name}"); p.SessionName != name {
			t.Errorf("pane %s listed in session %q, tmux says %q", p.PaneID, p.SessionName, name)
		}
		if p.PaneID == first && p.CWD != odd {
			t.Errorf("pane %s's cwd listed as %q, want %q", first, p.CWD, odd)
		}
	}
	if slices.Sort(got); !slices.Equal(got, sorted(want)) || list.Note != "" {
		t.Errorf("list gave panes %q (note %q), tmux has %q", got, list.Note, want)
	}

	// run works in the pane with the odd cwd
	v, code, stderr := runJSON(s, "run", first, "echo hello", "--timeout", "10")
	if output, _ := v["output"].([]any); code != 0 || v["exit_code"] != 0.0 || !slices.Equal(output, []any{"hello"}) {
		t.Errorf("run in %s: exit %d, %v, %s", first, code, v, stderr)
	}

	// nothing opens the tty path the program chose
	ino, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(ino)
	if _, err := unix.InotifyAddWatch(ino, fifo, unix.IN_OPEN); err != nil {
		t.Fatal(err)
	}
	_, _, _ = runJSON(s, "run", forger, "true", "--timeout", "3")
	_, _, _ = runJSON(s, "send-text", forger, "x")
	if n, _ := unix.Read(ino, make([]byte, 4096)); n > 0 {
		t.Errorf("panectl opened %s, the tty path of %s's argv[0]", fifo, forger)
	}

	// a target naming the forged row's session types into no pane
	if _, code, stderr := runJSON(s, "send-text", "build:0.0", "typed-into-build"); code != 4 {
		t.Errorf("send-text build:0.0: exit %d, want 4 (no such pane): %s", code, stderr)
	}
	s.Tmux("send-keys", "-t", victim, "-l", "SENTINEL\r")
	var screen string
	waitFor(t, "the sentinel in "+victim, func() bool {
		screen = s.Tmux("capture-pane", "-p", "-t", victim)
		return strings.Contains(screen, "SENTINEL")
	})
	if strings.Contains(screen, "typed-into-build") {
		t.Errorf("text was typed into %s:\n%s", victim, screen)
	}
}

// waitFor polls cond until it holds, failing after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

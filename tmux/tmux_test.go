package tmux

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestResolveServer(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		name, path string
		env        map[string]string
		want, from string
	}{
		{"", "/tmp/x.sock", nil, "/tmp/x.sock", "-S"},
		{"work", "", map[string]string{"TMUX_TMPDIR": "/var/tmp"}, "/var/tmp/tmux-", "-L"},
		{"", "", map[string]string{"TMUX": "/tmp/tmux-0/default,123,4"}, "/tmp/tmux-0/default", "$TMUX"},
		{"", "", map[string]string{}, "/tmp/tmux-", "default"},
		// an empty socket path in $TMUX: tmux uses the default socket
		{"", "", map[string]string{"TMUX": ",123,4", "TMUX_TMPDIR": "/var/tmp"}, "/var/tmp/tmux-", "default"},
		{"", "", map[string]string{"TMUX": ","}, "/tmp/tmux-", "default"},
	}
	for _, c := range cases {
		s, err := ResolveServer(c.name, c.path, env(c.env))
		if err != nil || !strings.HasPrefix(s.Socket, c.want) || s.From != c.from {
			t.Errorf("ResolveServer(%q, %q) = %+v, %v; want prefix %q from %s", c.name, c.path, s, err, c.want, c.from)
		}
	}
	if _, err := ResolveServer("a", "/b", env(nil)); err == nil {
		t.Error("-L with -S: want an error")
	}
	if _, err := ResolveServer("a/b", "", env(nil)); err == nil {
		t.Error("-L with a slash: want an error")
	}
}

func TestVersionAtLeast(t *testing.T) {
	for v, want := range map[string]bool{
		"tmux 3.3a": true, "tmux 3.2": true, "tmux 3.1c": false, "tmux 2.9": false,
		"tmux 10.0": true, "tmux master": true, "tmux next-3.6": true, "tmux 4.0-rc": true,
	} {
		if got := VersionAtLeast(v, MinVersion); got != want {
			t.Errorf("VersionAtLeast(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestClassify(t *testing.T) {
	for msg, want := range map[string]error{
		"no server running on /tmp/tmux-0/x":                            ErrNoServer,
		"error connecting to /tmp/tmux-0/x (No such file or directory)": ErrNoServer,
		"can't find pane: %99":                                          ErrPaneNotFound,
		"can't find session: nope":                                      ErrPaneNotFound,
		"no such session: =nope:":                                       ErrPaneNotFound,
		"unknown command: frobnicate":                                   nil,
	} {
		if got := classify(msg); got != want {
			t.Errorf("classify(%q) = %v, want %v", msg, got, want)
		}
	}
	e := &Error{Args: []string{"-S", "/s", "capture-pane"}, ExitCode: 1, Stderr: "can't find pane: %9", kind: ErrPaneNotFound}
	if !errors.Is(e, ErrPaneNotFound) || !strings.Contains(e.Error(), "capture-pane") || !strings.Contains(e.Error(), "can't find pane: %9") {
		t.Errorf("Error: %v", e)
	}
}

// TestNewClientChecksTmux: tmux missing or older than MinVersion is an error
// that says which and how to install it (SPEC.md section 2; cmd maps both to
// exit 1). The stub answers only -V: it is the version check under test, not
// a fake tmux server.
func TestNewClientChecksTmux(t *testing.T) {
	t.Setenv("PANECTL_TMUX", filepath.Join(t.TempDir(), "no-such-tmux"))
	if _, err := NewClient(Server{}); !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "apt-get install tmux") {
		t.Errorf("missing tmux: %v; want ErrNotInstalled with an install hint", err)
	}
	old := filepath.Join(t.TempDir(), "tmux")
	if err := os.WriteFile(old, []byte("#!/bin/sh\necho 'tmux 3.1c'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PANECTL_TMUX", old)
	_, err := NewClient(Server{})
	if !errors.Is(err, ErrTooOld) || !strings.Contains(err.Error(), `"tmux 3.1c"`) || !strings.Contains(err.Error(), "tmux "+MinVersion+" or newer") || !strings.Contains(err.Error(), "apt-get install tmux") {
		t.Errorf("tmux 3.1c: %v; want ErrTooOld naming the version found, the minimum and how to install", err)
	}
}

// A geometry row (Subscription.Describe, prefetches) parses into the fields
// it names, and nothing tmux could print makes the parser panic.
func FuzzParseGeometry(f *testing.F) {
	f.Add(strings.Join([]string{"%3", "42", "80", "24", "0", "10", "2000", "5", "7", "0", "1", "0", "0", "0", "23"}, sep))
	f.Add("")
	f.Add("%1" + sep + "x")
	f.Fuzz(func(t *testing.T, row string) {
		p, err := parseGeometry(row)
		if err == nil && !strings.HasPrefix(p.ID, "%") {
			t.Fatalf("parsed %q into %+v", row, p)
		}
	})
}

func TestParseGeometry(t *testing.T) {
	row := strings.Join([]string{"%3", "42", "80", "24", "1", "10", "2000", "5", "7", "1", "1", "0", "1", "2", "20"}, sep)
	p, err := parseGeometry(row)
	want := PaneInfo{ID: "%3", PID: 42, Width: 80, Height: 24, Dead: true, HistorySize: 10, HistoryLimit: 2000,
		CursorX: 5, CursorY: 7, AlternateOn: true, WrapFlag: true, OriginFlag: true, ScrollUpper: 2, ScrollLower: 20}
	if err != nil || p != want {
		t.Fatalf("parseGeometry = %+v, %v; want %+v", p, err, want)
	}
	if _, err := parseGeometry(strings.Repeat(sep, len(geometryFields)-1)); err != errNoPane {
		t.Errorf("empty row: %v, want errNoPane", err)
	}
	if _, err := parseGeometry("%3" + sep + "x"); err == nil {
		t.Error("a short row parsed")
	}
}

// CleanupContext: not cancelled with the operation's context; bounded by
// its limit or the operation's deadline, whichever is sooner, but never
// below cleanupFloor; already ended once the server did not answer.
func TestCleanupContext(t *testing.T) {
	c := &Client{}
	op, cancel := context.WithTimeout(context.Background(), time.Hour)
	cancel() // an interrupted operation
	ctx, done := c.CleanupContext(op, time.Minute)
	defer done()
	if ctx.Err() != nil {
		t.Errorf("cleanup context ended with the operation's: %v", ctx.Err())
	}
	if d, ok := ctx.Deadline(); !ok || time.Until(d) > time.Minute {
		t.Errorf("deadline %v: want at most the limit from now", d)
	}

	op, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second)) // used up
	defer cancel()
	before := time.Now()
	ctx, done = c.CleanupContext(op, time.Minute)
	defer done()
	after := time.Now()
	if d, ok := ctx.Deadline(); !ok || d.Before(before.Add(cleanupFloor)) || d.After(after.Add(cleanupFloor)) {
		t.Errorf("used-up operation: deadline %v; want the floor (%v) from the call", d, cleanupFloor)
	}

	atomic.StoreInt32(&c.silent, 1)
	ctx, done = c.CleanupContext(context.Background(), time.Minute)
	defer done()
	if ctx.Err() == nil {
		t.Error("the server did not answer the last command: want a cleanup context that has ended")
	}
}

// tmux's socket directory must be this user's and closed to others, as
// tmux itself checks: else another user could slip in a server of theirs.
func TestResolveServerRefusesUnsafeSocketDir(t *testing.T) {
	base := t.TempDir()
	env := func(k string) string {
		if k == "TMUX_TMPDIR" {
			return base
		}
		return ""
	}
	dir := filepath.Join(base, "tmux-"+strconv.Itoa(os.Getuid()))
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveServer("x", "", env); err != nil {
		t.Fatalf("a 0700 directory of one's own: %v", err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"x", ""} {
		if _, err := ResolveServer(name, "", env); err == nil || !strings.Contains(err.Error(), "directory "+dir+" has unsafe permissions") {
			t.Errorf("-L %q in a 0777 directory: %v; want tmux's refusal", name, err)
		}
	}
	// -S names a path on purpose: not checked
	if _, err := ResolveServer("", filepath.Join(dir, "x"), env); err != nil {
		t.Errorf("-S in that directory: %v", err)
	}
	if os.Getuid() != 0 {
		t.Skip("the other-user cases need root to chown (scripts/test.sh runs as root in CI)")
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveServer("x", "", env); err == nil || !strings.Contains(err.Error(), "owner uid 65534") {
		t.Errorf("a directory of another user: %v; want refused", err)
	}
	if err := os.Chown(dir, os.Getuid(), os.Getgid()); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "x")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Lchown(sock, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveServer("x", "", env); err == nil || !strings.Contains(err.Error(), "belongs to uid 65534") {
		t.Errorf("a socket of another user: %v; want refused", err)
	}
}

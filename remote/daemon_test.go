package remote

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One daemon per build and session environment: what changes with every
// connection (SSH_*, PWD, ...) does not make another; a variable of the
// session (ssh's SetEnv) does, as does another build.
func TestDaemonSocket(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	env := []string{"HOME=/srv/u", "TMUX_TMPDIR=/tmp/a", "SSH_CONNECTION=1 2 3 4", "PWD=/srv/u", "SHLVL=1"}
	a, err := DaemonSocket("1.0", "abc", env)
	if err != nil {
		t.Fatal(err)
	}
	if dir := filepath.Dir(a); !strings.HasSuffix(dir, "/panectl/remote") {
		t.Errorf("socket %s: want it in .../panectl/remote", a)
	}
	if fi, err := os.Stat(filepath.Dir(a)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("socket directory: %v, %v; want mode 0700", fi, err)
	}
	same := []string{"SSH_CONNECTION=5 6 7 8", "TMUX_TMPDIR=/tmp/a", "HOME=/srv/u", "PWD=/", "SHLVL=2", "_=/bin/sh"}
	if b, _ := DaemonSocket("1.0", "abc", same); b != a {
		t.Errorf("another connection of the same session: %s, want %s", b, a)
	}
	for _, other := range [][3]string{
		{"1.0", "abc", "TMUX_TMPDIR=/tmp/b"},
		{"1.1", "abc", "TMUX_TMPDIR=/tmp/a"},
		{"1.0", "abd", "TMUX_TMPDIR=/tmp/a"},
	} {
		if b, _ := DaemonSocket(other[0], other[1], []string{"HOME=/srv/u", other[2]}); b == a {
			t.Errorf("%q: the same daemon as %q", other, env)
		}
	}
}

// What remote-daemon printed is used in -L only as an absolute path that
// -L can carry.
func TestUsableSocketPath(t *testing.T) {
	for p, want := range map[string]bool{
		"/srv/u/.local/state/panectl/remote/d-0123456789abcdef.sock": true,
		"relative/d.sock":              false,
		"/a:b/d.sock":                  false,
		"/a b/d.sock":                  false,
		"/a\n/d.sock":                  false,
		"":                             false,
		"/" + strings.Repeat("x", 100): false,
	} {
		if got := usableSocketPath(p); got != want {
			t.Errorf("usableSocketPath(%q) = %v, want %v", p, got, want)
		}
	}
}

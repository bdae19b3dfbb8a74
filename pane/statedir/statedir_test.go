package statedir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBase(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := Base("/tmp/tmux-0/default", env(map[string]string{"XDG_STATE_HOME": "/x", "HOME": "/h"})); got != "/x/panectl/servers" {
		t.Errorf("XDG_STATE_HOME set: %s", got)
	}
	if got := Base("/tmp/tmux-0/default", env(map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"})); got != "/h/.local/state/panectl/servers" {
		t.Errorf("HOME only: %s", got)
	}
	if got := Base("/tmp/tmux-0/default", env(nil)); got != "/tmp/tmux-0/default.panectl" {
		t.Errorf("no home: %s", got)
	}
	if k := serverKey("/tmp/tmux-0/my server", 42, 1700000000); strings.ContainsAny(k, " /") || !strings.HasSuffix(k, "-42-1700000000") {
		t.Errorf("serverKey = %q", k)
	}
}

func TestEnsurePrivateDir(t *testing.T) {
	base := filepath.Join(t.TempDir(), "servers")
	dir := filepath.Join(base, "host", "key")
	if err := ensurePrivateDir(base, dir); err != nil {
		t.Fatal(err)
	}
	// A directory open to others is refused, and its mode left alone.
	os.Chmod(dir, 0o755)
	if err := ensurePrivateDir(base, dir); err == nil {
		t.Error("a 0755 state directory was accepted")
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o755 {
		t.Errorf("mode %v changed; want 0755 kept", st.Mode().Perm())
	}
	os.Chmod(dir, 0o700)
	os.Chmod(base, 0o777)
	if err := checkPrivate(base, dir); err == nil {
		t.Error("a state directory under a 0777 base was accepted")
	}
	os.Chmod(base, 0o700)
	// A symbolic link on the way is refused, even to a private directory.
	link := filepath.Join(base, "linked")
	os.Symlink(filepath.Join(base, "host"), link)
	if err := checkPrivate(base, filepath.Join(link, "key")); err == nil {
		t.Error("a state directory through a symbolic link was accepted")
	}
	if os.Getuid() == 0 {
		os.Chown(dir, 65534, 65534)
		if err := checkPrivate(base, dir); err == nil {
			t.Error("another user's state directory was accepted")
		}
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o600)
	if err := ensurePrivateDir(filepath.Dir(file), file); err == nil {
		t.Error("a file was taken for the state directory")
	}
}

package pane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStateBase(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := StateBase("/tmp/tmux-0/default", env(map[string]string{"XDG_STATE_HOME": "/x", "HOME": "/h"})); got != "/x/panectl/servers" {
		t.Errorf("XDG_STATE_HOME set: %s", got)
	}
	if got := StateBase("/tmp/tmux-0/default", env(map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"})); got != "/h/.local/state/panectl/servers" {
		t.Errorf("HOME only: %s", got)
	}
	if got := StateBase("/tmp/tmux-0/default", env(nil)); got != "/tmp/tmux-0/default.panectl" {
		t.Errorf("no home: %s", got)
	}
	if k := serverKey("/tmp/tmux-0/my server", 42, 1700000000); strings.ContainsAny(k, " /") || !strings.HasSuffix(k, "-42-1700000000") {
		t.Errorf("serverKey = %q", k)
	}
}

func TestEnsurePrivateDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := ensurePrivateDir(dir); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	if err := ensurePrivateDir(dir); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("mode %v; want 0700", st.Mode().Perm())
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o600)
	if err := ensurePrivateDir(file); err == nil {
		t.Error("a file was taken for the state directory")
	}
}

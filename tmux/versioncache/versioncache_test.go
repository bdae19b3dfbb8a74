package versioncache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// `tmux -V` is run once per binary: a second lookup reads the cache file;
// a binary changed in place (a new modification time) is asked again; a
// cache file that is not ours to trust (too large) is ignored.
func TestVersionCache(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	bin := filepath.Join(t.TempDir(), "tmux")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	const want = "tmux 3.3a"
	asked := 0
	binaryVersion := func(string) (string, error) { asked++; return want, nil }
	cachedVersion := func(path string) (string, error) { return Lookup(path, binaryVersion) }
	v, err := cachedVersion(bin)
	if err != nil || v != want {
		t.Fatalf("first lookup: %q %v, want %q", v, err, want)
	}
	file := File()
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), bin+"|") || !strings.Contains(string(data), "\t"+want+"\n") {
		t.Fatalf("cache file %s: %q %v", file, data, err)
	}
	// the cache answers: a forged entry for this very file is believed
	forged := strings.Replace(string(data), "\t"+want+"\n", "\ttmux 9.9z\n", 1)
	if err := os.WriteFile(file, []byte(forged), 0o600); err != nil {
		t.Fatal(err)
	}
	if v, _ := cachedVersion(bin); v != "tmux 9.9z" {
		t.Fatalf("second lookup %q: the cache was not read", v)
	}
	// the binary changes: asked again, and the entry replaced
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(bin, later, later); err != nil {
		t.Fatal(err)
	}
	if v, _ := cachedVersion(bin); v != want {
		t.Fatalf("after the binary changed: %q, want %q", v, want)
	}
	data, _ = os.ReadFile(file)
	if strings.Count(string(data), bin+"|") != 1 || strings.Contains(string(data), "9.9z") {
		t.Errorf("cache after the change: %q", data)
	}
	// a cache file too large is not read
	if err := os.WriteFile(file, []byte(strings.Repeat("x", maxVersionFile+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if v, _ := cachedVersion(bin); v != want {
		t.Errorf("with an oversized cache file: %q", v)
	}
	if asked != 3 {
		t.Errorf("tmux -V asked %d times, want 3 (first, changed binary, oversized cache)", asked)
	}
	if st, err := os.Stat(filepath.Dir(file)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("cache directory: %v %v", st.Mode(), err)
	}
}

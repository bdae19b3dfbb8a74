// Package versioncache keeps `tmux -V` of each tmux binary on disk, so a
// command pays for a tmux process only when the binary changed. It runs
// nothing itself: package tmux asks the binary.
package versioncache

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// `tmux -V` costs every command a tmux process first, and its answer changes
// only with the binary. So panectl caches it, keyed by the binary's path and
// identity: device, inode, size, and modification and change times to the
// nanosecond. An upgrade, a new file or one rewritten in place, changes the
// key. No stat or no cache directory means no cache. The file is
// $XDG_CACHE_HOME/panectl/tmux-version (os.UserCacheDir, ~/.cache on Linux):
// one "KEY<TAB>VERSION" line per binary, at most maxVersionEntries, written to
// a temporary file and renamed.

// maxVersionEntries bounds the lines of the cache file.
const maxVersionEntries = 16

// maxVersionFile bounds the cache file read.
const maxVersionFile = 16 << 10

// File is the cache's path ("" when there is no cache directory).
func File() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "panectl", "tmux-version")
}

// Lookup returns `tmux -V` of the binary at path: from the cache for the
// same file, else by ask (which runs it), recorded.
func Lookup(path string, ask func(path string) (string, error)) (string, error) {
	return LookupIn(File(), path, ask)
}

// LookupIn is Lookup with another cache file, for another fact of a binary
// (package remote keeps panectl's own sha256 so).
func LookupIn(file, path string, ask func(path string) (string, error)) (string, error) {
	key := versionKey(path)
	if key == "" || file == "" || strings.ContainsAny(key, "\t\n") {
		return ask(path)
	}
	entries := readVersionCache(file)
	for _, e := range entries {
		if e[0] == key {
			return e[1], nil
		}
	}
	v, err := ask(path)
	if err != nil || v == "" || strings.ContainsAny(v, "\t\n") {
		return v, err
	}
	// the new entry first, older ones after, bounded
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\t%s\n", key, v)
	n := 1
	for _, e := range entries {
		if n >= maxVersionEntries {
			break
		}
		if strings.HasPrefix(e[0], path+"|") {
			continue // the same path, another (older) binary
		}
		fmt.Fprintf(&b, "%s\t%s\n", e[0], e[1])
		n++
	}
	writeVersionCache(file, b.Bytes())
	return v, nil
}

// readVersionCache reads the entries. Missing, too large or irregular: none.
func readVersionCache(file string) [][2]string {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > maxVersionFile {
		return nil
	}
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "\t"); ok && k != "" && v != "" {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

// writeVersionCache replaces the file (directory 0700). Failures are ignored:
// the next command runs `tmux -V` again.
func writeVersionCache(file string, data []byte) {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".tmux-version-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		os.Remove(tmp.Name())
	}
}

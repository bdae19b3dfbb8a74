//go:build !linux

package versioncache

// versionKey is "" where panectl does not read a file's identity: no
// cache, `tmux -V` runs every time.
func versionKey(string) string { return "" }

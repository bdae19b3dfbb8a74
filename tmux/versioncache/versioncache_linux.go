package versioncache

import (
	"fmt"
	"syscall"
)

// versionKey is the binary's cache key at path, "" when it cannot be told.
func versionKey(path string) string {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return ""
	}
	return fmt.Sprintf("%s|%d:%d:%d:%d.%d:%d.%d", path, st.Dev, st.Ino, st.Size,
		st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec)
}

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package proc

// Alive cannot tell here: a lock then waits for its lease to end.
func Alive(pid int) bool { return true }

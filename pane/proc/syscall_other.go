//go:build !linux || !(amd64 || arm64)

package proc

// syscallName returns "": panectl has no system call table for this
// platform, so the call a process is blocked in is unknown.
func syscallName(nr int) string { return "" }

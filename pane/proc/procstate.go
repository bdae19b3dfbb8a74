package proc

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// State is what /proc says about a process: its scheduling state and
// the system call it is blocked in (proc(5): /proc/PID/stat, /proc/PID/syscall).
type State struct {
	Known bool // /proc/PID/stat could be read
	// State is the state letter of /proc/PID/stat: R running or runnable,
	// S sleeping, D in uninterruptible sleep, T stopped, ...
	State byte
	// Syscall names the system call the process is blocked in: "read",
	// another name or number, "running" when it is not blocked, "" when
	// unknown (not readable, or an architecture panectl has no table for).
	Syscall string
	// ReadsTTY: blocked in read(2) on a terminal (the fd's target is a
	// terminal device).
	ReadsTTY bool
}

// ReadState reads /proc/PID/stat and /proc/PID/syscall (readable for a
// process of the same user; syscall not under Yama's ptrace_scope 1 or
// more, which keeps it to the process's ancestors).
func ReadState(pid int) State {
	return readState(fmt.Sprintf("/proc/%d", pid), pid)
}

// readState is ReadState for the process or thread directory dir
// (/proc/PID or /proc/PID/task/TID) of process pid.
func readState(dir string, pid int) State {
	if pid <= 0 {
		return State{}
	}
	b, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return State{}
	}
	f, ok := statFields(string(b))
	if !ok || len(f) < 1 || f[0] == "" {
		return State{}
	}
	p := State{Known: true, State: f[0][0]}
	b, err = os.ReadFile(dir + "/syscall")
	if err != nil {
		return p
	}
	p.Syscall, p.ReadsTTY = parseSyscall(pid, string(b))
	return p
}

// parseSyscall reads a /proc/PID/syscall line: "running", "-1 SP PC"
// (blocked outside a system call), or "NR ARG1 ... SP PC". It names the
// call (syscallName) and reports whether it is read(2) on a terminal.
func parseSyscall(pid int, line string) (name string, readsTTY bool) {
	f := strings.Fields(line)
	switch {
	case len(f) == 0:
		return "", false
	case f[0] == "running":
		return "running", false
	}
	nr, err := strconv.Atoi(f[0])
	if err != nil || nr < 0 {
		return "", false
	}
	name = syscallName(nr)
	if name == "" {
		return "", false // no table for this architecture
	}
	if name != "read" || len(f) < 2 {
		return name, false
	}
	fd, err := strconv.ParseInt(strings.TrimPrefix(f[1], "0x"), 16, 64)
	if err != nil {
		return name, false
	}
	t, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%d", pid, fd))
	return name, err == nil && isTerminalPath(t)
}

// TaskRun reads the pids the supervisor recorded once it started the
// command: its own and the command's (which leads the command's process
// group). started is false before that.
func TaskRun(dir string) (supervisor, command int, started bool) {
	b, err := os.ReadFile(filepath.Join(dir, "run"))
	if err != nil {
		return 0, 0, false
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, 0, false
	}
	s, err1 := strconv.Atoi(f[0])
	p, err2 := strconv.Atoi(f[1])
	return s, p, err1 == nil && err2 == nil
}

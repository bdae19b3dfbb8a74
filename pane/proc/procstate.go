package proc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
// group). The record is "SUPERVISOR COMMAND START", START the command's
// start time (StartTime; absent in records of older versions). started
// is false before that.
func TaskRun(dir string) (supervisor, command int, started bool) {
	s, p, _, ok := TaskRunStart(dir)
	return s, p, ok
}

// TaskRunStart is TaskRun with the command's recorded start time (0:
// none recorded).
func TaskRunStart(dir string) (supervisor, command int, start uint64, started bool) {
	b, err := os.ReadFile(filepath.Join(dir, "run"))
	if err != nil {
		return 0, 0, 0, false
	}
	f := strings.Fields(string(b))
	if len(f) != 2 && len(f) != 3 {
		return 0, 0, 0, false
	}
	s, err1 := strconv.Atoi(f[0])
	p, err2 := strconv.Atoi(f[1])
	if len(f) == 3 {
		if start, err = strconv.ParseUint(f[2], 10, 64); err != nil {
			return 0, 0, 0, false
		}
	}
	return s, p, start, err1 == nil && err2 == nil
}

// StartTime is when process pid started, in clock ticks after boot
// (field 22 of /proc/PID/stat). A pid reused by a new process has a new
// one. 0: unknown (no such process, or no /proc).
func StartTime(pid int) uint64 {
	f, ok := procStat(pid)
	if !ok || len(f) < 20 {
		return 0
	}
	t, _ := strconv.ParseUint(f[19], 10, 64)
	return t
}

// ErrNotOurs says a process group is not the one panectl started.
var ErrNotOurs = errors.New("not the process group panectl started")

// CheckGroup checks that process group pgid is the one whose leader
// started at start: the leader still leads it, started then, and is this
// user's. It returns os.ErrProcessDone when the leader is gone, and an
// error wrapping ErrNotOurs with why otherwise. Without /proc (not
// Linux) only pgid > 1 is checked.
func CheckGroup(pgid int, start uint64) error {
	if pgid <= 1 {
		return fmt.Errorf("%w: process group %d is never one", ErrNotOurs, pgid)
	}
	if _, ok := procStat(os.Getpid()); !ok {
		return nil // no /proc to check against
	}
	f, ok := procStat(pgid)
	st, err := os.Stat(fmt.Sprintf("/proc/%d", pgid))
	if !ok || err != nil || len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return os.ErrProcessDone
	}
	sys, _ := st.Sys().(*syscall.Stat_t)
	switch {
	case start == 0:
		return fmt.Errorf("%w: the record of process group %d has no start time", ErrNotOurs, pgid)
	case f[2] != strconv.Itoa(pgid):
		return fmt.Errorf("%w: process %d no longer leads group %d", ErrNotOurs, pgid, pgid)
	case f[19] != strconv.FormatUint(start, 10):
		return fmt.Errorf("%w: process %d started at tick %s, not at %d: its pid was reused", ErrNotOurs, pgid, f[19], start)
	case sys == nil || int(sys.Uid) != os.Getuid():
		return fmt.Errorf("%w: process %d belongs to another user", ErrNotOurs, pgid)
	}
	return nil
}

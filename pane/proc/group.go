package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Verdicts of GroupTurn: what the kernel says about the terminal's
// foreground process group. A verdict and its reason are written
// "VERDICT: REASON" (GroupTurn.String), the line the recognizers' region
// "process" matches (recognize/manifests/generic.toml, shell.toml).
const (
	GroupReads = "reads the terminal" // blocked in read(2) of the terminal
	GroupBusy  = "busy"               // running, or asleep in anything but a wait for input
)

// GroupTurn is the kernel's verdict on a terminal's foreground process
// group, with what shows it; the zero value says nothing.
type GroupTurn struct {
	Verdict string // GroupReads, GroupBusy, or "" when nothing tells
	Why     string
}

// String is "VERDICT: WHY", "" for the zero value.
func (t GroupTurn) String() string {
	if t.Verdict == "" {
		return ""
	}
	return t.Verdict + ": " + t.Why
}

// Thread is one thread of a process in the foreground process group, as
// /proc tells it.
type Thread struct {
	PID   int    // the process
	TID   int    // the thread (PID for the main thread)
	Name  string // the process's name (/proc/PID/comm)
	State State
	// Wchan is where the thread sleeps in the kernel (/proc/PID/task/TID/wchan),
	// read only when its system call is unknown.
	Wchan string
	// Files is what the process has open, read only for a Wchan of
	// wait_woken.
	Files Files
}

// Files is what a process has open (/proc/PID/fd), as far as telling a
// terminal read from a socket's goes.
type Files struct {
	Known    bool // the descriptors could be listed, and were few enough
	Terminal bool // a terminal is open
	Socket   bool // a socket is open
}

// maxFiles bounds the descriptors of a process openFiles reads.
const maxFiles = 256

// Bounds on what one look reads: the processes of a group, the threads
// of each.
const (
	maxMembers = 32
	maxThreads = 64
)

// GroupTurnOf reads the kernel's verdict (JudgeGroup) on the foreground
// process group pgid (a terminal's tpgid, Foreground.PID). The group's
// leader is read first, and decides unless it only sleeps elsewhere
// (leaderDecides); then every thread of every process in the group
// counts (a script or make waiting for a child that reads the terminal).
// The zero GroupTurn without /proc (not Linux).
func GroupTurnOf(pgid int) GroupTurn {
	if pgid <= 0 {
		return GroupTurn{}
	}
	var threads []Thread
	if inGroup(pgid, pgid) {
		threads = threadsOf(pgid)
		if leaderDecides(threads) {
			return JudgeGroup(threads)
		}
	}
	for _, pid := range groupMembers(pgid) {
		threads = append(threads, threadsOf(pid)...)
	}
	return JudgeGroup(threads)
}

// leaderDecides reports whether the threads of a group's leader decide
// for the group: one reads the terminal, runs, or waits in poll, select
// or epoll (an event loop, whose children are its own affair), or none
// sleeps elsewhere. Scanning /proc for the rest costs a read of every
// process's stat, so an agent's event loop is not worth one.
func leaderDecides(threads []Thread) bool {
	sleeping := false
	for i := range threads {
		switch threads[i].activity() {
		case reads, runs, waits:
			return true
		case sleeps:
			sleeping = true
		}
	}
	return !sleeping
}

// JudgeGroup is the pure part of GroupTurnOf. Any thread reading the
// terminal decides first: the group waits for input, whatever the others
// do (a script's read, a pipeline's reader, a thread of a Go program).
// Else any thread running (state R, or D) makes it busy. Else a thread
// waiting in poll, select or epoll leaves it untold: what it waits for
// (the terminal, a socket) is not in /proc. Else every thread sleeps
// elsewhere (a sleep, a child, a pipe, a lock): busy. Stopped and exited
// threads, and threads nothing is known of, do not count.
func JudgeGroup(threads []Thread) GroupTurn {
	var running, elsewhere *Thread
	waiting := false
	for i := range threads {
		t := &threads[i]
		switch t.activity() {
		case reads:
			return GroupTurn{GroupReads, fmt.Sprintf("%s is blocked in %s", t.who(), t.readEvidence())}
		case runs:
			if running == nil {
				running = t
			}
		case sleeps:
			if elsewhere == nil {
				elsewhere = t
			}
		case waits:
			waiting = true
		}
	}
	switch {
	case running != nil:
		return GroupTurn{GroupBusy, fmt.Sprintf("%s is running (state %c in /proc/%d/stat)", running.who(), running.State.State, running.PID)}
	case waiting:
		return GroupTurn{}
	case elsewhere != nil:
		return GroupTurn{GroupBusy, fmt.Sprintf("%s sleeps in %s, not reading the terminal", elsewhere.who(), elsewhere.sleepEvidence())}
	}
	return GroupTurn{}
}

// What a thread is doing, as far as the terminal is concerned.
type activity int

const (
	untold activity = iota // nothing known, stopped, or exited
	reads                  // blocked in read(2) of the terminal
	runs                   // running, or in uninterruptible sleep
	waits                  // in poll, select or epoll: on what is not told
	sleeps                 // asleep in anything else
)

// pollCalls are the system calls that wait on several files at once.
var pollCalls = map[string]bool{
	"poll": true, "ppoll": true, "select": true, "pselect6": true,
	"epoll_wait": true, "epoll_pwait": true, "epoll_pwait2": true,
}

func (t *Thread) activity() activity {
	p := t.State
	switch {
	case !p.Known || strings.IndexByte("ZXTt", p.State) >= 0:
		return untold
	case p.ReadsTTY:
		return reads
	case p.State == 'R' || p.State == 'D':
		return runs
	case pollCalls[p.Syscall]:
		return waits
	case p.Syscall != "" && p.Syscall != "running":
		return sleeps
	}
	return t.wchanActivity()
}

// wchanActivity judges a thread by its wait channel, when its system call
// cannot be read (Yama's ptrace_scope, another architecture). n_tty_read
// is a read of a terminal. wait_woken is one on recent kernels, and a
// socket's read too: a read of the terminal only when the process has a
// terminal open and no socket. poll, select and epoll waits tell nothing.
func (t *Thread) wchanActivity() activity {
	wchan := t.Wchan
	switch {
	case strings.Contains(wchan, "n_tty_read"), t.wokenOnTerminal():
		return reads
	case wchan == "" || wchan == "0":
		return untold
	case waitsForInput(wchan) || strings.Contains(wchan, "tty"):
		return waits
	}
	return sleeps
}

// wokenOnTerminal: asleep in wait_woken, with a terminal open and no socket.
func (t *Thread) wokenOnTerminal() bool {
	f := t.Files
	return strings.Contains(t.Wchan, "wait_woken") && f.Known && f.Terminal && !f.Socket
}

// who names the thread's process, and the thread when it is not the main one.
func (t *Thread) who() string {
	if t.TID != t.PID {
		return fmt.Sprintf("pid %d (%s), thread %d,", t.PID, t.Name, t.TID)
	}
	return fmt.Sprintf("pid %d (%s)", t.PID, t.Name)
}

func (t *Thread) readEvidence() string {
	if t.State.ReadsTTY {
		return fmt.Sprintf("read(2) of the terminal (%s)", t.source("syscall"))
	}
	if t.wokenOnTerminal() {
		return fmt.Sprintf("%s with a terminal and no socket open, a read of the terminal (%s, /proc/%d/fd)", t.Wchan, t.source("wchan"), t.PID)
	}
	return fmt.Sprintf("%s, a read of the terminal (%s)", t.Wchan, t.source("wchan"))
}

func (t *Thread) sleepEvidence() string {
	if t.State.Syscall != "" {
		return fmt.Sprintf("the system call %s (%s)", t.State.Syscall, t.source("syscall"))
	}
	return fmt.Sprintf("%s (%s)", t.Wchan, t.source("wchan"))
}

// source is the /proc file a thread's fact was read from.
func (t *Thread) source(file string) string {
	if t.TID != t.PID {
		return fmt.Sprintf("/proc/%d/task/%d/%s", t.PID, t.TID, file)
	}
	return fmt.Sprintf("/proc/%d/%s", t.PID, file)
}

// inGroup reports whether process pid is in process group pgid.
func inGroup(pid, pgid int) bool {
	f, ok := procStat(pid)
	return ok && len(f) > 2 && f[2] == strconv.Itoa(pgid)
}

// groupMembers lists the processes of group pgid other than its leader:
// a scan of /proc for the pgrp field of each stat. At most maxMembers.
func groupMembers(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == pgid || !inGroup(pid, pgid) {
			continue
		}
		if pids = append(pids, pid); len(pids) >= maxMembers {
			break
		}
	}
	return pids
}

// threadsOf reads the threads of process pid (at most maxThreads).
func threadsOf(pid int) []Thread {
	dir := fmt.Sprintf("/proc/%d", pid)
	comm, _ := os.ReadFile(dir + "/comm")
	name := strings.TrimSpace(string(comm))
	entries, err := os.ReadDir(dir + "/task")
	if err != nil {
		return nil
	}
	var out []Thread
	var files *Files // read once, for the first thread that needs it
	for _, e := range entries {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		td := fmt.Sprintf("%s/task/%d", dir, tid)
		t := Thread{PID: pid, TID: tid, Name: name, State: readState(td, pid)}
		if t.State.Known && (t.State.Syscall == "" || t.State.Syscall == "running") {
			w, _ := os.ReadFile(td + "/wchan")
			t.Wchan = strings.TrimSpace(string(w))
		}
		if strings.Contains(t.Wchan, "wait_woken") {
			if files == nil {
				f := openFiles(pid)
				files = &f
			}
			t.Files = *files
		}
		if out = append(out, t); len(out) >= maxThreads {
			break
		}
	}
	return out
}

// openFiles reads what process pid has open: the targets of
// /proc/PID/fd/N (readable where /proc/PID/wchan is). Not Known past
// maxFiles descriptors.
func openFiles(pid int) Files {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) > maxFiles {
		return Files{}
	}
	f := Files{Known: true}
	for _, e := range entries {
		target, err := os.Readlink(dir + "/" + e.Name())
		if err != nil {
			continue
		}
		f.Terminal = f.Terminal || isTerminalPath(target)
		f.Socket = f.Socket || strings.HasPrefix(target, "socket:")
	}
	return f
}

package proc

import (
	"net"
	"os"
	"strings"
	"testing"
)

func TestJudgeGroup(t *testing.T) {
	readTTY := State{Known: true, State: 'S', Syscall: "read", ReadsTTY: true}
	sleep := State{Known: true, State: 'S', Syscall: "clock_nanosleep"}
	wait4 := State{Known: true, State: 'S', Syscall: "wait4"}
	poll := State{Known: true, State: 'S', Syscall: "poll"}
	running := State{Known: true, State: 'R', Syscall: "running"}
	noSyscall := State{Known: true, State: 'S'} // /proc/PID/syscall unreadable
	th := func(pid, tid int, name string, s State, wchan string) Thread {
		return Thread{PID: pid, TID: tid, Name: name, State: s, Wchan: wchan}
	}
	woken := func(f Files) Thread {
		t := th(5, 5, "cat", noSyscall, "wait_woken")
		t.Files = f
		return t
	}
	for _, tc := range []struct {
		name    string
		threads []Thread
		verdict string
		why     string
	}{
		{"sleep 60", []Thread{th(5, 5, "sleep", sleep, "")}, GroupBusy, "pid 5 (sleep) sleeps in the system call clock_nanosleep (/proc/5/syscall)"},
		{"cat", []Thread{th(5, 5, "cat", readTTY, "")}, GroupReads, "pid 5 (cat) is blocked in read(2) of the terminal (/proc/5/syscall)"},
		{"a loop", []Thread{th(5, 5, "yes", running, "")}, GroupBusy, "pid 5 (yes) is running (state R in /proc/5/stat)"},
		{"make waits for its compiler", []Thread{th(5, 5, "make", wait4, ""), th(6, 6, "cc1", running, "")}, GroupBusy, "pid 6 (cc1) is running"},
		{"a script's child reads: the reader decides", []Thread{th(5, 5, "sh", wait4, ""), th(6, 6, "cat", readTTY, "")}, GroupReads, "pid 6 (cat)"},
		{"a thread reads while the main one sleeps", []Thread{th(5, 5, "python3", sleep, ""), th(5, 7, "python3", readTTY, "")}, GroupReads, "pid 5 (python3), thread 7, is blocked in read(2) of the terminal (/proc/5/task/7/syscall)"},
		{"an event loop: untold", []Thread{th(5, 5, "vim", poll, "")}, "", ""},
		{"an event loop and a sleeping thread: untold", []Thread{th(5, 5, "node", State{Known: true, State: 'S', Syscall: "epoll_wait"}, ""), th(5, 6, "node", State{Known: true, State: 'S', Syscall: "futex"}, "")}, "", ""},
		{"wchan: a terminal read", []Thread{th(5, 5, "cat", noSyscall, "n_tty_read")}, GroupReads, "n_tty_read, a read of the terminal (/proc/5/wchan)"},
		{"wchan: wait_woken, files unknown", []Thread{th(5, 5, "cat", noSyscall, "wait_woken")}, "", ""},
		{"wchan: wait_woken, a terminal and a socket open", []Thread{woken(Files{Known: true, Terminal: true, Socket: true})}, "", ""},
		{"wchan: wait_woken, a terminal and no socket", []Thread{woken(Files{Known: true, Terminal: true})}, GroupReads, "wait_woken with a terminal and no socket open, a read of the terminal (/proc/5/wchan, /proc/5/fd)"},
		{"wchan: a sleep", []Thread{th(5, 5, "sleep", noSyscall, "hrtimer_nanosleep")}, GroupBusy, "hrtimer_nanosleep (/proc/5/wchan)"},
		{"wchan: poll", []Thread{th(5, 5, "less", noSyscall, "do_select")}, "", ""},
		{"stopped", []Thread{th(5, 5, "vim", State{Known: true, State: 'T'}, "")}, "", ""},
		{"nothing known", []Thread{th(5, 5, "x", State{}, "")}, "", ""},
		{"no threads", nil, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := JudgeGroup(tc.threads)
			if got.Verdict != tc.verdict || !strings.Contains(got.Why, tc.why) {
				t.Fatalf("got %q, want verdict %q with %q", got, tc.verdict, tc.why)
			}
			if tc.verdict != "" && got.String() != tc.verdict+": "+got.Why {
				t.Fatalf("String() = %q", got.String())
			}
		})
	}
}

func TestLeaderDecides(t *testing.T) {
	th := func(s State) Thread { return Thread{PID: 5, TID: 5, State: s} }
	for _, tc := range []struct {
		name    string
		threads []Thread
		want    bool
	}{
		{"reads", []Thread{th(State{Known: true, State: 'S', Syscall: "read", ReadsTTY: true})}, true},
		{"runs", []Thread{th(State{Known: true, State: 'R'})}, true},
		{"an event loop and its workers", []Thread{th(State{Known: true, State: 'S', Syscall: "epoll_wait"}), th(State{Known: true, State: 'S', Syscall: "futex"})}, true},
		{"a script waiting for a child", []Thread{th(State{Known: true, State: 'S', Syscall: "wait4"})}, false},
		{"sleep", []Thread{th(State{Known: true, State: 'S', Syscall: "clock_nanosleep"})}, false},
		{"nothing known", []Thread{th(State{})}, true},
		{"gone", nil, true},
	} {
		if got := leaderDecides(tc.threads); got != tc.want {
			t.Errorf("%s: leaderDecides = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestOpenFiles(t *testing.T) {
	if f := openFiles(os.Getpid()); !f.Known {
		t.Skip("no /proc here")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if f := openFiles(os.Getpid()); !f.Socket {
		t.Fatalf("openFiles = %+v, want a socket", f)
	}
}

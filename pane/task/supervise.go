package task

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
	"github.com/panectl/panectl/pane/journal"
	"github.com/panectl/panectl/tmux"
)

// Supervise is the supervisor a task pane runs (panectl -S SOCKET
// __task-exec %N DIR -- SHELL -c COMMAND). DIR is the task's record
// directory (TaskDir).
//
// The command gets a terminal of its own: the supervisor opens a pseudo-
// terminal (creack/pty), gives it the pane's terminal settings and size
// (and every later size: SIGWINCH), starts the command as the leader of a
// new session on it, and puts the pane's terminal in raw mode. Then it
// copies: what the command writes goes, byte for byte, to the task's
// journal and to the pane; what is typed into the pane goes to the
// command's terminal, whose line discipline turns C-c into SIGINT for the
// command as any terminal does. The command sees a terminal (isatty), the
// pane's size, and its own job-control signals.
//
// Why a terminal of its own rather than tmux's pipe-pane (which journaled
// panes use): the supervisor sees every byte before tmux does, from the
// first, and knows when the output is complete (the command exited and its
// terminal drained), so the completion frame it makes possible is exact;
// and it owns the command's process group, so it can stop it when the pane
// goes away. The copy costs one extra pass through a pseudo-terminal.
//
// A supervisor killed with SIGKILL stops nothing itself. So a watchdog,
// /bin/sh, holds the reading end of a pipe the supervisor writes to. At
// EOF without a word, the supervisor is gone: it kills the whole group.
//
// Stopping: when the pane, its session or the server goes away, the pane's
// terminal hangs up (SIGHUP): the task is marked killed and the command's
// process group gets SIGHUP, then SIGTERM and SIGKILL TaskKillGrace apart
// while any of it runs. SIGINT, SIGTERM or SIGQUIT sent to the supervisor
// are passed on to the group. The task's time limit sends SIGINT, SIGTERM,
// SIGKILL the same way (status timed_out).
//
// When the command has ended and its output is drained, the supervisor
// records the exit code or signal with the journal's end (RecordTaskExit),
// mirrors it in the pane's options, and signals the wait-for channels.
func Supervise(c *tmux.Client, paneID, dir string, argv []string) error {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGWINCH)
	s := &supervisor{c: c, paneID: paneID, dir: dir, argv: argv, stopDone: make(chan struct{})}
	s.paneUp.Store(true)
	jw, err := journal.Create(TaskJournal(dir), 0)
	if err != nil {
		s.toPane([]byte(fmt.Sprintf("panectl: cannot write the task's journal: %v\r\n", err)))
		return s.finish(127, 0, 0)
	}
	s.journal = jw
	spec, _ := ReadTaskSpec(dir)

	ptmx, tty, err := pty.Open()
	if err != nil {
		return s.failStart(err)
	}
	defer ptmx.Close()
	s.ptmx = ptmx
	stdin := os.Stdin.Fd()
	if st, err := term.GetState(stdin); err == nil {
		_ = term.SetState(tty.Fd(), st) // the pane's settings (IUTF8, erase, ...)
	}
	s.resize()
	if st, err := term.MakeRaw(stdin); err == nil {
		defer func() { _ = term.Restore(stdin, st) }()
	}

	if TaskStopped(dir) != "" { // killed before it started
		tty.Close()
		end, _ := jw.Close()
		return s.finish(0, int(syscall.SIGKILL), end)
	}
	cmd, err := s.start(tty)
	if err != nil {
		return s.failStart(err)
	}
	defer s.watchGroup()()
	drained := s.copyOutput()
	go func() { _, _ = io.Copy(ptmx, os.Stdin) }() // what is typed into the pane
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()

	if TaskStopped(dir) != "" { // marked while it was starting
		s.stop(syscall.SIGINT)
	}
	s.wait(sigs, exited, taskTimeLimit(spec))
	if s.stopping.Load() {
		<-s.stopDone // what is left of the group is stopped too
	}
	select { // the rest of the output; a process that kept the terminal may hold it open
	case <-drained:
	case <-time.After(time.Second):
	}
	end, _ := jw.Close()
	code, sig := taskExitOf(cmd.ProcessState)
	// How the command ended is in the record; the supervisor's own exit
	// status is not used.
	return s.finish(code, sig, end)
}

// supervisor is one Supervise: the task, the command's terminal and
// process group, and how far stopping it has gone.
type supervisor struct {
	c      *tmux.Client
	paneID string
	dir    string // the task's record directory
	argv   []string

	paneUp  atomic.Bool // the pane's terminal is still there
	journal *journal.Writer
	ptmx    *os.File // the command's terminal, supervisor side
	pgid    int      // the command's process group

	stopping atomic.Bool
	stopDone chan struct{} // closed when stop is done
}

// toPane writes b to the pane while its terminal is there.
func (s *supervisor) toPane(b []byte) {
	if s.paneUp.Load() {
		if _, err := os.Stdout.Write(b); err != nil {
			s.paneUp.Store(false)
		}
	}
}

// finish records how the command ended, with the journal's end, and
// tells the pane's waiters.
func (s *supervisor) finish(code, sig int, end int64) error {
	err := RecordTaskExit(s.dir, code, sig, end)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = NotifyTaskEnded(ctx, s.c, s.paneID, code, sig)
	return err
}

// failStart records a command that could not start, with why.
func (s *supervisor) failStart(err error) error {
	msg := fmt.Sprintf("panectl: cannot start %s: %v\r\n", s.argv[0], err)
	_, _ = s.journal.Write([]byte(msg))
	s.toPane([]byte(msg))
	end, _ := s.journal.Close()
	return s.finish(127, 0, end)
}

// resize gives the command's terminal the pane's size.
func (s *supervisor) resize() {
	if ws, err := pty.GetsizeFull(os.Stdin); err == nil {
		_ = pty.Setsize(s.ptmx, ws)
	}
}

// start starts the command as the leader of a new session on tty, and
// records its process group.
func (s *supervisor) start(tty *os.File) (*exec.Cmd, error) {
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		tty.Close()
		return nil, err
	}
	tty.Close() // the command holds it now: EOF on ptmx once it (and its children) are gone
	s.pgid = cmd.Process.Pid
	_ = RecordTaskRun(s.dir, os.Getpid(), s.pgid)
	return cmd, nil
}

// watchdogScript kills process group $1 unless told "done" first. An EOF
// alone means the supervisor is gone.
const watchdogScript = `read -r word; [ "$word" = done ] || kill -s KILL -- "-$1"`

// watchGroup starts the watchdog of the command's process group, in a
// session of its own (the pane's hang-up is not for it), and returns what
// disarms it. Without /bin/sh there is none: the next panectl call that
// reads the task kills the group then (reapOrphan).
func (s *supervisor) watchGroup() (disarm func()) {
	w := exec.Command("/bin/sh", "-c", watchdogScript, "panectl-task-watchdog", strconv.Itoa(s.pgid))
	w.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	in, err := w.StdinPipe()
	if err != nil || w.Start() != nil {
		return func() {}
	}
	return func() {
		_, _ = io.WriteString(in, "done\n")
		_ = in.Close()
		_ = w.Wait()
	}
}

// copyOutput copies the command's output to the journal first, then the
// pane. The channel it returns is closed when the output is drained.
func (s *supervisor) copyOutput() <-chan struct{} {
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		buf := make([]byte, 32<<10)
		for {
			n, err := s.ptmx.Read(buf)
			if n > 0 {
				_, _ = s.journal.Write(buf[:n])
				s.toPane(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	return drained
}

// stop escalates through signals, TaskKillGrace apart, while any
// process of the command's group is left. Only the first call counts.
func (s *supervisor) stop(first syscall.Signal) {
	if !s.stopping.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer close(s.stopDone)
		for _, sig := range []syscall.Signal{first, syscall.SIGTERM, syscall.SIGKILL} {
			if err := syscall.Kill(-s.pgid, sig); errors.Is(err, syscall.ESRCH) {
				return // the whole group is gone
			}
			deadline := time.Now().Add(TaskKillGrace)
			for time.Now().Before(deadline) {
				if syscall.Kill(-s.pgid, 0) != nil {
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
	}()
}

// wait handles signals and the time limit until the command exits.
func (s *supervisor) wait(sigs <-chan os.Signal, exited <-chan struct{}, limit <-chan time.Time) {
	for {
		select {
		case sig := <-sigs:
			s.signal(sig)
		case <-limit:
			_ = MarkTask(s.dir, TaskTimedOut)
			s.stop(syscall.SIGINT)
		case <-exited:
			return
		}
	}
}

// signal handles a signal sent to the supervisor. A resize is passed on
// as a size; a hang-up means the pane is gone; any other goes to the group.
func (s *supervisor) signal(sig os.Signal) {
	switch sig {
	case syscall.SIGWINCH:
		s.resize()
	case syscall.SIGHUP: // the pane, its session or the server is gone
		s.paneUp.Store(false)
		_ = MarkTask(s.dir, TaskKilled)
		s.stop(syscall.SIGHUP)
	default:
		if s.pgid > 1 { // never kill(0) or kill(-1)
			_ = syscall.Kill(-s.pgid, sig.(syscall.Signal))
		}
	}
}

// taskTimeLimit fires when the task's time limit, counted from its start, is
// up. It never fires for a task without one.
func taskTimeLimit(spec TaskSpec) <-chan time.Time {
	if spec.LimitMS <= 0 {
		return nil
	}
	left := time.Duration(spec.LimitMS)*time.Millisecond - time.Since(time.UnixMilli(spec.Started))
	return time.After(max(left, 0))
}

// taskExitOf is the command's exit code, or the signal that ended it.
func taskExitOf(ps *os.ProcessState) (code, sig int) {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
		if ws.Signaled() {
			return 0, int(ws.Signal())
		}
		return ws.ExitStatus(), 0
	}
	return 0, 0
}

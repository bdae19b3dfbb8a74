package task

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
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
	var paneUp atomic.Bool // the pane's terminal is still there
	paneUp.Store(true)
	toPane := func(b []byte) {
		if paneUp.Load() {
			if _, err := os.Stdout.Write(b); err != nil {
				paneUp.Store(false)
			}
		}
	}
	finish := func(code, sig int, end int64) error {
		err := RecordTaskExit(dir, code, sig, end)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = NotifyTaskEnded(ctx, c, paneID, code, sig)
		return err
	}
	jw, err := journal.Create(TaskJournal(dir), 0)
	if err != nil {
		toPane([]byte(fmt.Sprintf("panectl: cannot write the task's journal: %v\r\n", err)))
		return finish(127, 0, 0)
	}
	spec, _ := ReadTaskSpec(dir)
	failStart := func(err error) error {
		msg := fmt.Sprintf("panectl: cannot start %s: %v\r\n", argv[0], err)
		_, _ = jw.Write([]byte(msg))
		toPane([]byte(msg))
		end, _ := jw.Close()
		return finish(127, 0, end)
	}

	ptmx, tty, err := pty.Open()
	if err != nil {
		return failStart(err)
	}
	defer ptmx.Close()
	stdin := os.Stdin.Fd()
	if st, err := term.GetState(stdin); err == nil {
		_ = term.SetState(tty.Fd(), st) // the pane's settings (IUTF8, erase, ...)
	}
	resize := func() {
		if ws, err := pty.GetsizeFull(os.Stdin); err == nil {
			_ = pty.Setsize(ptmx, ws)
		}
	}
	resize()
	if st, err := term.MakeRaw(stdin); err == nil {
		defer func() { _ = term.Restore(stdin, st) }()
	}

	if TaskStopped(dir) != "" { // killed before it started
		tty.Close()
		end, _ := jw.Close()
		return finish(0, int(syscall.SIGKILL), end)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		tty.Close()
		return failStart(err)
	}
	tty.Close() // the command holds it now: EOF on ptmx once it (and its children) are gone
	pgid := cmd.Process.Pid
	_ = RecordTaskRun(dir, os.Getpid(), pgid)

	drained := make(chan struct{})
	go func() { // the command's output: journal first, then the pane
		defer close(drained)
		buf := make([]byte, 32<<10)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				_, _ = jw.Write(buf[:n])
				toPane(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { _, _ = io.Copy(ptmx, os.Stdin) }() // what is typed into the pane

	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()

	// stop escalates through signals, TaskKillGrace apart, while any
	// process of the command's group is left.
	var stopping atomic.Bool
	stopDone := make(chan struct{})
	stop := func(first syscall.Signal) {
		if !stopping.CompareAndSwap(false, true) {
			return
		}
		go func() {
			defer close(stopDone)
			for _, s := range []syscall.Signal{first, syscall.SIGTERM, syscall.SIGKILL} {
				if err := syscall.Kill(-pgid, s); errors.Is(err, syscall.ESRCH) {
					return // the whole group is gone
				}
				deadline := time.Now().Add(TaskKillGrace)
				for time.Now().Before(deadline) {
					if syscall.Kill(-pgid, 0) != nil {
						return
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		}()
	}
	if TaskStopped(dir) != "" { // marked while it was starting
		stop(syscall.SIGINT)
	}
	var limit <-chan time.Time
	if spec.LimitMS > 0 {
		left := time.Duration(spec.LimitMS)*time.Millisecond - time.Since(time.UnixMilli(spec.Started))
		limit = time.After(max(left, 0))
	}
wait:
	for {
		select {
		case s := <-sigs:
			switch s {
			case syscall.SIGWINCH:
				resize()
			case syscall.SIGHUP: // the pane, its session or the server is gone
				paneUp.Store(false)
				_ = MarkTask(dir, TaskKilled)
				stop(syscall.SIGHUP)
			default:
				_ = syscall.Kill(-pgid, s.(syscall.Signal))
			}
		case <-limit:
			_ = MarkTask(dir, TaskTimedOut)
			stop(syscall.SIGINT)
		case <-exited:
			break wait
		}
	}
	if stopping.Load() {
		<-stopDone // what is left of the group is stopped too
	}
	select { // the rest of the output; a process that kept the terminal may hold it open
	case <-drained:
	case <-time.After(time.Second):
	}
	end, _ := jw.Close()
	code, sig := 0, 0
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
		if ws.Signaled() {
			sig = int(ws.Signal())
		} else {
			code = ws.ExitStatus()
		}
	}
	// How the command ended is in the record; the supervisor's own exit
	// status is not used.
	return finish(code, sig, end)
}

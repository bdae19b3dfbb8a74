// Package task keeps background tasks: their records in the state
// directory, their panes, the supervisor that owns each command's
// pseudo-terminal and process group, and kill and prune.
package task

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/panectl/panectl/pane/journal"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/pane/statedir"
	"github.com/panectl/panectl/tmux"
)

// Background tasks (SPEC.md section 8). A task is a pane in the detached
// session TaskSession, made with remain-on-exit so its screen stays after it
// ends. Its id is "t" and the pane's number (pane ids are never reused by a
// tmux server, so neither are task ids).
//
// The pane runs panectl's supervisor (`panectl __task-exec`, see
// Supervise), which gives the command a terminal of its own and
// copies what the command writes both to the pane and to the task's journal.
// The task's record lives in the state directory (state.go), in a directory
// named by the task id, so it stays readable when the pane is gone:
//
//	task.json  the TaskSpec, written once by the process that started it
//	run        "SUPERVISOR_PID COMMAND_PID START": the command leads its own process group;
//	           START is its start time (proc.StartTime), so a reused pid is never signalled
//	stop       "killed" or "timed_out": why it is being stopped (first writer wins)
//	exit       JSON taskExit: how the command ended, written by the supervisor
//	reported   made (exclusively) by the --any wait that returned the task
//	journal/   everything the command wrote to its terminal (journal.go)
//
// The task pane's user options point to it and mirror the end for tmux
// formats: @panectl_task (the spec), @panectl_journal (the journal
// directory), @panectl_task_exit ("code:N" or "signal:N").
const (
	TaskSession   = "panectl-tasks"
	taskOpt       = "@panectl_task"
	taskExitOpt   = "@panectl_task_exit"
	taskHistory   = 10000
	TaskKillGrace = 2 * time.Second
	// TasksChannel is the tmux wait-for channel every supervisor signals
	// when its task has ended (besides the task's own TaskChannel).
	TasksChannel = "panectl-tasks-ended"
)

// Task statuses.
const (
	TaskRunning   = "running"
	TaskCompleted = "completed"
	TaskFailed    = "failed"
	TaskKilled    = "killed"
	TaskTimedOut  = "timed_out"
)

// ErrNoTask: no such task (exit 4).
var ErrNoTask = errors.New("no such task")

// TaskSpec is what a task was asked to do, and where.
type TaskSpec struct {
	Command   string `json:"c"`
	Shell     string `json:"sh"`
	Started   int64  `json:"at"`            // unix ms
	LimitMS   int64  `json:"lim,omitempty"` // time limit, 0: none
	PaneID    string `json:"pane,omitempty"`
	SessionID string `json:"session,omitempty"`
}

// Task is a task as read at one moment.
type Task struct {
	ID      string
	Spec    TaskSpec
	Pane    tmux.PaneInfo // zero when the pane is gone
	Status  string
	Exit    *int // exit status when it exited (nil while running, or when a signal ended it)
	Signal  int  // signal that ended it
	Ended   time.Time
	Dir     string // the task's record directory
	Journal string // its journal directory
}

// SessionID is the session the task's pane was made in.
func (t Task) SessionID() string {
	if t.Pane.SessionID != "" {
		return t.Pane.SessionID
	}
	return t.Spec.SessionID
}

var taskIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^t([0-9]+)$`) })

// IsTaskID reports whether s has the form of a task id (tN).
func IsTaskID(s string) bool { return taskIDRE().MatchString(s) }

// TaskPaneID is the pane id of task id ("t7" -> "%7").
func TaskPaneID(id string) (string, bool) {
	m := taskIDRE().FindStringSubmatch(id)
	if m == nil {
		return "", false
	}
	return "%" + m[1], true
}

// TaskIDOf is the task id of a task pane ("%7" -> "t7").
func TaskIDOf(paneID string) string { return "t" + strings.TrimPrefix(paneID, "%") }

// TaskDir is the record directory of task id in the state directory.
func TaskDir(stateDir, id string) string { return filepath.Join(stateDir, id) }

// TaskJournal is the journal directory of the task whose record is in dir.
func TaskJournal(dir string) string { return filepath.Join(dir, "journal") }

// StartTask creates the task pane running `self __task-exec` with the
// command. self is the panectl binary and its leading arguments (-S socket).
// The pane is made with a placeholder process; the record is written,
// remain-on-exit and the options are set, then the supervisor replaces the
// placeholder (respawn-pane), so even a command that ends at once leaves
// its pane and its record.
func StartTask(ctx context.Context, c *tmux.Client, spec TaskSpec, cwd string, self []string) (Task, error) {
	opts := tmux.NewOptions{WindowIn: "=" + TaskSession, CWD: cwd, HistoryLimit: taskHistory, Command: []string{"cat"}}
	info, err := c.NewPane(ctx, opts)
	if errors.Is(err, tmux.ErrPaneNotFound) {
		// no task session yet: make it (detached, never attached to a client)
		opts.WindowIn, opts.SessionName, opts.Width, opts.Height = "", TaskSession, 160, 48
		info, err = c.NewPane(ctx, opts)
		if err != nil && strings.Contains(err.Error(), "duplicate session") {
			opts.WindowIn, opts.SessionName = "="+TaskSession, ""
			info, err = c.NewPane(ctx, opts)
		}
	}
	if err != nil {
		return Task{}, err
	}
	fail := func(err error) (Task, error) {
		_ = c.KillPane(ctx, info.ID)
		return Task{}, err
	}
	state, err := statedir.Dir(ctx, c)
	if err != nil {
		return fail(err)
	}
	id := TaskIDOf(info.ID)
	dir := TaskDir(state, id)
	spec.PaneID, spec.SessionID = info.ID, info.SessionID
	b, _ := json.Marshal(spec)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "task.json"), b); err != nil {
		return fail(err)
	}
	argv := append(append([]string{}, self...), proc.TaskExecVerb, info.ID, dir, "--", spec.Shell, "-c", spec.Command)
	respawn := tmux.Command{"respawn-pane", "-k", "-t", info.ID}
	if cwd != "" {
		respawn = append(respawn, "-c", tmux.FormatLiteral(cwd)) // tmux expands formats in -c
	}
	respawn = append(append(respawn, "--"), argv...)
	if _, err := c.RunList(ctx, nil,
		tmux.Command{"set-option", "-p", "-t", info.ID, "remain-on-exit", "on"},
		tmux.Command{"set-option", "-p", "-t", info.ID, taskOpt, base64.RawURLEncoding.EncodeToString(b)},
		tmux.Command{"set-option", "-p", "-t", info.ID, journal.Option, TaskJournal(dir)},
		respawn); err != nil {
		_ = os.RemoveAll(dir)
		return fail(err)
	}
	return Task{ID: id, Spec: spec, Pane: info, Status: TaskRunning, Dir: dir, Journal: TaskJournal(dir)}, nil
}

// LoadTask reads a task by id. Unknown id: an error wrapping ErrNoTask.
// A task whose pane is gone is still read (from its record), with a zero
// Pane.
func LoadTask(ctx context.Context, c *tmux.Client, id string) (Task, error) {
	pid, ok := TaskPaneID(id)
	if !ok {
		return Task{}, fmt.Errorf("%w: %q is not a task id (tasks are named tN; see: panectl tasks)", ErrNoTask, id)
	}
	state, err := statedir.Find(ctx, c)
	if err != nil {
		return Task{}, err
	}
	spec, err := ReadTaskSpec(TaskDir(state, id))
	if err != nil || state == "" {
		return Task{}, fmt.Errorf("%w %s on the tmux server at %s (see: panectl tasks)", ErrNoTask, id, c.Server.Socket)
	}
	info, err := c.Pane(ctx, pid)
	if err != nil && !errors.Is(err, tmux.ErrPaneNotFound) {
		return Task{}, err
	}
	return Of(id, TaskDir(state, id), spec, info), nil
}

// ReadTask reads a task from its record directory alone, without asking
// tmux (its Pane is zero): what is known of it once the server is gone.
// The supervisor records how the task ended there whatever happens to the
// server (a server that goes away hangs up the pane's terminal: the task is
// killed). No record: an error wrapping ErrNoTask.
func ReadTask(dir, id string) (Task, error) {
	spec, err := ReadTaskSpec(dir)
	if err != nil {
		return Task{}, fmt.Errorf("%w %s (its record at %s: %v)", ErrNoTask, id, dir, err)
	}
	return Of(id, dir, spec, tmux.PaneInfo{}), nil
}

// ListTasks reads every task of the server (those whose panes are gone
// too), oldest first.
func ListTasks(ctx context.Context, c *tmux.Client) ([]Task, error) {
	state, err := statedir.Find(ctx, c)
	if err != nil || state == "" {
		return nil, err
	}
	panes, bad, err := c.ListPanes(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[string]tmux.PaneInfo{}
	for _, p := range panes {
		byID[p.ID] = p
	}
	for _, b := range bad {
		if b.Pane.ID != "" {
			byID[b.Pane.ID] = b.Pane // its fixed fields: the pane is there
		}
	}
	return listTasks(state, byID)
}

// ListTaskRecords reads every task recorded in the state directory state
// (TaskDir), oldest first, without asking tmux: their Panes are zero.
func ListTaskRecords(state string) ([]Task, error) { return listTasks(state, nil) }

// listTasks reads the tasks recorded in state, with their panes from byID.
func listTasks(state string, byID map[string]tmux.PaneInfo) ([]Task, error) {
	entries, err := os.ReadDir(state)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil // removed by hand: no tasks left
	}
	if err != nil {
		return nil, err
	}
	var tasks []Task
	for _, e := range entries {
		pid, ok := TaskPaneID(e.Name())
		if !ok || !e.IsDir() {
			continue
		}
		spec, err := ReadTaskSpec(TaskDir(state, e.Name()))
		if err != nil {
			continue // being made, or removed meanwhile
		}
		tasks = append(tasks, Of(e.Name(), TaskDir(state, e.Name()), spec, byID[pid]))
	}
	sort.Slice(tasks, func(i, j int) bool {
		a, _ := strconv.Atoi(tasks[i].ID[1:])
		b, _ := strconv.Atoi(tasks[j].ID[1:])
		return a < b
	})
	return tasks, nil
}

// ReadTaskSpec reads a task's spec from its record directory.
func ReadTaskSpec(dir string) (TaskSpec, error) {
	var spec TaskSpec
	b, err := os.ReadFile(filepath.Join(dir, "task.json"))
	if err != nil {
		return spec, err
	}
	return spec, json.Unmarshal(b, &spec)
}

// taskExit is how a task's command ended, as its supervisor recorded it.
type taskExit struct {
	Code   *int  `json:"code,omitempty"`
	Signal int   `json:"signal,omitempty"`
	At     int64 `json:"at"`  // unix ms
	End    int64 `json:"end"` // journal end offset
}

// Of builds a task from its record and its pane (zero when gone).
func Of(id, dir string, spec TaskSpec, info tmux.PaneInfo) Task {
	t := Task{ID: id, Spec: spec, Pane: info, Status: TaskRunning, Dir: dir, Journal: TaskJournal(dir)}
	stop := TaskStopped(dir)
	var ex taskExit
	if b, err := os.ReadFile(filepath.Join(dir, "exit")); err == nil && json.Unmarshal(b, &ex) == nil {
		t.Exit, t.Signal, t.Ended = ex.Code, ex.Signal, time.UnixMilli(ex.At)
	} else {
		sup, _, started := proc.TaskRun(dir)
		switch {
		case started && proc.Alive(sup):
			return t // running, or being stopped
		case !started && info.ID != "" && !info.Dead:
			return t // the supervisor is starting
		case !started && info.Dead && info.DeadKnown && info.DeadSignal == 0:
			t.Exit = &info.DeadStatus // the supervisor could not run
		default:
			// the supervisor is gone without a record (killed with SIGKILL)
			reapOrphan(dir)
			if stop == "" {
				stop = TaskKilled
			}
		}
	}
	// A task stopped on request (task kill, its pane or server gone) or by
	// its time limit keeps that status, with how its command ended as the
	// supervisor saw it: an exit status when it exited by itself (it
	// handled the signal: a trap), none when a signal ended it (Signal).
	switch {
	case stop == TaskKilled:
		t.Status = TaskKilled
	case stop == TaskTimedOut:
		t.Status = TaskTimedOut
	case t.Exit == nil:
		t.Status = TaskKilled
	case *t.Exit == 0:
		t.Status = TaskCompleted
	default:
		t.Status = TaskFailed
	}
	return t
}

// RecordTaskRun is called by the supervisor once the command started.
func RecordTaskRun(dir string, supervisor, command int) error {
	b := fmt.Sprintf("%d %d %d\n", supervisor, command, proc.StartTime(command))
	return writeFileAtomic(filepath.Join(dir, "run"), []byte(b))
}

// reapOrphan kills what is left of the command's process group of a task
// whose supervisor is gone (killed with SIGKILL: it could stop nothing).
// The task already reads killed. Only a group proc.CheckGroup proves the
// task's is signalled.
func reapOrphan(dir string) {
	_, pgid, start, ok := proc.TaskRunStart(dir)
	if ok && proc.CheckGroup(pgid, start) == nil {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// TaskStopped returns why the task is being stopped (TaskKilled,
// TaskTimedOut) or "".
func TaskStopped(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "stop"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// MarkTask records why a task is being stopped (TaskKilled, TaskTimedOut),
// before the signals are sent. The first reason recorded stays.
func MarkTask(dir, state string) error {
	f, err := os.OpenFile(filepath.Join(dir, "stop"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = f.WriteString(state + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ClaimTaskReport marks an ended task as returned by a `task wait --any`
// (waiter.WaitAnyTask). The mark is a file created exclusively in the task's
// record directory, so of concurrent callers, in any processes, exactly one
// gets true; false: another wait returned the task already. A record
// removed meanwhile (tasks --prune): an error wrapping os.ErrNotExist.
func ClaimTaskReport(dir string) (bool, error) {
	f, err := os.OpenFile(filepath.Join(dir, "reported"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, os.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, f.Close()
}

// RecordTaskExit is called by the supervisor when the command ended and
// its journal is complete (end is the journal's end offset).
func RecordTaskExit(dir string, code, signal int, end int64) error {
	ex := taskExit{Signal: signal, At: time.Now().UnixMilli(), End: end}
	if signal == 0 {
		ex.Code = &code
	}
	b, _ := json.Marshal(ex)
	return writeFileAtomic(filepath.Join(dir, "exit"), b)
}

// NotifyTaskEnded mirrors the end into the task pane's options (for tmux
// formats and `watch`) and wakes task waits at once. The pane, or the
// whole server, may be gone: then only what can be done is done.
func NotifyTaskEnded(ctx context.Context, c *tmux.Client, paneID string, code, signal int) error {
	v := "code:" + strconv.Itoa(code)
	if signal > 0 {
		v = "signal:" + strconv.Itoa(signal)
	}
	err := c.SetPaneOptions(ctx, paneID, map[string]string{
		taskExitOpt: v, taskExitOpt + "_at": strconv.FormatInt(time.Now().UnixMilli(), 10),
	}, nil)
	if serr := c.Signal(ctx, TaskChannel(paneID)); serr != nil && err == nil {
		err = serr
	}
	_ = c.Signal(ctx, TasksChannel)
	return err
}

// TaskChannel is the tmux wait-for channel a task's supervisor signals when
// it has recorded how the task ended.
func TaskChannel(paneID string) string { return "panectl-task-" + TaskIDOf(paneID) }

// SignalTask sends sig to the task command's process group (the command
// leads it, in a session of its own on the supervisor's terminal), so the
// command and its children get it, as they would from their terminal.
// ok is false when there is no such group (not started yet, or ended).
// A group that is not the one the supervisor started (proc.CheckGroup) is
// not signalled: the error says why.
func SignalTask(t Task, sig syscall.Signal) (ok bool, err error) {
	_, pgid, start, started := proc.TaskRunStart(t.Dir)
	if !started {
		return false, nil
	}
	if err := proc.CheckGroup(pgid, start); errors.Is(err, os.ErrProcessDone) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("task %s: nothing signalled: %w", t.ID, err)
	}
	if err := syscall.Kill(-pgid, sig); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// RemoveTask deletes a task's record and journal.
func RemoveTask(t Task) error { return os.RemoveAll(t.Dir) }

// TaskShell picks the shell a background command runs under: the shell of
// the pane it was started from, else $SHELL, else sh.
func TaskShell(paneCommand string) string {
	if _, ok := shell.ShellOf(paneCommand); ok {
		return strings.TrimPrefix(paneCommand, "-")
	}
	if s := os.Getenv("SHELL"); s != "" {
		return s
	}
	return "sh"
}

// writeFileAtomic writes a file (0600) by renaming a temporary one, so a
// reader sees the old content or the new, never a part.
func writeFileAtomic(path string, b []byte) error {
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

package pane

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/panectl/panectl/tmux"
)

// Background tasks (SPEC.md section 8). A task is a pane in the detached
// session TaskSession, made with remain-on-exit so its output and status
// stay readable after it ends. Its id is "t" and the pane's number (pane ids
// are never reused by a tmux server, so neither are task ids). Its state is
// in the task pane's user options, so every panectl process sees it:
//
//	@panectl_task       base64url JSON TaskSpec, written once at creation
//	@panectl_task_exit  "code:N" or "signal:N", written by the supervisor
//	@panectl_task_state "killed" or "timed_out", written by whoever stopped it
//
// The pane runs panectl's own supervisor (`panectl __task-exec`), which
// starts `SHELL -c COMMAND`, records how it ended (exit code or signal:
// tmux 3.3 does not report a signal, and loses the status of a process that
// ends very fast), and enforces the task's time limit.
const (
	TaskSession   = "panectl-tasks"
	taskOpt       = "@panectl_task"
	taskExitOpt   = "@panectl_task_exit"
	taskStateOpt  = "@panectl_task_state"
	taskHistory   = 10000
	TaskKillGrace = 2 * time.Second
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

// TaskSpec is what a task was asked to do.
type TaskSpec struct {
	Command string `json:"c"`
	Shell   string `json:"sh"`
	Started int64  `json:"at"`            // unix ms
	LimitMS int64  `json:"lim,omitempty"` // time limit, 0: none
}

// Task is a task as read at one moment.
type Task struct {
	ID     string
	Spec   TaskSpec
	Pane   tmux.PaneInfo
	Status string
	Exit   *int // exit code when it exited
	Signal int  // signal that ended it
	Ended  time.Time
}

var taskIDRE = regexp.MustCompile(`^t([0-9]+)$`)

// IsTaskID reports whether s has the form of a task id (tN).
func IsTaskID(s string) bool { return taskIDRE.MatchString(s) }

// TaskPaneID is the pane id of task id ("t7" -> "%7").
func TaskPaneID(id string) (string, bool) {
	m := taskIDRE.FindStringSubmatch(id)
	if m == nil {
		return "", false
	}
	return "%" + m[1], true
}

// TaskIDOf is the task id of a task pane ("%7" -> "t7").
func TaskIDOf(paneID string) string { return "t" + strings.TrimPrefix(paneID, "%") }

// StartTask creates the task pane running `self __task-exec` with the
// command. self is the panectl binary and its leading arguments (-S socket).
// The pane is made with a placeholder process, remain-on-exit and the task
// option are set, then the supervisor replaces the placeholder
// (respawn-pane), so even a command that ends at once leaves its pane.
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
	b, _ := json.Marshal(spec)
	argv := append(append([]string{}, self...), "__task-exec", info.ID, "--", spec.Shell, "-c", spec.Command)
	respawn := tmux.Command{"respawn-pane", "-k", "-t", info.ID}
	if cwd != "" {
		respawn = append(respawn, "-c", tmux.FormatLiteral(cwd)) // tmux expands formats in -c
	}
	respawn = append(append(respawn, "--"), argv...)
	if _, err := c.RunList(ctx, nil,
		tmux.Command{"set-option", "-p", "-t", info.ID, "remain-on-exit", "on"},
		tmux.Command{"set-option", "-p", "-t", info.ID, taskOpt, base64.RawURLEncoding.EncodeToString(b)},
		respawn); err != nil {
		_ = c.KillPane(ctx, info.ID)
		return Task{}, err
	}
	return Task{ID: TaskIDOf(info.ID), Spec: spec, Pane: info, Status: TaskRunning}, nil
}

// LoadTask reads a task by id. Unknown id, or a pane that is not a task:
// an error wrapping ErrNoTask.
func LoadTask(ctx context.Context, c *tmux.Client, id string) (Task, error) {
	pid, ok := TaskPaneID(id)
	if !ok {
		return Task{}, fmt.Errorf("%w: %q is not a task id (tasks are named tN; see: panectl tasks)", ErrNoTask, id)
	}
	info, err := c.Pane(ctx, pid)
	if errors.Is(err, tmux.ErrPaneNotFound) {
		return Task{}, fmt.Errorf("%w %s on the tmux server at %s (its pane is gone; see: panectl tasks)", ErrNoTask, id, c.Server.Socket)
	}
	if err != nil {
		return Task{}, err
	}
	opts, err := c.PaneOptions(ctx, pid, taskOpt)
	if errors.Is(err, tmux.ErrPaneNotFound) {
		return Task{}, fmt.Errorf("%w %s (its pane is gone)", ErrNoTask, id)
	}
	if err != nil {
		return Task{}, err
	}
	t, ok := taskFrom(info, opts)
	if !ok {
		return Task{}, fmt.Errorf("%w: pane %s is not a panectl task", ErrNoTask, pid)
	}
	return t, nil
}

// ListTasks reads every task of the server, oldest first.
func ListTasks(ctx context.Context, c *tmux.Client) ([]Task, error) {
	panes, err := c.ListPanes(ctx)
	if err != nil {
		return nil, err
	}
	var tasks []Task
	for _, p := range panes {
		if p.SessionName != TaskSession {
			continue
		}
		opts, err := c.PaneOptions(ctx, p.ID, taskOpt)
		if err != nil {
			continue // gone meanwhile
		}
		if t, ok := taskFrom(p, opts); ok {
			tasks = append(tasks, t)
		}
	}
	sort.Slice(tasks, func(i, j int) bool {
		a, _ := strconv.Atoi(tasks[i].ID[1:])
		b, _ := strconv.Atoi(tasks[j].ID[1:])
		return a < b
	})
	return tasks, nil
}

func taskFrom(info tmux.PaneInfo, opts map[string]string) (Task, bool) {
	raw, ok := opts[taskOpt]
	if !ok {
		return Task{}, false
	}
	var spec TaskSpec
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil || json.Unmarshal(b, &spec) != nil {
		return Task{}, false
	}
	t := Task{ID: TaskIDOf(info.ID), Spec: spec, Pane: info, Status: TaskRunning}
	exit, hasExit := opts[taskExitOpt]
	if !info.Dead && !hasExit {
		return t, true
	}
	kind, num, _ := strings.Cut(exit, ":")
	n, _ := strconv.Atoi(num)
	switch {
	case kind == "code":
		t.Exit = &n
	case kind == "signal":
		t.Signal = n
	case info.Dead: // the supervisor itself was killed (SIGKILL)
		t.Signal = 9
	}
	if ms, err := strconv.ParseInt(opts[taskExitOpt+"_at"], 10, 64); err == nil {
		t.Ended = time.UnixMilli(ms)
	}
	switch state := opts[taskStateOpt]; {
	case state == TaskKilled || state == TaskTimedOut:
		t.Status = state
	case t.Exit == nil:
		t.Status = TaskKilled
	case *t.Exit == 0:
		t.Status = TaskCompleted
	default:
		t.Status = TaskFailed
	}
	return t, true
}

// RecordTaskExit is called by the supervisor when the command ended.
func RecordTaskExit(ctx context.Context, c *tmux.Client, paneID string, code, signal int) error {
	v := "code:" + strconv.Itoa(code)
	if signal > 0 {
		v = "signal:" + strconv.Itoa(signal)
	}
	if err := c.SetPaneOptions(ctx, paneID, map[string]string{
		taskExitOpt: v, taskExitOpt + "_at": strconv.FormatInt(time.Now().UnixMilli(), 10),
	}, nil); err != nil {
		return err
	}
	return c.Signal(ctx, TaskChannel(paneID)) // wakes task waits at once
}

// TaskChannel is the tmux wait-for channel a task's supervisor signals when
// it has recorded how the task ended.
func TaskChannel(paneID string) string { return "panectl-task-" + TaskIDOf(paneID) }

// MarkTask records why a task is being stopped (TaskKilled, TaskTimedOut),
// before the signals are sent.
func MarkTask(ctx context.Context, c *tmux.Client, paneID, state string) error {
	return c.SetPaneOptions(ctx, paneID, map[string]string{taskStateOpt: state}, nil)
}

// SignalTask sends sig to the task's process group (the pane's first
// process leads it: tmux starts each pane in a new session), so the
// command and its children get it, as they would from the terminal.
func SignalTask(t Task, sig syscall.Signal) error {
	if t.Pane.PID <= 0 {
		return fmt.Errorf("task %s has no process", t.ID)
	}
	if err := syscall.Kill(-t.Pane.PID, sig); err != nil {
		if err2 := syscall.Kill(t.Pane.PID, sig); err2 != nil {
			return err
		}
	}
	return nil
}

// TaskOutput captures the task pane's whole output: as written (with
// colour escapes, which tmux re-encodes) and plain. truncated: history is
// at its limit, so the oldest lines may be gone.
func TaskOutput(ctx context.Context, c *tmux.Client, t Task) (raw, plain string, truncated bool, err error) {
	info, texts, err := c.Snapshot(ctx, t.Pane.ID,
		tmux.CaptureSpec{FromOldest: true, ToBottom: true, Join: true, Escapes: true},
		tmux.CaptureSpec{FromOldest: true, ToBottom: true, Join: true})
	if err != nil {
		return "", "", false, err
	}
	trim := func(s string) string {
		lines := strings.Split(s, "\n")
		for i := range lines {
			lines[i] = strings.TrimRight(lines[i], " \t")
		}
		for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
			lines = lines[:len(lines)-1]
		}
		// remain-on-exit writes "Pane is dead (status N, DATE)" (tmux's
		// default remain-on-exit-format) below the output: not the task's
		if info.Dead && len(lines) > 0 && strings.HasPrefix(ansi.Strip(lines[len(lines)-1]), "Pane is dead") {
			lines = lines[:len(lines)-1]
		}
		return strings.TrimRight(strings.Join(lines, "\n"), "\n \t")
	}
	return trim(texts[0]), trim(texts[1]), info.HistoryLimit > 0 && info.HistorySize >= info.HistoryLimit, nil
}

// TaskShell picks the shell a background command runs under: the shell of
// the pane it was started from, else $SHELL, else sh.
func TaskShell(paneCommand string) string {
	if _, ok := ShellOf(paneCommand); ok {
		return strings.TrimPrefix(paneCommand, "-")
	}
	if s := os.Getenv("SHELL"); s != "" {
		return s
	}
	return "sh"
}

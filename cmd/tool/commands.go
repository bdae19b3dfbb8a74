package tool

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/panectl/panectl/pane/acp"
	"github.com/panectl/panectl/pane/journal"
	"github.com/panectl/panectl/pane/task"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter"
	"github.com/panectl/panectl/waiter/terminal"
)

// The bodies of the commands that are not tools: they stream, or run
// inside a pane for panectl itself.

// WithProgress and Waiting report a wait's progress (waiter.WithProgress).
var (
	WithProgress = waiter.WithProgress
	Waiting      = waiter.Waiting
)

// WatchResult is how a watch ended: Note has caveats; TimedOut is true
// when the timeout passed before the pane's process exited.
type WatchResult struct {
	Note     string
	TimedOut bool
}

// Watch streams the pane as ACP session updates or watch events: emit
// gets each value to print. It returns after the exit update, at the
// timeout, or with the context's error.
func Watch(ctx context.Context, env *Env, in schema.WatchInput, emit func(any) error) (WatchResult, error) {
	if in.Format != "acp" && in.Format != "events" {
		return WatchResult{}, Usagef("--format must be acp or events, got %q", in.Format)
	}
	env.KeepControl = true // its reads go through its control client
	c, p, err := env.Pane(ctx, in.PaneID)
	if err != nil {
		return WatchResult{}, err
	}
	// A timeout is clamped like every wait's (SPEC 2).
	once := in.Timeout != nil && EffectiveTimeout(in.Timeout) == 0
	var deadline time.Time
	if in.Timeout != nil && !once {
		timeout := EffectiveTimeout(in.Timeout)
		deadline = time.Now().Add(Seconds(timeout))
		var cancel context.CancelFunc
		ctx, cancel = OpContext(ctx, timeout, 0)
		defer cancel()
	}
	session := in.SessionID
	if session == "" {
		session = p.SessionID
	}
	update := func(u acp.SessionUpdate) error {
		if in.Format == "acp" {
			return emit(acp.NewACPNotification(session, u))
		}
		for _, e := range acp.WatchEvents(p.ID, u) {
			if err := emit(e); err != nil {
				return err
			}
		}
		return nil
	}
	res, err := terminal.Watch(ctx, c, p, terminal.Options{TerminalID: in.TerminalID, Emit: update, Once: once, Deadline: deadline})
	out := WatchResult{Note: res.Note}
	if errors.Is(err, context.DeadlineExceeded) || (err == nil && !res.Exited) {
		out.TimedOut = true
		return out, nil
	}
	return out, err
}

// FollowTasks calls emit with the completion frame of each task as it
// ends (tasks --follow), until the timeout (nil: none).
func FollowTasks(ctx context.Context, env *Env, timeout *float64, emit func(schema.CompletionFrame) error) (schema.Outcome, error) {
	env.KeepControl = true // its reads go through a control client kept on the task session
	c, err := env.Client()
	if err != nil {
		return "", err
	}
	d := time.Duration(1<<62 - 1)
	if timeout != nil {
		t := EffectiveTimeout(timeout) // clamped like every wait's (SPEC 2)
		d = Seconds(t)
		var cancel context.CancelFunc
		ctx, cancel = OpContext(ctx, t, 0)
		defer cancel()
	}
	return waiter.FollowTasks(ctx, c, d, func(t task.Task) error {
		fr, err := Frame(t)
		if err != nil {
			return nil // removed as it ended
		}
		return emit(fr)
	})
}

// TaskOutput is a task's journal (task output): its bytes (compressed:
// with progress bars and repeats folded, journal.Compress), and the bytes
// and lines that had left it.
func TaskOutput(ctx context.Context, env *Env, id string, compressed bool) (data []byte, dropped, droppedLines int64, err error) {
	c, err := env.Client()
	if err != nil {
		return nil, 0, 0, err
	}
	t, err := task.LoadTask(ctx, c, id)
	if err != nil {
		return nil, 0, 0, err
	}
	d, err := journal.Read(t.Journal, -1)
	if err != nil {
		return nil, 0, 0, err
	}
	if compressed {
		return []byte(journal.Compress(string(d.Data))), d.First, d.FirstLine, nil
	}
	return d.Data, d.First, d.FirstLine, nil
}

// JournalMiB is how many MiB a journal keeps.
const JournalMiB = journal.MaxBytes >> 20

// SuperviseTask is the hidden `__task-exec %N DIR -- SHELL -c COMMAND` a
// task pane runs: task.Supervise does the work.
func SuperviseTask(env *Env, paneID, dir string, argv []string) error {
	if len(argv) > 0 && argv[0] == "--" {
		argv = argv[1:]
	}
	if len(argv) == 0 {
		return Usagef("no command to supervise")
	}
	c, err := env.Client()
	if err != nil {
		return err
	}
	return task.Supervise(c, paneID, dir, argv)
}

// CopyJournal is the hidden journal writer tmux's pipe-pane runs for a
// journaled pane: it appends in to the pane's journal.
func CopyJournal(env *Env, state, paneID string, in io.Reader) error {
	c, err := env.Client()
	if err != nil {
		return err
	}
	return journal.Copy(context.Background(), c, state, paneID, in)
}

// Demo runs the main job on a private tmux server: a shell pane, a typed
// command, a wait for its output that discounts the typed line's echo.
// The server and its socket are removed afterwards.
func Demo(ctx context.Context) (out schema.DemoOutput, paneID string, err error) {
	dir, err := os.MkdirTemp("", "panectl-demo-")
	if err != nil {
		return out, "", err
	}
	defer os.RemoveAll(dir)
	srv := tmux.Server{Socket: filepath.Join(dir, "tmux.sock"), From: "-S"}
	c, err := tmux.NewClient(srv)
	if err != nil {
		return out, "", err
	}
	demo := &Env{SocketPath: srv.Socket}
	demo.SetClient(c)
	defer func() {
		// Cleanup even on failure or SIGINT: kill the server, remove the socket.
		kerr := c.KillServer(context.WithoutCancel(ctx))
		_, serr := os.Stat(srv.Socket)
		out.Cleanup = kerr == nil && os.IsNotExist(serr)
		if kerr == nil && !out.Cleanup {
			out.Cleanup = os.Remove(srv.Socket) == nil
		}
	}()
	shell := []string{"sh"}
	if bash, err := exec.LookPath("bash"); err == nil {
		shell = []string{bash, "--noprofile", "--norc"}
	}
	p, err := NewPane.Run(ctx, demo, schema.NewPaneInput{Name: "demo", Size: "100x30", Command: shell})
	if err != nil {
		return out, "", err
	}
	// The typed line contains the awaited text, so only echo discounting
	// keeps the wait from matching the command line itself.
	out.Command = "sleep 0.5; echo PANECTL_DEMO_DONE"
	sent, err := SendText.Run(ctx, demo, schema.SendTextInput{PaneID: p.PaneID, Text: out.Command, Submit: true})
	if err != nil {
		return out, p.PaneID, err
	}
	timeout := 10.0
	w, err := WaitForText.Run(ctx, demo, schema.WaitForTextInput{PaneID: p.PaneID, Patterns: schema.StringList{"PANECTL_DEMO_DONE"}, Cursor: sent.Cursor, Timeout: &timeout})
	if err != nil {
		return out, p.PaneID, err
	}
	out.Socket, out.Wait, out.Outcome = srv.Socket, w, w.Outcome
	return out, p.PaneID, nil
}

// RecognizerIDs lists the recognizer ids, user manifests included (a
// broken user manifest: the bundled ids), for completion.
func RecognizerIDs() []string {
	set, err := recognize.Load(recognize.UserDir())
	if err != nil {
		if set, err = recognize.Load(""); err != nil {
			return nil
		}
	}
	return set.IDs()
}

// SocketNames lists the sockets in tmux's socket directory ($TMUX_TMPDIR
// or /tmp, then tmux-UID): the names -L accepts.
func SocketNames() []string {
	srv, err := tmux.ResolveServer("x", "", nil)
	if err != nil {
		return nil
	}
	entries, err := os.ReadDir(filepath.Dir(srv.Socket))
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if e.Type()&os.ModeSocket != 0 {
			names = append(names, e.Name())
		}
	}
	return names
}

package tool

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter/supervise"
)

// The bodies of agents and events: a supervisor of the server's panes (package waiter/supervise).

// Supervision is a supervisor ready to run, with what its command was asked.
type Supervision struct {
	*supervise.Supervisor
	Client *tmux.Client
	Quiet  time.Duration
	picks  func(pane, session string) bool
}

// Supervise builds a supervisor for the panes a filter picks (ids and a session, both optional).
// An unknown pane or session is a *tmux.NotFoundError (exit 4). emit gets each event.
func Supervise(ctx context.Context, env *Env, panes []string, session string, quietMS int, emit func(supervise.Event)) (*Supervision, error) {
	ms, err := quietWindow(quietMS)
	if err != nil {
		return nil, err
	}
	set, err := recognizers()
	if err != nil {
		return nil, err
	}
	env.KeepControl = true // one kept control client per session serves every pane in it
	c, err := env.Client()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, t := range panes {
		p, err := c.ResolvePane(ctx, t)
		if err != nil {
			return nil, err
		}
		ids = append(ids, p.ID)
	}
	sid := ""
	if session != "" {
		all, _, err := c.ListPanes(ctx)
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(all, func(p tmux.PaneInfo) bool { return p.SessionName == session || p.SessionID == session })
		if i < 0 {
			return nil, &tmux.NotFoundError{Target: session, Socket: c.Server.Socket, Kind: "session"}
		}
		sid = all[i].SessionID // the session by its id: a rename changes nothing
	}
	picks := func(pane, session string) bool {
		return (len(ids) == 0 || slices.Contains(ids, pane)) && (sid == "" || session == sid)
	}
	quiet := millis(ms)
	s := supervise.New(c, supervise.Options{Set: set, Quiet: quiet, Emit: emit,
		Follow: func(p tmux.PaneInfo) bool { return picks(p.ID, p.SessionID) }})
	return &Supervision{Supervisor: s, Client: c, Quiet: quiet, picks: picks}, nil
}

// Agents lists the panes once every one has settled, or after the quiet window and 2 s more.
func Agents(ctx context.Context, env *Env, in schema.AgentsInput) (schema.AgentsOutput, error) {
	sv, err := Supervise(ctx, env, in.Panes, in.Session, in.QuietMS, nil)
	if err != nil {
		return schema.AgentsOutput{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var runErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); runErr = sv.Run(ctx); cancel() }()
	bound := time.NewTimer(sv.Quiet + 2*time.Second)
	defer bound.Stop()
	out := schema.AgentsOutput{}
wait:
	for !sv.Settled() {
		select {
		case <-ctx.Done():
			break wait
		case <-bound.C:
			out.Note = "some panes kept changing: their state is the last look's (settled: false)"
			break wait
		case <-sv.Updated():
		}
	}
	rows := sv.Rows(in.All)
	cancel()
	wg.Wait()
	if runErr != nil {
		return schema.AgentsOutput{}, runErr
	}
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return schema.AgentsOutput{}, err
	}
	out.Agents = rows
	return out, nil
}

// Switch shows pane id in the person's tmux client (switch-client). Inside tmux on the same
// server, a client attached to the caller's own session comes first.
func (sv *Supervision) Switch(ctx context.Context, id string) error {
	return sv.Client.SwitchClient(ctx, id, sv.Own())
}

// Own is the pane the caller runs in ($TMUX_PANE) when it is of this server, else "".
func (sv *Supervision) Own() string {
	if sock, _, _ := strings.Cut(os.Getenv("TMUX"), ","); sock == sv.Client.Server.Socket {
		return os.Getenv("TMUX_PANE")
	}
	return ""
}

// genericID is the recognizer of a program no other one knows.
const genericID = "generic"

// Rows are the supervisor's panes as agents rows: those a recognizer knows, or all.
func (sv *Supervision) Rows(all bool) []schema.Agent {
	rows := []schema.Agent{}
	now := time.Now()
	for _, p := range sv.Panes() {
		if p.Recognizer == "" || (!all && p.Recognizer == genericID) {
			continue
		}
		rows = append(rows, AgentRow(p, now))
	}
	return rows
}

// AgentRow is one pane's agents row at now.
func AgentRow(p supervise.Pane, now time.Time) schema.Agent {
	i := p.Info
	return schema.Agent{
		PaneID: i.ID, SessionName: i.SessionName, Recognizer: p.Recognizer, State: p.State, Settled: p.Settled,
		Seconds: Round3(now.Sub(p.Since).Seconds()), Command: i.Command, Title: i.Title, CWD: i.CWD,
		Line: p.Line, Evidence: evidence(p.Evidence), Note: p.Note,
	}
}

// Event is a supervisor's event as an events line.
func Event(e supervise.Event) schema.Event {
	out := schema.Event{
		Type: e.Kind, Time: time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		PaneID: e.Pane.Info.ID, SessionName: e.Pane.Info.SessionName,
	}
	switch e.Kind {
	case supervise.Changed:
		ev := evidence(e.Pane.Evidence)
		out.From, out.To, out.Recognizer, out.Evidence = e.From, e.Pane.State, e.Pane.Recognizer, &ev
	case supervise.Exited:
		if i := e.Pane.Info; i.DeadKnown && i.DeadSignal == 0 {
			st := i.DeadStatus
			out.ExitStatus = &st
		} else if i.DeadSignal != 0 {
			out.Signal = i.DeadSignal
		}
	}
	return out
}

// Events prints one line per change on the server (emit) until ctx ends, the timeout passes
// (timedOut) or the server goes. Ended tasks come from FollowTasks.
func Events(ctx context.Context, env *Env, in schema.EventsInput, emit func(schema.Event) error) (timedOut bool, err error) {
	if in.Timeout != nil {
		t := EffectiveTimeout(in.Timeout)
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, Seconds(t))
		defer cancel()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var mu sync.Mutex
	send := func(e schema.Event) {
		mu.Lock()
		defer mu.Unlock()
		if err := emit(e); err != nil {
			cancel(err) // stdout is gone: end
		}
	}
	sv, err := Supervise(ctx, env, in.Panes, in.Session, in.QuietMS, func(e supervise.Event) { send(Event(e)) })
	if err != nil {
		return false, err
	}
	go func() {
		_, _ = FollowTasks(ctx, env, nil, func(fr schema.CompletionFrame) error {
			if !sv.picks(fr.PaneID, fr.SessionID) {
				return nil
			}
			send(schema.Event{Type: "task_ended", Time: time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00"), PaneID: fr.PaneID, Task: &fr})
			return nil
		})
	}()
	if err := sv.Run(ctx); err != nil {
		return false, err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return true, nil
	}
	return false, context.Cause(ctx) // interrupted, or stdout gone
}

package tool

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter"
)

// severalPanes resolves the panes of a wait over several panes. Exactly
// one of one (with p.All), p.PaneIDs, p.Session and p.AllPanes names
// them. A session's or the server's panes are its live ones. Repeated
// panes count once.
func (e *Env) severalPanes(ctx context.Context, one string, p schema.Panes) ([]string, error) {
	given := 0
	for _, set := range []bool{one != "", len(p.PaneIDs) > 0, p.Session != "", p.AllPanes} {
		if set {
			given++
		}
	}
	switch {
	case given == 0:
		return nil, noPane()
	case given > 1:
		return nil, Usagef("name the panes one way: pane ids, session (--session) or all_panes (--all-panes)")
	case one != "":
		p.PaneIDs = schema.StringList{one}
	}
	var ids []string
	var err error
	if len(p.PaneIDs) > 0 {
		ids, err = e.namedPanes(ctx, p.PaneIDs)
	} else {
		ids, err = e.livePanes(ctx, p.Session)
	}
	if err != nil {
		return nil, err
	}
	if len(ids) > schema.MaxWaitPanes {
		return nil, Usagef("%d panes to wait on; one wait watches at most %d", len(ids), schema.MaxWaitPanes)
	}
	return ids, nil
}

// noPane is the error of a wait given no pane: in the tool's argument
// names (the CLI checks its arguments before).
func noPane() error {
	return Usagef("pane_id: required: name a pane (e.g. %%1), or several with pane_ids, session or all_panes")
}

// namedPanes resolves each target to its pane id, in order, once each.
func (e *Env) namedPanes(ctx context.Context, targets []string) ([]string, error) {
	if len(targets) > schema.MaxWaitPanes {
		return nil, Usagef("%d panes to wait on; one wait watches at most %d", len(targets), schema.MaxWaitPanes)
	}
	var ids []string
	for _, t := range targets {
		_, p, err := e.Pane(ctx, t)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ids, p.ID) {
			ids = append(ids, p.ID)
		}
	}
	return ids, nil
}

// livePanes lists the live panes of session (its name or $N id), or of
// the server for "", but the pane panectl runs in. Panes whose row tmux
// printed malformed are left out.
func (e *Env) livePanes(ctx context.Context, session string) ([]string, error) {
	c, err := e.Client()
	if err != nil {
		return nil, err
	}
	panes, _, err := c.ListPanes(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	found, own := session == "", ownPane(c)
	for _, p := range panes {
		if session != "" && p.SessionName != session && p.SessionID != session {
			continue
		}
		found = true
		if !p.Dead && p.ID != own {
			ids = append(ids, p.ID)
		}
	}
	switch {
	case !found:
		return nil, &tmux.NotFoundError{Target: session, Socket: c.Server.Socket, Kind: "session"}
	case len(ids) == 0 && session != "":
		return nil, fmt.Errorf("session %q has no live pane to wait on: %w", session, tmux.ErrPaneNotFound)
	case len(ids) == 0:
		return nil, fmt.Errorf("the server has no live pane to wait on: %w", tmux.ErrPaneNotFound)
	}
	return ids, nil
}

// ownPane is the pane panectl runs in when that is on c's server, else
// "". A wait on it would wait on itself.
func ownPane(c *tmux.Client) string {
	socket, _, _ := strings.Cut(os.Getenv("TMUX"), ",")
	if socket == "" || socket != c.Server.Socket {
		return ""
	}
	return os.Getenv("TMUX_PANE")
}

// several runs one wait per pane of ids at once (waiter.Several) and
// returns the result on top and, with all, every result. Without all the
// top is the deciding pane's. With all it is the first pane's whose exit
// (exitOf) is not 0, else the first pane's. Control clients are kept for
// the call, so the waits on a session share one.
func several[R any](ctx context.Context, e *Env, ids []string, all bool, timeout float64, what string,
	one func(ctx context.Context, id string) (R, error), exitOf func(R) error) (top R, results []R, err error) {
	c, err := e.Client()
	if err != nil {
		return top, nil, err
	}
	if !c.Keeping() {
		c.KeepControl(tmux.DefaultKeepIdle)
	}
	what = fmt.Sprintf("%s in %d panes", what, len(ids))
	rs, decided, err := waiter.Several(ctx, len(ids), all, Seconds(timeout), what, func(ctx context.Context, i int) (R, error) {
		return one(ctx, ids[i])
	})
	switch {
	case err != nil:
		return top, nil, err
	case !all:
		return rs[decided], nil, nil
	}
	top = rs[0]
	for _, r := range rs {
		if exitOf(r) != nil {
			top = r
			break
		}
	}
	return top, rs, nil
}

package tool

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter"
)

// Panes as MCP resources (SPEC.md section 9): pane://%N, the screen as text.

// paneIDRE is a pane id: resources name panes by id only.
var paneIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^%[0-9]+$`) })

// PaneURI is pane id's resource URI. RFC 3986 spells a literal "%" as %25:
// pane %3 is pane://%253.
func PaneURI(id string) string { return "pane://" + url.PathEscape(id) }

// PaneOfURI is the pane id a resource URI names. It takes the RFC 3986 form
// (pane://%253) and the literal one (pane://%3).
func PaneOfURI(uri string) (string, bool) {
	id, ok := strings.CutPrefix(uri, "pane://")
	if !ok {
		return "", false
	}
	if u, err := url.PathUnescape(id); err == nil && paneIDRE().MatchString(u) {
		return u, true
	}
	return id, paneIDRE().MatchString(id)
}

// ResourcePanes lists the server's panes for resources/list.
func ResourcePanes(ctx context.Context, env *Env) ([]tmux.PaneInfo, error) {
	c, err := env.Client()
	if err != nil {
		return nil, err
	}
	panes, _, err := c.ListPanes(ctx)
	return panes, err
}

// PaneText is the pane's stable screen as text, one row a line.
func PaneText(ctx context.Context, env *Env, id string) (string, error) {
	c, p, err := env.Pane(ctx, id)
	if err != nil {
		return "", err
	}
	s, _, err := pane.StableScreen(ctx, c, p.ID, false, pane.DefaultSettle)
	if err != nil {
		return "", err
	}
	return strings.Join(s.Rows, "\n"), nil
}

// updateGap is the least time between two updates of one pane.
const updateGap = 100 * time.Millisecond

// PaneFollow follows one pane's screen through the session's kept control client (waiter.Watch).
type PaneFollow struct {
	c    *tmux.Client
	id   string
	src  waiter.Source
	last pane.Screen
}

// FollowPane starts following pane id: its screen now is the one later changes are from.
func FollowPane(ctx context.Context, env *Env, id string) (*PaneFollow, error) {
	c, p, err := env.Pane(ctx, id)
	if err != nil {
		return nil, err
	}
	src, err := waiter.WatchPane(ctx, c, p)
	if err != nil {
		return nil, err
	}
	f := &PaneFollow{c: c, id: p.ID, src: src}
	if f.last, err = f.look(ctx); err != nil {
		src.Close()
		return nil, err
	}
	return f, nil
}

func (f *PaneFollow) look(ctx context.Context) (pane.Screen, error) {
	if v := f.src.Via(); v != nil {
		return pane.CaptureScreenVia(ctx, v, f.id, false)
	}
	return pane.CaptureScreen(ctx, f.c, f.id, false)
}

// Run calls changed each time the screen changes, at most once per updateGap, and once more when
// the pane is gone or dead. It returns then, or when ctx ends, and stops following.
func (f *PaneFollow) Run(ctx context.Context, changed func()) {
	defer f.src.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.src.Changed():
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(updateGap):
		}
		s, err := f.look(ctx)
		if ctx.Err() != nil {
			return
		}
		if err != nil || s.Info.Dead {
			changed() // a read now tells it is gone, or shows it dead
			return
		}
		if !s.Same(f.last) {
			changed()
		}
		f.last = s
	}
}

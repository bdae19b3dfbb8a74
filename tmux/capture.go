package tmux

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// CaptureSpec is one capture-pane call. Lines are numbered as tmux does: 0 is
// the first visible row, history rows are negative (-1 the newest).
type CaptureSpec struct {
	Start, End int  // -S and -E; clamped by tmux to what exists
	FromOldest bool // -S -: start at the oldest history row (Start ignored)
	ToBottom   bool // -E -: end at the last visible row (End ignored)
	Join       bool // -J: join wrapped rows into logical lines
	Escapes    bool // -e: keep colour and attribute escapes
	Alternate  bool // -a: the saved (non-active) screen; empty when there is none
}

func (s CaptureSpec) args(id string) Command {
	a := Command{"capture-pane", "-p", "-t", id}
	if s.FromOldest {
		a = append(a, "-S", "-")
	} else {
		a = append(a, "-S", strconv.Itoa(s.Start))
	}
	if s.ToBottom {
		a = append(a, "-E", "-")
	} else {
		a = append(a, "-E", strconv.Itoa(s.End))
	}
	if s.Join {
		a = append(a, "-J")
	}
	if s.Escapes {
		a = append(a, "-e")
	}
	if s.Alternate {
		a = append(a, "-a", "-q")
	}
	return a
}

// Snapshot describes a pane and runs the captures in one list, with no pane
// output read between, so all show one instant. Each text is capture-pane's
// output, a "\n"-ended line per row (or logical line with Join).
func (c *Client) Snapshot(ctx context.Context, id string, specs ...CaptureSpec) (PaneInfo, []string, error) {
	p, texts, _, err := c.SnapshotOptions(ctx, id, "", specs...)
	return p, texts, err
}

// SnapshotOptions is Snapshot also reading the pane's user options starting
// with prefix (as PaneOptions), all in one tmux process. An empty prefix reads
// none (nil map).
func (c *Client) SnapshotOptions(ctx context.Context, id, prefix string, specs ...CaptureSpec) (PaneInfo, []string, map[string]string, error) {
	mark := recordSep + "panectl-" + Nonce() + recordSep
	r := newPaneRow()
	list := CommandList{{"display-message", "-p", "-t", id, r.Format()}}
	for _, s := range specs {
		list = append(list, s.args(id), Command{"display-message", "-p", "-t", id, mark})
	}
	if prefix != "" {
		list = append(list, Command{"show-options", "-p", "-t", id}, Command{"display-message", "-p", "-t", id, mark})
	}
	out, err := c.RunList(ctx, nil, list...)
	if err != nil {
		return PaneInfo{}, nil, nil, c.notFound(id, err)
	}
	p, rest, err := r.Parse(out)
	if err == errNoPane || (err == nil && p.ID != id) {
		return PaneInfo{}, nil, nil, &NotFoundError{Target: id, Socket: c.Server.Socket}
	}
	if err != nil {
		return PaneInfo{}, nil, nil, err
	}
	texts := make([]string, 0, len(specs))
	for range specs {
		text, after, ok := strings.Cut(rest, mark+"\n")
		if !ok {
			return PaneInfo{}, nil, nil, fmt.Errorf("tmux capture-pane output of %s was cut short", id)
		}
		texts = append(texts, text)
		rest = after
	}
	var opts map[string]string
	if prefix != "" {
		text, _, ok := strings.Cut(rest, mark+"\n")
		if !ok {
			return PaneInfo{}, nil, nil, fmt.Errorf("tmux show-options output of %s was cut short", id)
		}
		if opts, err = parseOptions(id, text, prefix); err != nil {
			return PaneInfo{}, nil, nil, err
		}
	}
	return p, texts, opts, nil
}

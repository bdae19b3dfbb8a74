package tmux

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/panectl/panectl/tmux/panerow"
	"github.com/panectl/panectl/tmux/socketlock"
)

// sep (U+241F) separates the fields of panectl's formats. Every tmux prints
// this printable UTF-8 verbatim to a -u client. A control character tmux 3.4
// and 3.5 print as "\037" (featOutputVis), a non-UTF-8 client as "_". A row
// with free text frames it further (panerow.go).
const sep = panerow.Sep

// recordSep (U+241E) brackets one command's output in a list's answer, as
// recordSep + nonce + recordSep. It is printable for the reasons of sep.
const recordSep = panerow.RecordSep

// PaneInfo is one pane as tmux reports it (package panerow).
type PaneInfo = panerow.PaneInfo

// geometryFields say where a pane's output went, for a wait that checks a
// stream against the pane. Unlike pane_current_command and pane_current_path,
// they read no process state from /proc.
var geometryFields = []string{
	"pane_id", "pane_pid", "pane_width", "pane_height", "pane_dead", "history_size", "history_limit",
	"cursor_x", "cursor_y", "alternate_on", "wrap_flag", "insert_flag", "origin_flag",
	"scroll_region_upper", "scroll_region_lower",
}

var geometryFormat = func() string {
	parts := make([]string, len(geometryFields))
	for i, f := range geometryFields {
		parts[i] = "#{" + f + "}"
	}
	return strings.Join(parts, sep)
}()

// parseGeometry decodes a geometryFormat row, other PaneInfo fields zero.
func parseGeometry(row string) (PaneInfo, error) {
	f := strings.Split(row, sep)
	if len(f) == len(geometryFields) && f[0] == "" {
		return PaneInfo{}, errNoPane
	}
	if len(f) != len(geometryFields) || !strings.HasPrefix(f[0], "%") {
		return PaneInfo{}, fmt.Errorf("tmux returned a malformed pane row %q", row)
	}
	n := make([]int, len(f))
	for i := 1; i < len(f); i++ {
		if f[i] == "" {
			continue
		}
		v, err := strconv.Atoi(f[i])
		if err != nil {
			return PaneInfo{}, fmt.Errorf("tmux returned a malformed pane row %q: %v", row, err)
		}
		n[i] = v
	}
	return PaneInfo{
		ID: f[0], PID: n[1], Width: n[2], Height: n[3], Dead: f[4] == "1", HistorySize: n[5], HistoryLimit: n[6],
		CursorX: n[7], CursorY: n[8], AlternateOn: f[9] == "1", WrapFlag: f[10] == "1", InsertFlag: f[11] == "1",
		OriginFlag: f[12] == "1", ScrollUpper: n[13], ScrollLower: n[14],
	}, nil
}

var errNoPane = panerow.ErrNoPane

// newPaneRow is the pane row format of one call.
func newPaneRow() panerow.Row { return panerow.New(Nonce()) }

// A RowError is a pane whose row in a listing does not parse: that pane's
// error, not the listing's. Pane holds the fixed fields when they parse (ID ""
// when not).
type RowError struct {
	Pane PaneInfo
	Err  error
}

func (e *RowError) Error() string { return e.Err.Error() }
func (e *RowError) Unwrap() error { return e.Err }

// ListPanes lists every pane of the server (list-panes -a): the panes whose
// rows parse, and a RowError for each other. No server is ErrNoServer, never
// an empty list.
func (c *Client) ListPanes(ctx context.Context) ([]PaneInfo, []*RowError, error) {
	r := newPaneRow()
	out, err := c.Run(ctx, "list-panes", "-a", "-F", r.Format())
	if err != nil {
		return nil, nil, err
	}
	var panes []PaneInfo
	var bad []*RowError
	for out != "" {
		var p PaneInfo
		if p, out, err = r.Parse(out); err != nil {
			bad = append(bad, &RowError{Pane: p, Err: err})
			continue
		}
		panes = append(panes, p)
	}
	return panes, bad, nil
}

// Pane describes one pane by id ("%N"). Unknown pane: *NotFoundError.
func (c *Client) Pane(ctx context.Context, id string) (PaneInfo, error) {
	r := newPaneRow()
	out, err := c.Run(ctx, "display-message", "-p", "-t", id, r.Format())
	if err != nil {
		return PaneInfo{}, c.notFound(id, err)
	}
	p, _, err := r.Parse(out)
	if err == errNoPane || (err == nil && p.ID != id) {
		return PaneInfo{}, &NotFoundError{Target: id, Socket: c.Server.Socket}
	}
	if err != nil {
		return PaneInfo{}, err
	}
	if p.ID != id {
		return PaneInfo{}, &NotFoundError{Target: id, Socket: c.Server.Socket}
	}
	return p, nil
}

func (c *Client) notFound(target string, err error) error {
	if errors.Is(err, ErrPaneNotFound) {
		return &NotFoundError{Target: target, Socket: c.Server.Socket}
	}
	return err
}

// ResolvePane turns "%N", "@N[.pane]" or "session[:window[.pane]]" into one
// pane. Names match exactly, never by prefix, a window by index or @id, a pane
// by index. No pane or several is *NotFoundError or ErrAmbiguousTarget.
func (c *Client) ResolvePane(ctx context.Context, target string) (PaneInfo, error) {
	if strings.HasPrefix(target, "%") {
		if _, err := strconv.Atoi(target[1:]); err != nil {
			return PaneInfo{}, &NotFoundError{Target: target, Socket: c.Server.Socket}
		}
		return c.Pane(ctx, target)
	}
	panes, bad, err := c.ListPanes(ctx)
	if err != nil {
		return PaneInfo{}, err
	}
	hits, err := named(target, panes, bad)
	if err != nil {
		return PaneInfo{}, err
	}
	switch len(hits) {
	case 0:
		return PaneInfo{}, &NotFoundError{Target: target, Socket: c.Server.Socket}
	case 1:
		return hits[0], nil
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return PaneInfo{}, fmt.Errorf("%w: %q names %d panes (%s); name one pane, e.g. by its id", ErrAmbiguousTarget, target, len(hits), strings.Join(ids, ", "))
}

// named returns the panes target names ("@N[.pane]" or
// "session[:window[.pane]]"). A pane of bad has no known session name, so it
// may be named: then target is ambiguous.
func named(target string, panes []PaneInfo, bad []*RowError) ([]PaneInfo, error) {
	sess, rest, hasWin := strings.Cut(target, ":")
	if strings.HasPrefix(target, "@") {
		// a window id alone: that window's pane, when it has one
		sess, rest, hasWin = "", target, true
	}
	win, pidx, hasPane := strings.Cut(rest, ".")
	matches := func(p PaneInfo, nameKnown bool) bool {
		if p.ID == "" {
			return true // nothing of its row is known
		}
		if sess != "" && p.SessionID != sess && (nameKnown && p.SessionName != sess) {
			return false
		}
		if hasWin && win != "" && win != strconv.Itoa(p.WindowIndex) && win != p.WindowID {
			return false
		}
		return !hasPane || pidx == strconv.Itoa(p.PaneIndex) || pidx == p.ID
	}
	for _, b := range bad {
		if matches(b.Pane, false) {
			return nil, fmt.Errorf("%w: %q may name pane %s, whose row tmux printed malformed (%v); name the pane by its id", ErrAmbiguousTarget, target, cmp.Or(b.Pane.ID, "(unknown)"), b.Err)
		}
	}
	var hits []PaneInfo
	for _, p := range panes {
		if matches(p, true) {
			hits = append(hits, p)
		}
	}
	return hits, nil
}

// paneIDRE is a pane id as tmux prints it (#{pane_id}).
var paneIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^%[0-9]+$`) })

// NewOptions are the settings of a new pane (new-session / new-window).
type NewOptions struct {
	SessionName  string   // -s; "" lets tmux choose
	WindowIn     string   // create a window in this existing session instead
	CWD          string   // -c
	Width        int      // -x (new-session only)
	Height       int      // -y
	HistoryLimit int      // history-limit for this pane; 0 = server default
	Env          []string // -e K=V
	Command      []string // shell command; nil = default shell
	// Then is a tmux command without -t, run on the new pane in the list that
	// makes it. So it runs before tmux reads the pane's output (pipe-pane).
	Then []string
	// ExitCheck holds the new pane (remain-on-exit) this long. A command that
	// exits meanwhile is ErrPaneExited. 0 checks only the first read.
	ExitCheck time.Duration
}

// NewPane creates a detached session, or a window in opts.WindowIn, and returns
// its pane, changing no attached client's focus (-d). tmux reads history-limit
// when it creates a pane, so a HistoryLimit is set globally around the creation
// in one list and put back. From 3.7 on (featLiveHistoryLimit) it is the new
// session's option, and a window in an existing session cannot have one
// (ErrUnsupported). The session name and start directory go as literals
// (FormatLiteral), since tmux expands formats in both. With opts.ExitCheck, a
// command exiting within it is an ErrPaneExited with its exit status and last
// lines, seen whatever the timing (hold.go). A socket path (-S) too long, or in
// a missing or unwritable directory, is a *SocketPathError. An answer without a
// pane id is an error, never a pane.
func (c *Client) NewPane(ctx context.Context, opts NewOptions) (PaneInfo, error) {
	if c.Server.From == "-L" || c.Server.From == "default" {
		// tmux makes its per-user socket directory only for -L. panectl always
		// passes -S, so it makes it alike (mode 0700).
		if err := os.MkdirAll(filepath.Dir(c.Server.Socket), 0o700); err != nil {
			return PaneInfo{}, err
		}
	}
	if err := checkSocketDir(c.Server); err != nil {
		return PaneInfo{}, err
	}
	plan := newPanePlan{opts: opts}
	var hold *exitHold
	if opts.ExitCheck > 0 {
		var err error
		if hold, err = c.startHold(); err != nil {
			return PaneInfo{}, err
		}
		defer hold.release(ctx)
		plan.hold = hold.commands()
	}
	plan.detachedSize = c.has(featDetachedSize)
	plan.liveLimit = opts.HistoryLimit > 0 && c.has(featLiveHistoryLimit)
	if plan.liveLimit && opts.WindowIn != "" {
		if err := c.checkSessionHistoryLimit(ctx, opts); err != nil {
			return PaneInfo{}, err
		}
	}
	out, list, err := c.runNewPane(ctx, &plan)
	if list == nil {
		return PaneInfo{}, err // the list could not be built: nothing was sent
	}
	return c.finishNewPane(ctx, opts, hold, list, out, err)
}

// newPanePlan is what NewPane's list depends on besides its options: the
// server's facts and the thens' target.
type newPanePlan struct {
	opts         NewOptions
	detachedSize bool // new-session -d takes -x and -y (featDetachedSize)
	// liveLimit: HistoryLimit is the new session's own option
	// (featLiveHistoryLimit), not set globally around the creation.
	liveLimit bool
	hold      []Command // the exit hold's commands (hold.go), without -t
	window    int       // the new window's index (WindowIn), when thens need a target
	tmpName   string    // names a new unnamed session while thens need a target
}

// savedHistoryLimit keeps the global history-limit while a pane is made.
const savedHistoryLimit = "@panectl-saved-history-limit"

// restoreHistoryLimit puts the global history-limit back.
var restoreHistoryLimit = CommandList{
	{"set-option", "-gF", "history-limit", "#{" + savedHistoryLimit + "}"},
	{"set-option", "-gu", savedHistoryLimit},
}

// newPaneCreate is new-window in opts.WindowIn, or new-session.
func newPaneCreate(opts NewOptions) Command {
	var create Command
	if opts.WindowIn != "" {
		// "=" matches the session name exactly, never by prefix (SPEC.md
		// section 2). A session id ($N) matches with it too.
		create = Command{"new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "=" + strings.TrimPrefix(opts.WindowIn, "=") + ":"}
	} else {
		create = Command{"new-session", "-d", "-P", "-F", "#{pane_id}"}
		if opts.SessionName != "" {
			create = append(create, "-s", FormatLiteral(opts.SessionName))
		}
		create = append(create, sizeArgs(opts)...)
	}
	if opts.CWD != "" {
		create = append(create, "-c", FormatLiteral(opts.CWD))
	}
	for _, e := range opts.Env {
		create = append(create, "-e", e)
	}
	if len(opts.Command) > 0 {
		create = append(create, "--")
		create = append(create, opts.Command...)
	}
	return create
}

// sizeArgs are -x and -y for the sizes opts asks for.
func sizeArgs(opts NewOptions) []string {
	var args []string
	if opts.Width > 0 {
		args = append(args, "-x", strconv.Itoa(opts.Width))
	}
	if opts.Height > 0 {
		args = append(args, "-y", strconv.Itoa(opts.Height))
	}
	return args
}

// thens run on the new pane in its creating list, targeted by thenCommands.
func (p newPanePlan) thens() []Command {
	thens := append([]Command{}, p.hold...)
	if len(p.opts.Then) > 0 {
		thens = append(thens, p.opts.Then)
	}
	if p.opts.WindowIn == "" && (p.opts.Width > 0 || p.opts.Height > 0) && !p.detachedSize {
		// new-session -d ignores -x and -y. resize-window sets the size, and
		// window-size manual for this window only.
		thens = append(thens, append(Command{"resize-window"}, sizeArgs(p.opts)...))
	}
	// Before featLiveHistoryLimit the limit is set globally around the
	// creation. From it on that trims every pane, so the new session gets its
	// own option, at once for its pane. A window gets its session's.
	if p.liveLimit && p.opts.WindowIn == "" {
		thens = append(thens, Command{"set-option", "history-limit", strconv.Itoa(p.opts.HistoryLimit)})
	}
	return thens
}

// newPaneCommands builds the list that makes the pane. It runs no tmux.
func newPaneCommands(p newPanePlan) CommandList {
	create := newPaneCreate(p.opts)
	list := CommandList{create}
	if thens := p.thens(); len(thens) > 0 {
		list = thenCommands(create, p, thens)
	}
	if p.opts.HistoryLimit > 0 && !p.liveLimit {
		// One list: no other client's pane gets the limit, and the server
		// started here cannot exit between two calls.
		list = append(CommandList{{"start-server"},
			{"set-option", "-gF", savedHistoryLimit, "#{history-limit}"},
			{"set-option", "-g", "history-limit", strconv.Itoa(p.opts.HistoryLimit)}}, list...)
		list = append(list, restoreHistoryLimit...)
	}
	return list
}

// checkSessionHistoryLimit refuses a window whose session has another
// history-limit than opts asks, as from featLiveHistoryLimit on a window gets
// its session's. An equal one is fine, as for a task's window.
func (c *Client) checkSessionHistoryLimit(ctx context.Context, opts NewOptions) error {
	sess := "=" + strings.TrimPrefix(opts.WindowIn, "=") + ":"
	// display-message would answer for another session; show-options fails
	have, err := c.Run(ctx, "show-options", "-A", "-v", "-t", sess, "history-limit")
	if err != nil {
		return c.sessionNotFound(opts.WindowIn, err)
	}
	if strings.TrimSpace(have) != strconv.Itoa(opts.HistoryLimit) {
		return fmt.Errorf("%w: %s keeps one history-limit per session and applies it to every pane in it, so a window in session %q cannot have its own (the session's is %s); make a new session for it (no --window-in), or use tmux 3.6 or older", ErrUnsupported, c.version(), opts.WindowIn, strings.TrimSpace(have))
	}
	return nil
}

// targetNewPane chooses how thens name the new pane: a new window gets the
// index tmux would choose, an unnamed new session a temporary name.
func (c *Client) targetNewPane(ctx context.Context, p *newPanePlan) error {
	p.tmpName = ""
	if len(p.thens()) == 0 {
		return nil
	}
	switch {
	case p.opts.WindowIn != "":
		idx, err := c.freeWindowIndex(ctx, "="+strings.TrimPrefix(p.opts.WindowIn, "="))
		if err != nil {
			return err
		}
		p.window = idx
	case p.opts.SessionName == "":
		p.tmpName = "panectl-new-" + Nonce()
	}
	return nil
}

// freeWindowIndex is the first free index from base-index, as tmux chooses.
func (c *Client) freeWindowIndex(ctx context.Context, session string) (int, error) {
	out, err := c.Run(ctx, "list-windows", "-t", session+":", "-F", "#{window_index} #{base-index}")
	if err != nil {
		return 0, err
	}
	used := map[int]bool{}
	base := 0
	for _, row := range strings.Split(strings.TrimSpace(out), "\n") {
		var i, b int
		if _, err := fmt.Sscan(row, &i, &b); err != nil {
			return 0, fmt.Errorf("tmux returned a malformed window row %q", row)
		}
		used[i], base = true, b
	}
	idx := base
	for used[idx] {
		idx++
	}
	return idx, nil
}

// runNewPane runs the list that makes the pane, again after a race. It returns
// tmux's answer and the list last run, or no list when none could be built.
func (c *Client) runNewPane(ctx context.Context, p *newPanePlan) (string, CommandList, error) {
	build := func() (CommandList, error) {
		if err := c.targetNewPane(ctx, p); err != nil {
			return nil, c.sessionNotFound(p.opts.WindowIn, err)
		}
		return newPaneCommands(*p), nil
	}
	list, err := build()
	if err != nil {
		return "", nil, err
	}
	out, err := c.runSerialized(ctx, list...)
	for try := 0; try < 5 && err != nil; try++ {
		if errors.Is(err, ErrNoServer) && strings.Contains(err.Error(), "exited unexpectedly") {
			// the server was exiting: the next connection starts a new one
			time.Sleep(20 * time.Millisecond << try)
		} else if len(p.thens()) > 0 && p.opts.WindowIn != "" && strings.Contains(err.Error(), "in use") {
			// another client took the chosen window index
			if list, err = build(); err != nil {
				return "", nil, err
			}
		} else {
			break
		}
		out, err = c.runSerialized(ctx, list...)
	}
	if err != nil && p.opts.HistoryLimit > 0 && !p.liveLimit {
		_, _ = c.RunList(ctx, nil, restoreHistoryLimit...) // the list stopped at the failed command
	}
	if err != nil && p.tmpName != "" {
		// made, but another session has the name: it keeps the temporary one
		if id, err2 := c.Run(ctx, "display-message", "-p", "-t", "="+p.tmpName+":", "#{pane_id}"); err2 == nil {
			out, err = id, nil
		}
	}
	return out, list, err
}

// finishNewPane turns tmux's answer into the pane or NewPane's error.
func (c *Client) finishNewPane(ctx context.Context, opts NewOptions, hold *exitHold, list CommandList, out string, err error) (PaneInfo, error) {
	var nr *NotRespondingError
	if errors.As(err, &nr) {
		// The list sits in the server's socket: a stopped server runs it on
		// resuming, whatever panectl does now.
		what := "a new session (named by tmux)"
		switch {
		case opts.WindowIn != "":
			what = fmt.Sprintf("a new window in session %q", opts.WindowIn)
		case opts.SessionName != "":
			what = fmt.Sprintf("session %q", opts.SessionName)
		}
		nr.Note = "the request was sent, so the server may still make the pane (" + what + ") when it resumes: look with `panectl list` before trying again"
	}
	if err != nil {
		if opts.WindowIn != "" {
			return PaneInfo{}, c.sessionNotFound(opts.WindowIn, err)
		}
		return PaneInfo{}, err
	}
	id := strings.TrimSpace(out)
	if !paneIDRE().MatchString(id) {
		// tmux 3.3a that cannot make its socket says so and exits 0
		return PaneInfo{}, &Error{Args: append([]string{"-S", c.Server.Socket}, list.argv()...),
			Stderr: fmt.Sprintf("tmux answered without a pane id (%q): no pane was made, or it cannot be named", id)}
	}
	if hold != nil {
		return c.checkStarted(ctx, id, opts.ExitCheck, hold)
	}
	p, err := c.Pane(ctx, id)
	if err != nil && (errors.Is(err, ErrPaneNotFound) || errors.Is(err, ErrNoServer)) {
		return PaneInfo{}, exitedAtOnce(id, "")
	}
	return p, err
}

// thenCommands adds thens to the list that makes the pane. A list cannot name a
// pane it makes, so thens get a target that names it anyway. A new session gets
// a unique temporary name, then its default one (its id number). A new window
// gets the index tmux would choose, keeping its automatic name.
func thenCommands(create Command, p newPanePlan, thens []Command) CommandList {
	create = append(Command{}, create...)
	target := ""
	var after Command
	switch {
	case p.opts.WindowIn != "":
		target = "=" + strings.TrimPrefix(p.opts.WindowIn, "=") + ":" + strconv.Itoa(p.window)
		for i, a := range create {
			if a == "-t" && i+1 < len(create) {
				create[i+1] = target
			}
		}
	case p.opts.SessionName != "":
		target = "=" + p.opts.SessionName + ":"
	default:
		create = append(create[:2:2], append(Command{"-s", p.tmpName}, create[2:]...)...)
		target = "=" + p.tmpName + ":"
		after = Command{"rename-session", "-t", "=" + p.tmpName, "#{s/^[$]//:session_id}"}
	}
	list := CommandList{create}
	for _, t := range thens {
		list = append(list, append(Command{t[0], "-t", target}, t[1:]...))
	}
	if after != nil {
		list = append(list, after)
	}
	return list
}

// exitedAtOnce is the error of a new pane whose command exited at once.
func exitedAtOnce(id, detail string) error {
	if detail == "" {
		detail = " (it closed, and with it what it printed)"
	}
	return fmt.Errorf("%w: pane %s was created but its command exited at once%s", ErrPaneExited, id, detail)
}

// KillPane kills a pane, and the socket lock file if the server exits with it.
func (c *Client) KillPane(ctx context.Context, id string) error {
	_, err := c.runSerialized(ctx, Command{"kill-pane", "-t", id})
	if err == nil {
		if _, serr := os.Lstat(socketlock.Path(c.Server.Socket)); serr == nil {
			if _, derr := c.Run(ctx, "display-message", "-p", "x"); errors.Is(derr, ErrNoServer) {
				socketlock.Remove(c.Server.Socket)
			}
		}
	}
	return c.notFound(id, err)
}

// runSerialized is RunList for commands that notify control clients
// (new-session, new-window, kill-pane, kill-server). On a tmux with the crash
// they run under the socket lock.
func (c *Client) runSerialized(ctx context.Context, cmds ...Command) (string, error) {
	var out string
	err := c.serialized(ctx, func() error {
		var err error
		out, err = c.RunList(ctx, nil, cmds...)
		return err
	})
	return out, err
}

// SendText types text into a pane exactly, with Enter after it if submit. Short
// text without a newline goes as literal keys (send-keys -l). A trailing ";" is
// data like every argument (see Arg). Text with newlines is one bracketed paste
// (load-buffer, paste-buffer -p), so a shell does not run its lines one by one.
// A line too long for one command line (maxCommand), or with a NUL byte, goes
// through a buffer too, pasted without brackets as send-keys -l would type it.
// With a kept control client, the whole list goes through it when every
// argument can be quoted (typingCommand, quoteArg): the text is then set with
// set-buffer, not load-buffer, and no tmux process starts.
func (c *Client) SendText(ctx context.Context, id, text string, submit bool) error {
	return c.SendTextOptions(ctx, id, text, submit, nil, nil)
}

// SendTextOptions is SetPaneOptions then SendText in one list, options first.
// Options too long for one command line go before, in their own process.
func (c *Client) SendTextOptions(ctx context.Context, id, text string, submit bool, set map[string]string, unset []string) error {
	list, err := optionCommands(id, set, unset)
	if err != nil {
		return err
	}
	if list.size() > maxCommand/2 {
		if err := c.runLong(ctx, id, list); err != nil {
			return err
		}
		list = nil
	}
	var stdin []byte
	multiline := strings.Contains(text, "\n")
	switch {
	case multiline || len(text) > maxCommand/2 || strings.ContainsRune(text, 0):
		buf := bufferPrefix + Nonce()
		if _, ok := quoteArg(text); ok && c.keep != nil && len(text) <= maxCommand/2 {
			list.Add("set-buffer", "-b", buf, "--", text) // through the kept client: no tmux process
		} else {
			stdin = []byte(text)
			list.Add("load-buffer", "-b", buf, "-")
		}
		paste := Command{"paste-buffer", "-d", "-b", buf, "-t", id}
		if multiline {
			paste = append(paste, "-p")
		}
		if c.has(featPasteVis) {
			paste = append(paste, "-S") // the bytes as they are, not vis(3)'s
		}
		list = append(list, paste)
	case text != "":
		list.Add("send-keys", "-l", "-t", id, "--", text)
	}
	if submit {
		list.Add("send-keys", "-t", id, "Enter")
	}
	if len(list) == 0 {
		return nil
	}
	_, err = c.RunList(ctx, stdin, list...)
	return c.notFound(id, err)
}

// SendKeys presses named keys, such as Enter or C-c (tmux(1), KEY BINDINGS).
// Callers validate names first, and tmux rejects unknown ones.
func (c *Client) SendKeys(ctx context.Context, id string, keys ...string) error {
	_, err := c.Run(ctx, "send-keys", append([]string{"-t", id}, keys...)...)
	return c.notFound(id, err)
}

// SendBytes sends raw bytes with send-keys -H, in runs the argv can hold.
func (c *Client) SendBytes(ctx context.Context, id string, b []byte) error {
	const run = 16 << 10
	for len(b) > 0 {
		n := min(len(b), run)
		args := []string{"-H", "-t", id}
		for _, x := range b[:n] {
			args = append(args, hex.EncodeToString([]byte{x}))
		}
		if _, err := c.Run(ctx, "send-keys", args...); err != nil {
			return c.notFound(id, err)
		}
		b = b[n:]
	}
	return nil
}

// Nonce is a random token of 16 hex digits, for names that must not collide.
func Nonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

package tmux

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The exit hold of a new pane (NewOptions.ExitCheck) keeps it with
// remain-on-exit while panectl looks whether the command exits at once, so its
// exit status and last output can be read. An empty remain-on-exit-format keeps
// tmux from drawing "Pane is dead" over them. The creating list sets the hold,
// and tmux runs a list to its end before it handles the exit. So a command that
// exits at once leaves a dead pane, and a server started for it keeps running,
// until panectl has read it. Then the pane's own settings come back: a dead
// pane they would have closed is killed, as tmux would have, and such a server
// exits. The undo must not depend on panectl living (SPEC.md section 12), so a
// guard (guard.go) starts before the pane is made. It finds the pane by its
// token in @panectl-new-hold, which panectl removes with its last look when it
// ends the hold itself. A delayed run-shell -b -d DELAY -C would not do: tmux
// 3.3a queues its commands on the "best" attached client of the moment
// (cmd_find_current_client in cmd-run-shell.c), and a client that detaches
// before the delay takes them along. A guard has its own client.

// holdOption is the pane option carrying a hold's token.
const holdOption = "@panectl-new-hold"

// exitHold is one hold: its token and its guard.
type exitHold struct {
	c     *Client
	token string
	guard *Guard
}

// startHold starts a hold's guard. Its client starts the server if there is
// none yet (start-server), so it is there before the pane is made.
func (c *Client) startHold() (*exitHold, error) {
	h := &exitHold{c: c, token: Nonce()}
	g, err := c.guardWith(true, []GuardLine{{"run-shell", "-C", holdUndoScript(h.token, c.has(featRemainOnExitFormat))}})
	if err != nil {
		return nil, fmt.Errorf("cannot guard the new pane's options (panectl would not restore them if killed): %w", err)
	}
	h.guard = g
	return h, nil
}

// commands set the hold in the creating list. thenCommands adds their target.
func (h *exitHold) commands() []Command {
	cmds := []Command{
		{"set-option", "-p", holdOption, h.token},
		{"set-option", "-p", "remain-on-exit", "on"},
	}
	if h.c.has(featRemainOnExitFormat) {
		cmds = append(cmds, Command{"set-option", "-p", "remain-on-exit-format", ""})
	}
	return cmds
}

// release ends the guard, whose script undoes the hold if panectl has not. Its
// wait is a cleanup of ctx's operation (Client.CleanupContext).
func (h *exitHold) release(ctx context.Context) {
	if h != nil {
		ctx, cancel := h.c.CleanupContext(ctx, DefaultCallTimeout)
		defer cancel()
		h.guard.Close(ctx)
	}
}

// endCommands undo the hold on pane id with panectl's last look, so a later
// death closes the pane as its setting says. Unless force, they act only while
// the pane lives or its exit status is known.
func (h *exitHold) endCommands(id string, force bool) []Command {
	undo := []Command{{"set-option", "-p", "-u", "-t", id, "remain-on-exit"}}
	if h.c.has(featRemainOnExitFormat) {
		undo = append(undo, Command{"set-option", "-p", "-u", "-t", id, "remain-on-exit-format"})
	}
	undo = append(undo, Command{"set-option", "-p", "-u", "-t", id, holdOption})
	if force {
		return undo
	}
	// if-shell parses it as a command list: names and a pane id need no quoting
	var list []string
	for _, c := range undo {
		list = append(list, strings.Join(c, " "))
	}
	return []Command{{"if-shell", "-F", "-t", id, "#{||:#{==:#{pane_dead},0},#{!=:#{pane_dead_status}#{pane_dead_signal},}}",
		strings.Join(list, " ; ")}}
}

// holdUndoScript is the guard's run-shell -C argument: a format expanding once,
// when the guard runs, to commands undoing the hold with token on every pane
// (#{S:#{W:#{P:...}}}). They check the token again. As tmux would have, they
// close the dead pane if its own remain-on-exit, maybe the window's or
// server's, is off, or failed after a clean exit. withFormat: the tmux has
// remain-on-exit-format, since a list stops at an unknown option.
func holdUndoScript(token string, withFormat bool) string {
	const id = "\x00ID\x00" // the pane, #{pane_id} once escaped
	held := "#{==:#{" + holdOption + "}," + token + "}"
	closes := "#{&&:#{pane_dead},#{||:#{==:#{remain-on-exit},off},#{&&:#{==:#{remain-on-exit},failed},#{==:#{pane_dead_status},0}}}}"
	format := ""
	if withFormat {
		format = "set-option -p -u -t " + id + " remain-on-exit-format ; "
	}
	undo := "if-shell -F -t " + id + " \"" + held + "\" { " +
		"set-option -p -u -t " + id + " remain-on-exit ; " + format +
		"set-option -p -u -t " + id + " " + holdOption + " ; " +
		"if-shell -F -t " + id + " \"" + closes + "\" { kill-pane -t " + id + " } } ; "
	body := strings.ReplaceAll(formatLiteralText(undo), id, "#{pane_id}")
	return "#{S:#{W:#{P:#{?" + held + "," + body + ",}}}}"
}

// formatLiteralText escapes "#", "," and "}" with "#". So one format expansion
// in a conditional's branch gives s back (tmux(1), FORMATS).
func formatLiteralText(s string) string {
	r := strings.NewReplacer("#", "##", ",", "#,", "}", "#}")
	return r.Replace(s)
}

// checkStarted holds new pane id for d, reporting a command that exited.
func (c *Client) checkStarted(ctx context.Context, id string, d time.Duration, h *exitHold) (PaneInfo, error) {
	start := time.Now()
	gone := func(err error) bool { return errors.Is(err, ErrPaneNotFound) || errors.Is(err, ErrNoServer) }
	for wait := 10 * time.Millisecond; time.Since(start) < d; wait *= 2 {
		select {
		case <-ctx.Done():
			return PaneInfo{}, ctx.Err() // (the guard undoes the hold)
		case <-time.After(min(wait, d-time.Since(start))):
		}
		if p, err := c.Pane(ctx, id); err != nil || p.Dead {
			break
		}
	}
	// The last look and the pane's own settings in one list. A pane whose
	// terminal closed may lack its exit status until tmux reaps it. Undone, the
	// hold would let tmux close it then, so it stays held for another look.
	mark := recordSep + "panectl-" + Nonce() + recordSep
	r := newPaneRow()
	var out string
	var p PaneInfo
	for i := 0; ; i++ {
		var err error
		out, err = c.RunList(ctx, nil, append(h.endCommands(id, i == deadStatusLooks),
			Command{"display-message", "-p", "-t", id, r.Format()},
			Command{"display-message", "-p", "-t", id, mark + "#{remain-on-exit}" + mark},
			Command{"capture-pane", "-p", "-J", "-t", id, "-S", "-" + fmt.Sprint(lastLinesHistory), "-E", "-"})...)
		if gone(err) {
			return PaneInfo{}, exitedAtOnce(id, "")
		}
		if err != nil {
			return PaneInfo{}, err
		}
		if p, out, err = r.Parse(out); err != nil {
			return PaneInfo{}, err
		}
		if !p.Dead || p.DeadKnown || i == deadStatusLooks {
			break
		}
		if i == 0 {
			_ = c.NudgeReap(ctx)
		}
		select {
		case <-ctx.Done():
			return PaneInfo{}, ctx.Err() // (the guard undoes the hold)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if !p.Dead {
		return p, nil
	}
	_, rest, _ := strings.Cut(out, mark)
	keep, text, _ := strings.Cut(rest, mark+"\n")
	status := ""
	switch {
	case p.DeadSignal != 0:
		status = fmt.Sprintf(" (killed by signal %d)", p.DeadSignal)
	case p.DeadKnown:
		status = fmt.Sprintf(" (status %d)", p.DeadStatus)
	}
	if lines := lastLines(c.TrimDeadLine(text), maxLastLines); len(lines) > 0 {
		status += "; its last output:\n  " + strings.Join(lines, "\n  ")
	}
	failed := p.DeadSignal != 0 || p.DeadStatus != 0
	if keep == "on" || (keep == "failed" && failed) {
		return PaneInfo{}, exitedAtOnce(id, status+"\n(the dead pane is kept: its remain-on-exit is "+keep+")")
	}
	_ = c.KillPane(ctx, id) // it would have closed by itself
	return PaneInfo{}, exitedAtOnce(id, status)
}

// HasDeadFormat reports whether the tmux has remain-on-exit-format (3.3 on).
func (c *Client) HasDeadFormat() bool { return c.has(featRemainOnExitFormat) }

// deadLineRE is the line tmux draws into a dead pane that remain-on-exit keeps,
// without remain-on-exit-format (before 3.3; server_destroy_pane in
// server-fn.c). capture-pane -e's escapes may surround it.
var deadLineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\x1b\[[0-9;]*m)*Pane is dead \((?:status -?\d+|signal \w+), [^)]*\)(?:\x1b\[[0-9;]*m)*[ \t]*$`)
})

// TrimDeadLine blanks tmux's "Pane is dead (...)" line, not the command's, at
// the end of a capture of a held dead pane. Only tmux before 3.3 draws it
// whatever panectl sets. Only the last non-blank line is looked at.
func (c *Client) TrimDeadLine(text string) string {
	if c.has(featRemainOnExitFormat) {
		return text
	}
	rows := strings.Split(text, "\n")
	for i := len(rows) - 1; i >= 0; i-- {
		if strings.TrimSpace(rows[i]) == "" {
			continue
		}
		if deadLineRE().MatchString(rows[i]) {
			rows[i] = ""
		}
		break
	}
	return strings.Join(rows, "\n")
}

// deadStatusLooks bounds the looks for a dead pane's status, 20 ms apart.
const deadStatusLooks = 25

// AwaitDeadStatus waits a moment for a dead pane's exit status. The pty can
// close before tmux reaps the process. Its exit status follows within
// moments, or never on a tmux that missed the SIGCHLD (NudgeReap). p is the
// pane as last described; a live pane is returned as it is.
func (c *Client) AwaitDeadStatus(ctx context.Context, p PaneInfo) (PaneInfo, error) {
	var err error
	for i := 0; p.Dead && !p.DeadKnown && i < deadStatusLooks; i++ {
		if i == 0 {
			_ = c.NudgeReap(ctx)
		}
		select {
		case <-ctx.Done():
			return p, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if p, err = c.Pane(ctx, p.ID); err != nil {
			return p, err
		}
	}
	return p, nil
}

// DeadBanner returns the line tmux drew into dead pane p that remain-on-exit
// keeps ("Pane is dead (status 3, ...)", or its remain-on-exit-format), ""
// when it drew none. tmux draws it once the exit status is known
// (p.DeadKnown): it moves to the bottom row, feeds a line, and writes it
// there (server_destroy_pane in server-fn.c). So it is the last row.
func (c *Client) DeadBanner(ctx context.Context, p PaneInfo) (string, error) {
	if !p.Dead || !p.DeadKnown || p.Height < 1 {
		return "", nil
	}
	bottom := strconv.Itoa(p.Height - 1)
	out, err := c.RunList(ctx, nil,
		Command{"capture-pane", "-p", "-t", p.ID, "-S", bottom, "-E", bottom},
		Command{"display-message", "-p", "-t", p.ID, "#{E:remain-on-exit-format}"})
	if err != nil {
		return "", c.notFound(p.ID, err)
	}
	row, format, _ := strings.Cut(out, "\n")
	row = strings.TrimRight(row, " ")
	if !c.has(featRemainOnExitFormat) {
		if !deadLineRE().MatchString(row) {
			return "", nil
		}
		return row, nil
	}
	// The banner is the format as tmux expands it. A row that does not end
	// with it holds output: tmux has not drawn the banner yet.
	banner := strings.TrimRight(strings.TrimSuffix(format, "\n"), " ")
	if banner == "" || !strings.HasSuffix(row, banner) {
		return "", nil
	}
	return banner, nil
}

// An exit-at-once error shows the last maxLastLines non-blank lines, from the
// screen and lastLinesHistory lines of history.
const (
	maxLastLines     = 5
	lastLinesHistory = 50
)

// lastLines returns text's last n non-blank lines, trailing blanks trimmed.
func lastLines(text string, n int) []string {
	var out []string
	rows := strings.Split(text, "\n")
	for i := len(rows) - 1; i >= 0 && len(out) < n; i-- {
		if r := strings.TrimRight(rows[i], " \t"); r != "" {
			out = append(out, r)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// NudgeReap sends SIGCHLD to the server (#{pid}), as tmux 3.6 does itself, so
// it reaps its children and a dead pane's pane_dead_status becomes known. tmux
// with utempter, like Debian's 3.3a, can lose a pane's SIGCHLD to utempter's
// helper (GitHub issue 4559, fixed in 3.6). The pane then stays dead without
// status until another child exits, maybe never. Another user's server (EPERM)
// is left alone.
func (c *Client) NudgeReap(ctx context.Context) error {
	out, err := c.Run(ctx, "display-message", "-p", "#{pid}")
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || pid <= 1 {
		return fmt.Errorf("tmux returned a malformed server pid %q", out)
	}
	return syscall.Kill(pid, syscall.SIGCHLD)
}

// PaneHold keeps a live pane after its process exits (remain-on-exit), so its
// exit status can be read. A guard script (Guard) undoes that when panectl
// closes it or dies, only while the pane carries this hold's token
// (@panectl-hold), never a later change. As the pane's settings would have, it
// kills a pane that died and would have closed, else it restores remain-on-exit
// and remain-on-exit-format. A format waits in @panectl-hold-format, for
// set-option -F to expand once to itself.
type PaneHold struct {
	c     *Client
	guard *Guard // nil: nothing was changed
}

// Pane options of a PaneHold.
const (
	holdToken  = "@panectl-hold"
	holdFormat = "@panectl-hold-format"
)

// HoldExit starts a PaneHold on pane id. Release ends it.
func (c *Client) HoldExit(ctx context.Context, id string) (*PaneHold, error) {
	h := &PaneHold{c: c}
	eff, err := c.EffectiveOption(ctx, id, "remain-on-exit")
	if err != nil {
		return nil, err
	}
	if eff == "on" {
		return h, nil
	}
	prevROE, err := c.PaneOption(ctx, id, "remain-on-exit")
	if err != nil {
		return nil, err
	}
	prevFmt := ""
	if c.has(featRemainOnExitFormat) {
		if prevFmt, err = c.PaneOption(ctx, id, "remain-on-exit-format"); err != nil {
			return nil, err
		}
	}
	token := Nonce()
	// the kill condition: what the pane's own remain-on-exit would have closed.
	// off closes on any death, failed on a clean exit.
	closes := "#{pane_dead}"
	if eff == "failed" {
		closes = "#{&&:#{pane_dead},#{==:#{pane_dead_status},0}}"
	}
	restoreROE := GuardLine{"set-option", "-p", "-u", "-t", id, "remain-on-exit"}
	if prevROE != "" {
		restoreROE = GuardLine{"set-option", "-p", "-t", id, "remain-on-exit", prevROE}
	}
	restoreFmt := GuardLine{"set-option", "-p", "-u", "-t", id, "remain-on-exit-format"}
	if prevFmt != "" {
		restoreFmt = GuardLine{"set-option", "-p", "-F", "-t", id, "remain-on-exit-format", "#{" + holdFormat + "}"}
	}
	lines := []GuardLine{
		{"if-shell", "-F", "-t", id, "#{==:#{" + holdToken + "}," + token + "}", "{"},
		{"if-shell", "-F", "-t", id, closes, "{"},
		{"kill-pane", "-t", id},
		{"}", "{"},
		restoreROE,
	}
	if c.has(featRemainOnExitFormat) {
		// only where the option exists: a failing line skips the block
		lines = append(lines, restoreFmt)
	}
	lines = append(lines,
		GuardLine{"set-option", "-p", "-u", "-t", id, holdFormat},
		GuardLine{"set-option", "-p", "-u", "-t", id, holdToken},
		GuardLine{"}"},
		GuardLine{"}"})
	guard, err := c.Guard(lines)
	if err != nil {
		return nil, fmt.Errorf("cannot guard the pane's options (panectl would not restore them if killed): %w", err)
	}
	h.guard = guard
	set := CommandList{
		{"set-option", "-p", "-t", id, holdToken, token},
		{"set-option", "-p", "-t", id, "remain-on-exit", "on"},
	}
	if prevFmt != "" {
		set = append(set, Command{"set-option", "-p", "-t", id, holdFormat, prevFmt})
	}
	if c.has(featRemainOnExitFormat) {
		set = append(set, Command{"set-option", "-p", "-t", id, "remain-on-exit-format", ""})
	}
	if _, err := c.RunList(ctx, nil, set...); err != nil {
		h.Release(ctx)
		return nil, err
	}
	return h, nil
}

// Release runs the guard's script now: a dead pane that would have closed is
// killed, else its own values come back. The guard's wait is a cleanup of the
// watch's ctx (Client.CleanupContext).
func (h *PaneHold) Release(ctx context.Context) {
	if h != nil && h.guard != nil {
		ctx, cancel := h.c.CleanupContext(ctx, DefaultCallTimeout)
		defer cancel()
		h.guard.Close(ctx)
	}
}

package tmux

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The exit hold of a new pane (NewOptions.ExitCheck): while panectl looks
// whether the new pane's command exits at once, the pane is held with
// remain-on-exit (and an empty remain-on-exit-format, so tmux draws no
// "Pane is dead" line over what the command printed), so its exit status
// and its last output can be read, and then given back its own settings.
//
// The hold is set in the tmux command list that makes the pane: nothing the
// command does can come before it (tmux runs a command list to its end
// before it handles the command's exit), so a command that exits at once
// leaves a dead pane, and a server started for it keeps running, until
// panectl has read them.
//
// Undoing the hold must not depend on panectl living (SPEC.md section 12):
// before the pane is made, panectl starts a guard (guard.go: a tmux client
// whose script runs when panectl's pipe to it closes, SIGKILL included)
// whose script finds the held pane by the hold's token (the pane option
// @panectl-new-hold, set in the creating list) and undoes the hold as the
// pane's own settings would have it: the options are unset, and a pane that
// died and that its own remain-on-exit would have closed is killed. The
// guard is started first, so there is no moment at which the pane is held
// and nothing would undo it. When panectl ends the hold itself (the normal
// case), it removes the token in the same list as its last look, and the
// guard's script finds nothing to do.
//
// Why not a delayed command in the server (run-shell -b -d DELAY -C ...):
// tmux 3.3a queues a background run-shell's commands on the "best" attached
// client of the moment (cmd-run-shell.c, cmd_find_current_client), and a
// client that detaches before the delay takes the commands with it, so the
// undo could be lost; a guard runs its script on its own client.

// holdOption is the pane option carrying a hold's token.
const holdOption = "@panectl-new-hold"

// exitHold is one hold: its token and its guard.
type exitHold struct {
	c     *Client
	token string
	guard *Guard
}

// startHold starts the guard of a hold. The guard client starts the server
// when there is none yet (start-server), so it is there before the pane
// is made.
func (c *Client) startHold() (*exitHold, error) {
	h := &exitHold{c: c, token: Nonce()}
	g, err := c.guardWith(true, []GuardLine{{"run-shell", "-C", holdUndoScript(h.token, c.has(featRemainOnExitFormat))}})
	if err != nil {
		return nil, fmt.Errorf("cannot guard the new pane's options (panectl would not restore them if killed): %w", err)
	}
	h.guard = g
	return h, nil
}

// commands are the commands (without -t: thenCommands adds the new pane's
// target) that set the hold in the creating list.
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

// release ends the guard: its script undoes the hold if panectl has not.
// ctx is the operation's (the wait is a cleanup: Client.CleanupContext).
func (h *exitHold) release(ctx context.Context) {
	if h != nil {
		ctx, cancel := h.c.CleanupContext(ctx, DefaultCallTimeout)
		defer cancel()
		h.guard.Close(ctx)
	}
}

// endCommands undo the hold on pane id, in one list with panectl's last
// look, so a death after it closes the pane as its own setting says;
// unless force, only while the pane is alive or its exit status is known.
func (h *exitHold) endCommands(id string, force bool) []Command {
	undo := []Command{{"set-option", "-p", "-u", "-t", id, "remain-on-exit"}}
	if h.c.has(featRemainOnExitFormat) {
		undo = append(undo, Command{"set-option", "-p", "-u", "-t", id, "remain-on-exit-format"})
	}
	undo = append(undo, Command{"set-option", "-p", "-u", "-t", id, holdOption})
	if force {
		return undo
	}
	// if-shell parses its command argument as a command list; its words
	// are option names and a pane id, which need no quoting
	var list []string
	for _, c := range undo {
		list = append(list, strings.Join(c, " "))
	}
	return []Command{{"if-shell", "-F", "-t", id, "#{||:#{==:#{pane_dead},0},#{!=:#{pane_dead_status}#{pane_dead_signal},}}",
		strings.Join(list, " ; ")}}
}

// holdUndoScript is the guard's run-shell -C argument: a format that
// expands (once, when the guard runs it) to the commands undoing the hold
// with token on every pane that carries it (#{S:#{W:#{P:...}}} visits every
// pane of the server). The commands check the token again when they run,
// and decide whether the dead pane closes after remain-on-exit is unset
// (its own value, inherited from the window or the server), as tmux would
// have when it died: off closes it, failed closes it after a clean exit.
// withFormat: the tmux has remain-on-exit-format (featRemainOnExitFormat;
// a command list stops at an unknown option).
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

// formatLiteralText escapes s so that one format expansion inside a
// conditional's branch gives s back: "#", "," and "}" are escaped with "#"
// (tmux(1), FORMATS).
func formatLiteralText(s string) string {
	r := strings.NewReplacer("#", "##", ",", "#,", "}", "#}")
	return r.Replace(s)
}

// checkStarted holds the new pane id for d (the hold was set when it was
// made) and reports a command that exited meanwhile (see NewPane).
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
	// The last look and the pane's own settings back, in one list: a death
	// after it closes the pane as the pane's own setting says. A pane whose
	// terminal closed but whose process tmux has not reaped yet (no exit
	// status: it comes moments later, and with the hold undone tmux would
	// close the pane then) stays held, and is looked at again.
	mark := recordSep + "panectl-" + Nonce() + recordSep
	var out string
	var p PaneInfo
	for i := 0; ; i++ {
		var err error
		out, err = c.RunList(ctx, nil, append(h.endCommands(id, i == deadStatusLooks),
			Command{"display-message", "-p", "-t", id, paneFormat},
			Command{"display-message", "-p", "-t", id, mark + "#{remain-on-exit}" + mark},
			Command{"capture-pane", "-p", "-J", "-t", id, "-S", "-" + fmt.Sprint(lastLinesHistory), "-E", "-"})...)
		if gone(err) {
			return PaneInfo{}, exitedAtOnce(id, "")
		}
		if err != nil {
			return PaneInfo{}, err
		}
		if p, err = parsePane(strings.SplitN(out, "\n", 2)[0]); err != nil {
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

// HasDeadFormat reports whether the client's tmux has the pane option
// remain-on-exit-format (3.3 and later: featRemainOnExitFormat).
func (c *Client) HasDeadFormat() bool { return c.has(featRemainOnExitFormat) }

// deadLineRE is the line tmux draws into a dead pane that remain-on-exit
// keeps, when it has no remain-on-exit-format (server-fn.c,
// server_destroy_pane, before 3.3), with or without capture-pane -e's
// escapes around it.
var deadLineRE = regexp.MustCompile(`^(?:\x1b\[[0-9;]*m)*Pane is dead \((?:status -?\d+|signal \w+), [^)]*\)(?:\x1b\[[0-9;]*m)*[ \t]*$`)

// TrimDeadLine blanks tmux's "Pane is dead (...)" line at the end of a
// capture of a dead pane that panectl holds, on a tmux that draws it
// whatever panectl sets (no remain-on-exit-format, before 3.3): it is
// tmux's, not the command's. Only the last line that is not blank is
// looked at; on a newer tmux text comes back as it is.
func (c *Client) TrimDeadLine(text string) string {
	if c.has(featRemainOnExitFormat) {
		return text
	}
	rows := strings.Split(text, "\n")
	for i := len(rows) - 1; i >= 0; i-- {
		if strings.TrimSpace(rows[i]) == "" {
			continue
		}
		if deadLineRE.MatchString(rows[i]) {
			rows[i] = ""
		}
		break
	}
	return strings.Join(rows, "\n")
}

// deadStatusLooks bounds the looks for a dead pane's exit status (20 ms
// apart).
const deadStatusLooks = 25

// What an exit-at-once error shows of the command's output: its last
// maxLastLines non-blank lines, looked for in the visible screen and
// lastLinesHistory lines of history.
const (
	maxLastLines     = 5
	lastLinesHistory = 50
)

// lastLines returns the last n lines of text that are not blank, trailing
// blanks trimmed.
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

// NudgeReap makes the server reap its exited children now, so a dead
// pane's exit status (pane_dead_status) becomes known: it sends SIGCHLD
// to the server process (#{pid}), as tmux 3.6 does to itself. tmux built
// with utempter (Debian's 3.3a is) can miss the SIGCHLD of a pane whose
// process exited, because utempter's helper process takes it (tmux GitHub
// issue 4559, fixed in tmux 3.6); the pane then stays dead with no status
// until some other child of the server exits, which may be never. A server
// that is not this user's (EPERM) is left alone.
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

// PaneHold keeps a live pane after its process exits, so the exit status can
// be read (remain-on-exit), and undoes that afterwards, even when panectl
// is killed (SIGKILL included): the undoing is a tmux guard script
// (Guard) that runs when panectl closes it or dies. The script acts
// only while the pane still carries this hold's token (@panectl-hold), so
// it never undoes a later change. It does what the pane's own settings
// would have done: a pane that died and would have closed is killed;
// otherwise remain-on-exit and remain-on-exit-format get their own values
// back (a format is kept in @panectl-hold-format meanwhile and put back
// with set-option -F, which expands it once, to the text itself).
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
	// the kill condition: what the pane's own remain-on-exit would have
	// closed (off: any death; failed: a clean exit)
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
		// only where the option exists: a failing line skips the block's rest
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

// Release undoes HoldExit now (the guard's script runs): a pane that died
// and would not have remained by its own setting is killed; otherwise its
// own values are put back. ctx is the watch's: the wait for the guard is
// a cleanup (Client.CleanupContext).
func (h *PaneHold) Release(ctx context.Context) {
	if h != nil && h.guard != nil {
		ctx, cancel := h.c.CleanupContext(ctx, DefaultCallTimeout)
		defer cancel()
		h.guard.Close(ctx)
	}
}

package tmux

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/panectl/panectl/tmux/imsg"
)

// MinVersion is the oldest tmux panectl supports. From 3.2 on, the control-mode
// flags ignore-size and read-only and capture-pane -J behave as needed.
const MinVersion = "3.2"

// feature is a change in tmux that panectl depends on or works around.
type feature int

const (
	// remain-on-exit-format, and pane_dead_signal with a status for a pane
	// killed by a signal. Before it, a held dead pane shows tmux's "Pane is
	// dead (...)" line. A signalled pane then has no exit status at all.
	featRemainOnExitFormat feature = iota
	// new-session -d honours -x and -y. Before, a detached session is 80x23
	// whatever they say (measured on 3.2a), and resize-window sizes it.
	featDetachedSize
	// command output through vis(3): display-message -p, list-panes -F and
	// show-options print control characters as "\ooo" until featNoOutputVis.
	// panectl's separators are printable UTF-8, which vis copies (sep). A
	// pane row's free text is decoded back (panerow.go).
	featOutputVis
	featNoOutputVis
	// a tab written over blank cells is a tab cell, which capture-pane prints
	// as "\t". Before, it is a cursor move over blank cells.
	featTabCells
	// capture-pane -J joins a wrapped row up to its used cells. Before, up to
	// the width, so a row wrapped early before a wide character gives a blank.
	featCaptureUsed
	// the imsg header with a u32 length (package imsg).
	featNewImsgHeader
	// a half-identified control client no longer crashes the server, and a
	// read-only one breaks send-keys. So panectl attaches with plain `tmux -C`.
	featControlFixed
	// setting history-limit trims every existing pane under it, so the global
	// option cannot be set around one new pane. The session's option set after
	// new-session gives it its limit.
	featLiveHistoryLimit
	// paste-buffer passes the buffer through vis(3) unless -S.
	featPasteVis
	// a dead pane's pane_pid is empty. panectl takes a pid of 0 for the
	// process that died, not a respawn (pane.Cursor.Check).
	featDeadPIDEmpty
)

// features says, for each feature, the first release that has it and the tmux
// change it rests on. what is what a user sees (panectl help tmux-versions).
var features = [...]struct {
	maj, min     int
	source, what string
}{
	featRemainOnExitFormat: {3, 3, "a3d920930 Add remain-on-exit-format (CHANGES 3.3); pane_dead_signal in the same commit",
		"before it, a pane killed by a signal has no exit status (watch: exitStatus {}), and tmux's \"Pane is dead\" line, which panectl leaves out of what it reports, is drawn into a pane that new or watch holds"},
	featDetachedSize: {3, 3, "measured: 3.2a gives 80x23 for new-session -d -x 100 -y 30, 3.3a 100x30",
		"before it, new --size sets the size with resize-window (the window's window-size becomes manual)"},
	featOutputVis: {3, 4, "7e497c7f2 server_client_print passes output through utf8_stravisx",
		"from it to 3.5, control characters and invalid UTF-8 in titles, paths and commands arrive as \\ooo escapes"},
	featNoOutputVis: {3, 6, "5fd45b389 Do not strvis output to terminal from commands", ""},
	featCaptureUsed: {3, 3, "ded695504 Capture up to used size not available size for each line", ""},
	featTabCells: {3, 6, "fdbc6cdea tabs are kept as tab cells",
		"from it, a tab a program prints over blank cells is a tab on the screen (a pattern's tab matches it); before, it is the spaces it moved over"},
	featNewImsgHeader: {3, 6, "imsg.h from OpenBSD 7.5: u32 len, IMSG_FD_MARK", ""},
	featControlFixed: {3, 7, "e5a2a25 (PR #4980) and 31c93c4 (PR #5004); read-only send-keys: 49bb43047",
		"before it, panectl attaches its control clients with a client of its own, since tmux -C can crash those servers"},
	featLiveHistoryLimit: {3, 7, "195a9cfd8 When history-limit is changed, apply to existing panes (CHANGES 3.7)",
		"from it, new --history-limit is the new session's option (its later windows get it too), and new --window-in --history-limit is refused (exit 1): one limit applies to every pane of a session"},
	featPasteVis: {3, 7, "5b3c64219 Pass paste buffer through vis(3) when pasting; -S disables",
		"from it, panectl pastes with -S, so text arrives byte for byte as on older versions"},
	featDeadPIDEmpty: {3, 8, "e03a937c7 format_cb_pane_pid returns nothing once the pane's fd is closed (next-3.8)", ""},
}

// VersionNotes are the differences between tmux versions that a user can
// see, a line each, oldest version first.
func VersionNotes() []string {
	var out []string
	for _, f := range features {
		if f.what != "" {
			out = append(out, fmt.Sprintf("tmux %d.%d: %s.", f.maj, f.min, f.what))
		}
	}
	return out
}

var (
	// releaseRE matches a release ("tmux 3.3a"), not a build of a branch.
	releaseRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^tmux (\d+)\.(\d+)[a-z]?$`) })
	// numberRE finds the number of a release, or of a build that names the
	// release it leads to ("tmux next-3.8", "tmux 3.6-rc").
	numberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^tmux (?:next-)?(\d+)\.(\d+)`) })
)

// versionNumber is the major and minor number of `tmux -V` output ("tmux 3.3a",
// "tmux next-3.8", "tmux 3.6-rc"). ok is false for builds that name none ("tmux
// master", "tmux openbsd-7.5").
func versionNumber(v string) (maj, minr int, ok bool) {
	m := numberRE().FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return 0, 0, false
	}
	maj, _ = strconv.Atoi(m[1])
	minr, _ = strconv.Atoi(m[2])
	return maj, minr, true
}

// atLeast reports whether version v is maj.min or newer. A build that names no
// number counts as newer than every release.
func atLeast(v string, maj, min int) bool {
	vmaj, vmin, ok := versionNumber(v)
	return !ok || vmaj > maj || (vmaj == maj && vmin >= min)
}

// has reports whether tmux version v (`tmux -V` output) has feature f.
func has(v string, f feature) bool {
	return atLeast(v, features[f].maj, features[f].min)
}

// VersionAtLeast compares "tmux 3.3a" (tmux -V output) with "3.2". Builds that
// print no number ("tmux master") count as new enough.
func VersionAtLeast(v, min string) bool {
	maj, minr, _ := versionNumber("tmux " + min)
	return atLeast(v, maj, minr)
}

// has reports whether the client's tmux has feature f.
func (c *Client) has(f feature) bool { return has(c.version(), f) }

// modeFor maps `tmux -V` output to an attach mode. A version with the fix gets
// `tmux -C`, a release from 3.2 to 3.6 ("tmux 3.3a") panectl's own client.
// Anything else ("tmux master", "tmux next-3.6", "tmux openbsd-7.5", "tmux
// 3.6-rc") has an unknown header layout and gets `tmux -C` under the lock.
func modeFor(v string) attachMode {
	_, _, ok := versionNumber(v)
	switch {
	case ok && has(v, featControlFixed):
		return attachPlain
	case releaseRE().MatchString(strings.TrimSpace(v)) && VersionAtLeast(v, MinVersion):
		return attachProto
	}
	return attachLocked
}

// readOnlyFlag reports whether panectl's control client attaches read-only
// (-r): only where the version is known to lack featControlFixed. In control
// mode the flag protects nothing, as tmux checks it for keys only. From 3.7 on
// it harms: send-keys refuses a read-only target client ("client is
// read-only"). A send-keys from outside tmux, a script's or panectl's typing,
// targets the most recently active client of the most recently active session,
// often panectl's (tmux commit 49bb43047).
func readOnlyFlag(v string) bool {
	_, _, ok := versionNumber(v)
	return ok && !has(v, featControlFixed)
}

// layoutFor is the imsg header layout of a tmux version.
func layoutFor(v string) imsg.Layout {
	if _, _, ok := versionNumber(v); ok && has(v, featNewImsgHeader) {
		return imsg.LayoutNew
	}
	return imsg.LayoutOld
}

// Tabs says how the server's tmux stores a tab over blank cells: a tab cell
// that capture-pane prints as "\t" (cells, featTabCells), or a cursor move.
// known is false for a build that names no version.
func (c *Client) Tabs() (cells, known bool) {
	_, _, ok := versionNumber(c.version())
	return ok && c.has(featTabCells), ok
}

// JoinsWholeWidth reports whether capture-pane -J joins a wrapped row up to the
// pane's width, not its used cells (before 3.3, featCaptureUsed).
func (c *Client) JoinsWholeWidth() bool { return !c.has(featCaptureUsed) }

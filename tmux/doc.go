// Package tmux is the only part of panectl that runs tmux. It resolves which
// server to talk to (-L, -S, $TMUX, $TMUX_TMPDIR; tmux(1) OPTIONS), checks the
// tmux version once, runs commands with an argument vector (never a shell),
// and turns failures into typed errors that keep tmux's own message:
// *Error{Args, ExitCode, Stderr} unwrapping to ErrNoServer, ErrPaneNotFound,
// and the start-up errors ErrNotInstalled and ErrTooOld.
//
// Listings and pane descriptions use formats whose fields are separated by
// U+241F (panes.go: sep), free text last; a malformed row is an error.
// Every tmux client runs with -u, so any locale reads them whole. What
// differs between tmux versions is in one table (versions.go).
//
// gotmux (github.com/GianlucaP106/gotmux v0.5.0) was evaluated for the typed
// models and listings, and is not used: it discards tmux's stderr, replaces
// failures with generic messages ("failed to list all panes"), panics on a
// malformed row, and cannot pass -S to every call. panectl's own runner keeps
// all three promises of STYLE.md (typed error, tmux's message, no silent
// empty list) at the same cost.
//
// # The control client and the half-identified client crash
//
// tmux 3.3a to 3.6b segfault when a control-mode client is half identified
// (research: /work/shared/research/tmux-crash/REPORT.md). `tmux -C` sends
// its identify messages in several writes (MSG_IDENTIFY_STDIN and
// MSG_IDENTIFY_STDOUT carry file descriptors, and a read of the socket stops
// after one), so the server handles them over several turns of its event
// loop. After MSG_IDENTIFY_FLAGS the client has CLIENT_CONTROL; only
// MSG_IDENTIFY_DONE creates its control state. A notification in between
// (another client detaching; a session created, closed or renamed; the
// current window or active pane changing; a pane mode changing) reaches
// control_write with no state and the server dies with every session on it;
// a client that disconnects in between crashes it in control_stop. Fixed
// upstream in tmux 3.7 only: commit e5a2a25 (GitHub PR #4980, "Do not
// notify clients if not fully initialized") and commit 31c93c4 (PR #5004,
// control_stop with no state). 3.3a (Debian 12) through 3.6b crash; a
// handful of concurrent waits was enough.
//
// So Control attaches in one of three ways (attachMode), chosen from
// `tmux -V`:
//
//   - tmux 3.2 to 3.6 (a release number): panectl's own client
//     (package imsg, through controlproto.go). It connects to the socket, sends
//     MSG_IDENTIFY_STDIN and MSG_IDENTIFY_STDOUT with two pipes of its own,
//     then FLAGS, LONGFLAGS, TERM, FEATURES, TTYNAME, CWD, CLIENTPID, DONE
//     and MSG_COMMAND attach-session in ONE write: the server reads and
//     handles them in one turn, and the half-identified state never
//     exists, whatever else happens on the server. The pipes then carry
//     the same control stream as `tmux -C`; detaching closes the command
//     pipe and answers MSG_EXIT (MSG_DETACH, MSG_SHUTDOWN) with
//     MSG_EXITING. The imsg header changed in tmux 3.6 (u16 len + u16
//     flags before, u32 len with a high "fd" bit from 3.6); the protocol
//     version is 8 throughout. The messages are those tmux's own client
//     sends, byte for byte (tmux/imsg holds captures of 3.3a and 3.6b),
//     minus MSG_IDENTIFY_ENVIRON (attach-session -E does not use it). It is
//     only used when the server runs the binary whose version was read
//     (Linux: SO_PEERCRED and /proc/PID/exe).
//   - tmux 3.7 and later: `tmux -C`, as before.
//   - Anything else, or a server that refuses panectl's client (MSG_VERSION,
//     a dropped connection, another binary): `tmux -C` under a per-socket
//     lock (socketlock.go: flock on SOCKET.panectl.lock) held from starting
//     the client until its first line, from closing its stdin until it is
//     reaped, and around panectl's own commands that notify control clients
//     (new-session, new-window, kill-pane, kill-server: runSerialized).
//     That stops panectl from crashing the server itself; it cannot stop
//     another program's notifications landing in one of panectl's identify
//     windows (measured: a third party switching windows every 0.2 s still
//     crashed 7 of 15 trials).
//
// The lock file exists only where the lock is needed. A `tmux -C` attach
// under the lock makes it. panectl's notifying commands take the lock on a
// tmux without a release number always (every attach there is such a
// `tmux -C`), on 3.2 to 3.6 only when the file exists (a server that
// refused panectl's own client had a fallback attach), and on 3.7 and
// later never; so on 3.2 to 3.6, where panectl's own client attaches, no
// file is ever made. kill-server (KillServer), and a kill-pane after which
// the server is gone, remove it. The race this leaves on 3.2 to 3.6: a
// command that looked for the file just before the first fallback attach on
// a server made it runs unlocked and may land in that attach's identify
// window; every later command sees the file. It needs a server run from
// another tmux binary than panectl's, and a panectl command in the few
// milliseconds of that server's first fallback attach.
//
// Both kinds of client honour the attach timeout and the caller's context
// in every step, and leave nothing attached when panectl dies: the kernel
// closes panectl's own client's socket (its identify was already complete),
// and kills a `tmux -C` process (Pdeathsig).
//
// One crash remains in 3.7c: kill-server while a control client is half
// identified segfaults in control_discard. panectl's own kill-server runs
// under the lock below 3.7 only; on 3.7 a half-identified `tmux -C` only
// turns a server shutdown into a crash.
//
// # Clients kept between calls, and what tmux's control mode forbids
//
// A long-lived panectl process (the MCP server, watch, tasks --follow)
// keeps one control client per session attached between calls
// (control_keep.go), shared by every wait on that session through
// subscriptions (control_sub.go), and detached after DefaultKeepIdle (15
// s) with no use, when its session or server goes, and before the
// process exits. Read-only commands of such a process (pane lookups,
// captures, option reads) go through a kept client when one is attached,
// so they start no tmux process. Two tmux defects shape how:
//
//   - Output of panes nobody waits on is paused (refresh-client -A
//     %N:pause) and continued for the next wait, never switched off and on
//     (%N:off, %N:on): tmux 3.2 to 3.6 keep output already queued for the
//     client when a pane is switched off, drain the pane's buffer past it,
//     and later write it from freed memory: a segfault in
//     control_append_data, within a few toggles of a busy pane (tmux
//     GitHub issue 5054, fixed in 3.7 by cae229cad). A pause drops the
//     queued output. TestKeptClientTogglesBusyPaneSafely pins it.
//   - From tmux 3.7 on the client attaches without the read-only flag:
//     3.7's send-keys refuses to run when its target client is read-only,
//     and a send-keys from outside tmux (a script's, panectl's own typing)
//     targets the most recently active client of the most recently active
//     session, often panectl's (tmux commit 49bb43047). The flag never
//     restricted control-mode commands anyway; panectl sends its clients
//     only commands that read (Control.Command refuses others).
//     TestControlLeavesTypingAlone pins it on 3.7c.
//
// A third one is not reachable from panectl: respawn-pane leaves control
// clients' offsets into the pane's old buffer (fixed after 3.7c, commit
// 4714f478f); panectl respawns only the fresh, silent placeholder of a
// background task, which has no output queued for anyone.
//
// `tmux -V` runs once per binary: its answer is cached under
// $XDG_CACHE_HOME/panectl/tmux-version, keyed by the binary's path and file
// identity (version_cache.go).
//
// Removing the workaround, once every supported tmux is 3.7 or later: raise
// MinVersion to "3.7", delete controlproto.go, the imsg package,
// socketlock.go and
// runSerialized (call Run again), make Control always use controlExec
// without the lock, drop attachMode/modeFor/layoutFor and sameServerBinary,
// and keep the stress test (stress_test.go) as a regression test.
package tmux

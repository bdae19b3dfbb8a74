// Package tmux is the only part of panectl that runs tmux.
//
// It resolves the server from -L, -S, $TMUX and $TMUX_TMPDIR, as tmux(1)
// OPTIONS does. It checks the tmux version once per binary and caches the
// answer (version_cache.go). What differs between versions is in one table
// (versions.go).
//
// It runs commands with an argument vector, never through a shell, and every
// client with -u, so any locale reads the output whole. A failure becomes a
// typed error that keeps tmux's own message. *Error{Args, ExitCode, Stderr}
// unwraps to ErrNoServer or ErrPaneNotFound. Start-up fails with
// ErrNotInstalled or ErrTooOld. Listings and pane descriptions separate fields
// with U+241F (sep). Free text comes by its length, framed by separators with
// a nonce, so no name, path or argv[0] forges a field or a row (package tmux/panerow). A
// malformed row is that pane's error, never a silent empty list.
//
// Control attaches a control-mode client without crashing tmux 3.3a to 3.6b,
// which segfault when a control client is half identified. On tmux 3.2 to 3.6
// panectl attaches its own client (package tmux/imsg), which identifies in one
// write. tmux 3.7 and later get `tmux -C`. Any other version, or a server that
// refuses panectl's client, gets `tmux -C` under a per-socket lock
// (package tmux/socketlock; when: socketlock.go).
//
// A long-lived process keeps one control client per session between calls
// (control_keep.go), shared by the session's waits (control_sub.go). Read-only
// commands go through it, so they start no tmux process.
//
// docs/architecture.md tells the rest: why gotmux is not used, the crash and
// its upstream fixes, the three ways to attach, the lock file, two defects of
// tmux's control mode, and the plan to remove the workaround once every
// supported tmux is 3.7 or later.
package tmux

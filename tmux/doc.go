// Package tmux is the only part of panectl that runs tmux. It resolves which
// server to talk to (-L, -S, $TMUX, $TMUX_TMPDIR; tmux(1) OPTIONS), checks the
// tmux version once, runs commands with an argument vector (never a shell),
// and turns failures into typed errors that keep tmux's own message:
// *Error{Args, ExitCode, Stderr} unwrapping to ErrNoServer, ErrPaneNotFound,
// and the start-up errors ErrNotInstalled and ErrTooOld.
//
// Listings and pane descriptions use formats whose fields are separated by
// the ASCII unit separator, free text last; a malformed row is an error.
//
// gotmux (github.com/GianlucaP106/gotmux v0.5.0) was evaluated for the typed
// models and listings, and is not used: it discards tmux's stderr, replaces
// failures with generic messages ("failed to list all panes"), panics on a
// malformed row, and cannot pass -S to every call. panectl's own runner keeps
// all three promises of STYLE.md (typed error, tmux's message, no silent
// empty list) at the same cost.
package tmux

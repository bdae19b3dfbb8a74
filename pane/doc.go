// Package pane holds a tmux pane as data. It reads a pane's rows and
// history in one snapshot. It joins them into logical lines. It keeps
// cursors, points in the pane's output that survive scrolling, trimmed
// history and redraws. It follows the output stream of a control client.
// It keeps the echo ledger of what panectl typed. That way a wait is not
// fooled by its own echo. It types text with the ledger in the same tmux
// command. It marks the screen each key was sent to (KeyMark), so a
// wait knows a dialog's frame from before the key. It keeps per-pane
// state in tmux user options. The action lock
// (pane/lock) and the server's state directory (pane/statedir) are
// packages of their own.
//
// It runs tmux only through the tmux package. The jobs around a pane live
// in packages of their own. acp holds ACP wire types, and journal holds
// output journals on disk. proc covers what runs in the terminal. shell
// holds shell families and command wrapping. task holds background tasks.
package pane

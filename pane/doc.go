// Package pane holds a tmux pane as data. It reads a pane's rows and
// history in one snapshot, joins them into logical lines, and keeps
// cursors: a point in the pane's output that survives scrolling, trimmed
// history and redraws. It follows the output stream of a control client,
// keeps the echo ledger of what panectl typed (so a wait is not fooled by
// its own echo), and types text with the ledger in the same tmux command.
// It keeps per-pane state in tmux user options and the action lock.
//
// It runs tmux only through the tmux package. The jobs around a pane live
// in packages of their own: acp (ACP wire types), journal (output journals
// on disk), proc (what runs in the terminal), shell (shell families and
// command wrapping) and task (background tasks).
package pane

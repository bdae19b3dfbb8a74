// Package journal keeps byte-exact output journals on disk: the segments,
// their logical lines, previews, compression and token counts. It also
// ties a journal to its pane: it opens a pane's pipe into it, finds it
// through the pane's option, and reads a pane's output from it (ReadPane).
//
// A journal keeps everything a program wrote to its terminal,
// byte for byte, in a private state directory (statedir.Dir), bounded to the
// newest MaxBytes with exact accounting of what was dropped.
// Completion frames, `task output`, and capture and status on journaled
// panes (journal.ReadPane) read it, so they do not depend on history-limit. Two
// writers fill journals, chosen after measuring both:
//
//   - background tasks: the supervisor (task.Supervise) owns a
//     pseudo-terminal for the command and copies its output to the journal
//     and the pane. It sees every byte from the first, knows when the output
//     is complete (the frame is exact) and owns the command's process group
//     (kill stops it). Measured cost: about 25 ms more from start to the end
//     of `true`, no visible change in throughput (tmux's drawing dominates).
//   - journaled panes (new --journal): tmux pipe-pane, opened in the same
//     command list that makes the pane, so tmux has not read one byte of the
//     pane before the pipe exists (opened by a separate tmux process, the
//     pipe lost the first line in 20 of 20 tries). The program keeps the
//     pane's terminal, so the foreground command and directory tmux reports
//     stay its own (run and the recognizers work as on any pane); a proxy
//     terminal would hide them behind the supervisor.
package journal

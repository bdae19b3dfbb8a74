// Package waiter holds every wait of panectl (SPEC.md sections 5-8, 10, 11, 13). It waits for text
// (WaitForText, with Matcher), quiescence (WaitQuiet), a turn's end (WaitForTurn, with package
// recognize) and tasks (WaitTask, WaitAnyTask, FollowTasks, KillTask). Several runs one wait per
// pane at once, until the first decides or each has. Package waiter/terminal
// streams a pane as ACP terminal updates. It also runs the three actions that are mostly waiting: a shell
// command (Ready, Run), send-text --submit (Send, which does all typing) and answering a dialog
// (Answer). The text, quiet, turn
// and run waits pace their looks with one pacer (loop.go). The task supervisor, kill-pane and prune
// live in package pane/task, the remain-on-exit hold in package tmux (Client.HoldExit). Nothing
// here starts tmux processes: package tmux does.
//
// The waits on a pane are event-driven. Watch subscribes through a control-mode client and reports
// output, death, a replaced process, and a server gone or silent (replaced.go, Watch). A capture
// through that client confirms what the screen shows. WaitForText decides on the output stream
// itself, and captures only where the stream cannot say. Without a control client a wait polls at
// an adaptive interval, and its note says "polling: ...". WaitTask waits on the task's tmux
// wait-for channel, which its supervisor signals once it recorded the end. It also reads the record
// once a second. FollowTasks does the same on the channel every supervisor signals
// (task.TasksChannel).
//
// Every wait ends with a schema.Outcome, never later than its timeout plus a small margin. The pane
// dying or its process replaced, the server going away or ctx cancelled end it at once. Package cmd
// maps outcomes to exit codes. WithProgress reports the progress of long waits.
package waiter

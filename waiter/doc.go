// Package waiter holds every wait of panectl (SPEC.md sections 5-8, 10, 11): text (WaitForText,
// with Matcher), quiescence (WaitQuiet), turn state (WaitForTurn, with package recognize), shell
// commands (Ready, Run), background tasks (WaitTask, KillTask, FollowTasks) and the ACP terminal
// stream (WatchTerminal). The task supervisor, kill-pane and prune live in package task.
//
// The waits on a pane (text, quiet, turn, run, watch) are event-driven: Watch subscribes to the
// pane through a tmux control-mode client (tmux.Client.Subscribe: a client of the wait's own,
// attached for it and detached before it returns, or, in a long-lived process, the session's client
// kept between calls) that reports the pane's output, its death, its process replaced (respawn-pane
// -k: schema.OutcomeExited with a note naming both processes, replaced.go), the server going away
// and a server that stopped answering (a *tmux.NotRespondingError about 5 s after it stopped,
// whatever the timeout) as they happen; a capture through that client confirms what the screen
// shows. WaitForText decides on the output stream itself (pane.Stream) and captures only where the
// stream cannot say what a capture would (see WaitForText). When the client cannot attach, a wait
// polls with an adaptive interval and says so in its note ("polling: ..."). WaitTask waits on the
// task's tmux wait-for channel, which the task's supervisor signals once it has recorded the end,
// and looks at the record once a second besides; FollowTasks does the same on the channel every
// supervisor signals (task.TasksChannel). Nothing here starts tmux processes itself: package tmux
// does.
//
// Every wait ends with an outcome string (schema.OutcomeMatched, schema.OutcomeStopped,
// schema.OutcomeTimeout, schema.OutcomeExited, schema.OutcomeQuiet, schema.OutcomeTurnEnded,
// schema.OutcomeBusy, schema.OutcomeCompleted, schema.OutcomeInterrupted, schema.OutcomeEnded),
// never later than its timeout plus a small margin; the pane dying or its process replaced, the
// server going away or the context being cancelled end it at once. Package cmd maps outcomes to
// exit codes. Progress of long waits is reported through WithProgress.
package waiter

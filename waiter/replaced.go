package waiter

import (
	"errors"
	"fmt"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
)

// A pane whose process is replaced during a wait (respawn-pane -k: tmux kills the pane's process
// and starts another in the same pane, which keeps its id) does not die, yet what the wait waited
// on is gone: the old process's output (a respawn clears the pane's screen and history), its turn,
// a run's command and its exit status. Every wait that watches a pane therefore ends as for a
// death, with schema.OutcomeExited (exit 5) and a note naming both processes (replacedNote), once a
// look sees another pane_pid than the one the wait began with (Source.Process). The control
// client's death watch reads pane_pid with pane_dead (one command every 0.4 s through the attached
// client) and signals a change when it moved, so the end comes within about half a second of the
// respawn.

// replacedNote says that the pane's process was replaced during the wait.
func replacedNote(was, now int) string {
	return fmt.Sprintf("the pane's process was replaced during the wait (respawn-pane: process %d is gone, process %d runs now); the output the wait was waiting on went with it", was, now)
}

// replaced reports whether info shows another process than pid, the one the wait began with (0: not
// known), and says so.
func replaced(pid int, info tmux.PaneInfo) (string, bool) {
	if pid == 0 || info.PID == 0 || info.PID == pid {
		return "", false
	}
	return replacedNote(pid, info.PID), true
}

// replacedErr reports whether err is a read's *pane.RespawnedError for a cursor of process pid, the
// one the wait began with: the process was replaced during the wait (a cursor of another, older
// process is a bad cursor, exit 2, as before the wait).
func replacedErr(pid int, err error) (string, bool) {
	var re *pane.RespawnedError
	if pid == 0 || !errors.As(err, &re) || re.Was != pid {
		return "", false
	}
	return replacedNote(re.Was, re.Now), true
}

// replacedDuring is the error of an action (send-text's waits) on a pane whose process was replaced
// while it ran: tmux.ErrPaneExited (exit 5).
func replacedDuring(id, action, note string) error {
	return fmt.Errorf("%w: pane %s: %s (during %s)", tmux.ErrPaneExited, id, note, action)
}

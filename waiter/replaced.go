package waiter

import (
	"errors"
	"fmt"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
)

// respawn-pane -k kills a pane's process and starts another in the same pane, which keeps its id.
// The pane does not die, yet what a wait waited on is gone. That is the old process's output, since
// a respawn clears screen and history. Its turn, a run's command and its exit status are gone too.
// So every wait on a pane ends as for a death, once a look sees another pane_pid (Source.Process).
// It ends with schema.OutcomeExited (exit 5) and a note naming both processes (replacedNote). The
// death watch reads pane_pid with pane_dead every 0.4 s through the attached client. It signals a
// change when pane_pid moved, so the end comes within about half a second.

// replacedNote says that the pane's process was replaced during the wait.
func replacedNote(was, now int) string {
	return fmt.Sprintf("the pane's process was replaced during the wait (respawn-pane: process %d is gone, process %d runs now); the output the wait was waiting on went with it", was, now)
}

// replaced reports whether info shows another process than pid, the one the wait began with, and
// says so. pid 0 is not known.
func replaced(pid int, info tmux.PaneInfo) (string, bool) {
	if pid == 0 || info.PID == 0 || info.PID == pid {
		return "", false
	}
	return replacedNote(pid, info.PID), true
}

// replacedErr reports whether err is a *pane.RespawnedError for a cursor of process pid. Then the
// process was replaced during the wait. A cursor of an older process is a bad cursor (exit 2), as
// before the wait.
func replacedErr(pid int, err error) (string, bool) {
	var re *pane.RespawnedError
	if pid == 0 || !errors.As(err, &re) || re.Was != pid {
		return "", false
	}
	return replacedNote(re.Was, re.Now), true
}

// replacedDuring is tmux.ErrPaneExited (exit 5) for an action whose pane's process was replaced
// while it ran. send-text's waits use it.
func replacedDuring(id, action, note string) error {
	return fmt.Errorf("%w: pane %s: %s (during %s)", tmux.ErrPaneExited, id, note, action)
}

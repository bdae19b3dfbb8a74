package waiter

import (
	"errors"
	"fmt"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
)

// respawn-pane -k kills a pane's process and starts another in the same pane, with the same id. The
// pane does not die, yet what a wait waited on is gone: the output, since a respawn clears screen
// and history, the turn, a run's command and its status. So every wait ends as for a death once a
// look sees another pane_pid (Source.Process). That is schema.OutcomeExited (exit 5) with a note
// naming both processes (replacedNote). The death watch reads pane_pid with pane_dead every 0.4 s
// through the attached client. It signals when pane_pid moved, so the end comes within about 0.5 s.

// replacedNote says that the pane's process was replaced during the wait.
func replacedNote(was, now int) string {
	return fmt.Sprintf("the pane's process was replaced during the wait (respawn-pane: process %d is gone, process %d runs now); the output the wait was waiting on went with it", was, now)
}

// replaced reports whether info shows another process than pid (0: unknown), and says so.
func replaced(pid int, info tmux.PaneInfo) (string, bool) {
	if pid == 0 || info.PID == 0 || info.PID == pid {
		return "", false
	}
	return replacedNote(pid, info.PID), true
}

// replacedErr reports whether err is a *pane.RespawnedError for a cursor of process pid, replaced
// during the wait. A cursor of an older process is a bad cursor (exit 2), as before the wait.
func replacedErr(pid int, err error) (string, bool) {
	var re *pane.RespawnedError
	if pid == 0 || !errors.As(err, &re) || re.Was != pid {
		return "", false
	}
	return replacedNote(re.Was, re.Now), true
}

// replacedDuring is tmux.ErrPaneExited (exit 5) for an action on a replaced process.
func replacedDuring(id, action, note string) error {
	return fmt.Errorf("%w: pane %s: %s (during %s)", tmux.ErrPaneExited, id, note, action)
}

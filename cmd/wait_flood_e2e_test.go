//go:build e2e

package cmd_test

import (
	"os"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
)

// Output faster than it can be read neither blocks tmux nor hides the
// marker printed after it.
func TestWaitFloodThenMarker(t *testing.T) {
	s := tmuxtest.New(t)
	size := "10000000" // PANECTL_FLOOD_BYTES=50000000 for the 50 MB (slow on 2 shared cores)
	if n := os.Getenv("PANECTL_FLOOD_BYTES"); n != "" {
		size = n
	}
	p := s.NewPane([2]int{80, 24}, "sh", "-c", "read x; yes | head -c "+size+"; echo FLOOD-END; exec cat")
	c := startWait(t, s, 1, p.ID, "--pattern", "FLOOD-END", "--timeout", "300")
	s.Tmux("send-keys", "-t", p.ID, "go", "Enter")
	// tmux keeps answering during the flood
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	s.Tmux("display-message", "-p", "-t", p.ID, "#{pane_id}")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("tmux took %v to answer during the flood", d)
	}
	if code, _ := waitExit(t, c, 300*time.Second); code != 0 {
		t.Errorf("exit %d, want 0 (matched FLOOD-END); stderr %v", code, c.Stderr)
	}
	if cl := s.Clients(); len(cl) != 0 {
		t.Errorf("clients left attached: %q", cl)
	}
}

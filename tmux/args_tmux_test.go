package tmux_test

import (
	"context"
	"strings"
	"testing"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

// TestArgsRoundTripRealTmux: values that tmux's argument parser would cut
// or run as commands are stored and read back exactly by a real tmux, in
// one command list whose separators stay separators.
func TestArgsRoundTripRealTmux(t *testing.T) {
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	ctx := context.Background()
	for _, v := range []string{"a;", ";", `b\;`, `\\;`, "x ; y", "set-option -g status-right X;", "#{pane_id};"} {
		out, err := s.Client.RunList(ctx, nil,
			tmux.Command{"set-option", "-p", "-t", p.ID, "@v", v},
			tmux.Command{"show-options", "-p", "-v", "-t", p.ID, "@v"})
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		if got := strings.TrimSuffix(out, "\n"); got != v {
			t.Errorf("stored %q, read back %q", v, got)
		}
	}
	if got := s.Tmux("show-options", "-gv", "status-right"); got == "X" {
		t.Error("a value ran a tmux command")
	}
}

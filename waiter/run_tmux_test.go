package waiter

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/schema"
)

// A probe for lost input is typed only into a shell at its prompt with
// nothing typed waiting for it: with a grace period of a nanosecond, the
// probe is due before the shell has even read the command line, and a
// probe typed then would be read by the command (read x) instead. The run
// times out (nothing reached the command's input) and the pane runs the
// next command.
func TestRunProbesOnlyAShellAtItsPrompt(t *testing.T) {
	for _, argv := range [][]string{
		{"bash", "--norc", "--noprofile"},
		{"zsh", "-f"},
		{"fish", "--no-config"},
		{"dash"},
	} {
		t.Run(argv[0], func(t *testing.T) {
			if _, err := exec.LookPath(argv[0]); err != nil {
				t.Skip(argv[0], "is not installed")
			}
			s := tmuxtest.New(t)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			p := s.NewPane([2]int{100, 30}, append([]string{"env", "PS1=$ "}, argv...)...)
			run := func(command string, timeout, grace time.Duration) RunResult {
				t.Helper()
				deadline := time.Now().Add(timeout)
				info, err := s.Client.Pane(ctx, p.ID)
				if err != nil {
					t.Fatal(err)
				}
				info, sh, err := Ready(ctx, s.Client, info, deadline)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Run(ctx, s.Client, RunOptions{Info: info, Shell: sh, Command: command, Deadline: deadline, Grace: grace})
				if err != nil {
					t.Fatalf("run %q: %v", command, err)
				}
				return res
			}
			// (a run learns the prompt, as on any warm pane)
			if res := run("true", 20*time.Second, 0); res.Outcome != schema.OutcomeCompleted {
				t.Fatalf("first run: %+v", res)
			}
			command := "read x && echo got-$x"
			if argv[0] == "fish" {
				command = "read x; and echo got-$x"
			}
			res := run(command, 3*time.Second, time.Nanosecond)
			if res.Outcome != schema.OutcomeTimeout || strings.Contains(strings.Join(res.Output, "\n"), "ANECTL") {
				t.Errorf("run %q with a probe due at once: outcome %s, output %q, note %q; want a timeout, no probe in the output", command, res.Outcome, res.Output, res.Note)
			}
			if res := run("echo after", 20*time.Second, 0); res.Outcome != schema.OutcomeCompleted || strings.Join(res.Output, "|") != "after" {
				t.Errorf("the run after: %+v", res)
			}
		})
	}
}

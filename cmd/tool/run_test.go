package tool

import (
	"errors"
	"testing"

	"github.com/panectl/panectl/schema"
)

// run exits with the command's status when it completed, and when it was
// interrupted with a failing status the shell reported; else 130.
func TestRunExit(t *testing.T) {
	code := func(n int) *int { return &n }
	cases := []struct {
		name string
		out  schema.RunOutput
		want int
	}{
		{"completed 0", schema.RunOutput{Outcome: schema.OutcomeCompleted, ExitCode: code(0)}, 0},
		{"completed 3", schema.RunOutput{Outcome: schema.OutcomeCompleted, ExitCode: code(3)}, 3},
		{"C-c by a person", schema.RunOutput{Outcome: schema.OutcomeInterrupted, ExitCode: code(130)}, 130},
		{"interrupted, the shell reports 3", schema.RunOutput{Outcome: schema.OutcomeInterrupted, ExitCode: code(3)}, 3},
		{"interrupted, status unknown", schema.RunOutput{Outcome: schema.OutcomeInterrupted}, ExitInterrupted},
		{"interrupted, status 0", schema.RunOutput{Outcome: schema.OutcomeInterrupted, ExitCode: code(0)}, ExitInterrupted},
		{"timeout", schema.RunOutput{Outcome: schema.OutcomeTimeout}, 124},
		{"exited", schema.RunOutput{Outcome: schema.OutcomeExited}, 5},
	}
	for _, c := range cases {
		err := RunExit(c.out)
		got := 0
		var ee *ExitError
		if errors.As(err, &ee) {
			got = ee.Code
		} else if err != nil {
			t.Errorf("%s: RunExit = %v, not an *ExitError", c.name, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s: exit %d; want %d", c.name, got, c.want)
		}
	}
}

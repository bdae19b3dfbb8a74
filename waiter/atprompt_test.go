package waiter

import (
	"testing"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/recognize"
)

// run's preflight refuses a shell asking a question (pane.QuestionPattern)
// with the wording the shell recognizer calls awaiting_approval.
func TestQuestionPatternIsShellQuestionRule(t *testing.T) {
	set, err := recognize.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range set.Manifest("shell").Rules {
		if r.ID == "shell-question" {
			if got := r.Regex.String(); got != pane.QuestionPattern {
				t.Fatalf("shell-question rule regex %q, pane.QuestionPattern %q: keep them equal", got, pane.QuestionPattern)
			}
			return
		}
	}
	t.Fatal("the shell manifest has no shell-question rule")
}

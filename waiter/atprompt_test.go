package waiter

import (
	"testing"

	"github.com/panectl/panectl/pane/shell"
	"github.com/panectl/panectl/recognize"
)

// run's preflight refuses a shell asking a question (shell.QuestionPattern)
// with the wording the shell recognizer calls awaiting_approval.
func TestQuestionPatternIsShellQuestionRule(t *testing.T) {
	set, err := recognize.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range set.Manifest("shell").Rules {
		if r.ID == "shell-question" {
			if got := r.Regex.String(); got != shell.QuestionPattern {
				t.Fatalf("shell-question rule regex %q, shell.QuestionPattern %q: keep them equal", got, shell.QuestionPattern)
			}
			return
		}
	}
	t.Fatal("the shell manifest has no shell-question rule")
}

package recognize

import (
	"strings"
	"testing"
)

// TestExitPendingNote: a "Press Ctrl-C again to exit" prompt, in each
// agent's wording the fixtures hold, is awaiting_input by its own rule and
// carries a note, so an orchestrator sends no C-c into it.
func TestExitPendingNote(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range loadFixtures(t) {
		if !strings.Contains(strings.ToLower(strings.Join(f.Scr.Rows, "\n")), "again to exit") {
			continue
		}
		n++
		for _, scr := range []Screen{f.Scr, asFile(f.Scr)} {
			r, err := set.Classify(f.Agent, scr)
			if err != nil {
				t.Fatal(err)
			}
			if r.State != AwaitingInput || r.Evidence.Rule != "exit-pending" || !strings.Contains(r.Note, "Ctrl-C") {
				t.Errorf("%s: got %s by %s, note %q; want awaiting_input by exit-pending with a note", f.File, r.State, r.Evidence.Rule, r.Note)
			}
		}
	}
	if n < 4 {
		t.Fatalf("%d fixtures show an exit prompt, want at least 4 (claude, copilot, gemini, qwen)", n)
	}
}

// TestTurnStateMoments classifies screens of moments no capture had: an
// answered dialog's key hints left on a busy agent's screen, retry notices
// and what an agent shows once it gave up.
func TestTurnStateMoments(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, named string
		rows        []string
		want        State
		wantRule    string
	}{
		// The hint row of the answered approval (copilot 1.0.102's box
		// footer) stays a frame longer than its question and options.
		{"copilot leftover hints", "copilot", []string{
			" ● I'll run that for you.", "",
			" $ Shell Create a marker file and list the project directory",
			"   touch approved-by-user.txt && ls -la", "",
			"│ ↑/↓ to navigate · enter to select · esc to cancel │",
			" ● Working · 147 B esc esc interrupt",
		}, Busy, "copilot-cancel-hint"},
		{"claude leftover hints", "claude", []string{
			"● Bash(touch approved-by-user.txt && ls -la)",
			"  ⎿  Running…",
			rule120,
			" Esc to cancel · Tab to amend · ctrl+e to explain",
		}, Busy, "claude-tool-running"},
		// A dialog with its hints still counts.
		{"claude dialog with hints", "claude", []string{
			rule120,
			" Do you want to proceed?",
			" ❯ 1. Yes",
			"   2. No",
			" Esc to cancel · Tab to amend",
		}, AwaitingApproval, ""},
		// A numbered draft in the composer is no option list.
		{"claude numbered draft", "claude", []string{
			"● OK done.", "",
			rule120, "❯ 1. fix the failing test", "  2. run the linter", rule120,
			"  ? for shortcuts",
		}, AwaitingInput, "claude-input-box"},
		{"claude retrying", "claude", []string{
			"❯ hello",
			"  ⎿  API Error (529 Overloaded) · Retrying in 5 seconds… (attempt 2/10)",
			rule120, "❯ ", rule120, "  ? for shortcuts",
		}, Busy, "agent-retrying"},
		// An answer that says the word is not a retry.
		{"claude answer about retrying", "claude", []string{
			"● The client keeps retrying.", "",
			rule120, "❯ ", rule120, "  ? for shortcuts",
		}, AwaitingInput, "claude-input-box"},
		{"pi gave up", "pi", []string{
			" Error: Retry failed after 3 attempts: 500 fake server error",
			rule120, rule120, "/tmp/p1", "0.0%/128k (auto)                  fake-model",
		}, AwaitingInput, "pi-editor"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := set.Classify(c.named, screen(120, 40, "", "", c.rows...))
			if err != nil {
				t.Fatal(err)
			}
			if r.State != c.want || (c.wantRule != "" && r.Evidence.Rule != c.wantRule) {
				t.Errorf("got %s %+v (note %q), want %s %s", r.State, r.Evidence, r.Note, c.want, c.wantRule)
			}
		})
	}
}

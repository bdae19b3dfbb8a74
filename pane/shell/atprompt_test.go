package shell

import (
	"strings"
	"testing"

	"github.com/panectl/panectl/pane/proc"
)

func TestNotAtPrompt(t *testing.T) {
	raw := proc.TTYMode{Known: true}
	canon := proc.TTYMode{Known: true, Canonical: true}
	seen := Prompt{Text: "$ ", Seen: true}
	bash := []string{"bash", "--norc"}
	for _, tc := range []struct {
		name string
		sh   Shell
		args []string
		mode proc.TTYMode
		line InputLine
		p    Prompt
		warm bool
		want string // a word of the reason, "" for none
	}{
		{"bash prompt", ShellBash, bash, raw, InputLine{Left: "$ "}, seen, true, ""},
		{"bash read -p", ShellBash, bash, canon, InputLine{Left: "Name: "}, seen, true, "canonical"},
		{"bash read x", ShellBash, bash, canon, InputLine{}, seen, true, "canonical"},
		{"bash read x, cold", ShellBash, bash, canon, InputLine{}, Prompt{}, false, ""},
		{"bash rc drawing a prompt, cold", ShellBash, bash, canon, InputLine{Left: "$ "}, Prompt{}, false, ""},
		{"bash read -p, typed into lately", ShellBash, bash, canon, InputLine{Left: "Name: "}, Prompt{}, true, "canonical"},
		{"bash --noediting prompt", ShellBash, []string{"bash", "--noediting"}, canon, InputLine{Left: "$ "}, seen, true, ""},
		{"bash --noediting read x", ShellBash, []string{"bash", "--noediting"}, canon, InputLine{}, seen, true, "empty row"},
		{"zsh +Z prompt", ShellZsh, []string{"zsh", "+Z"}, canon, InputLine{Left: "% "}, Prompt{}, true, ""},
		{"question", ShellFish, nil, raw, InputLine{Left: "Continue? [y/N] "}, seen, true, "question"},
		{"fish read", ShellFish, nil, raw, InputLine{Left: "read> "}, seen, true, "read prompt"},
		{"dash prompt", ShellPOSIX, []string{"dash"}, canon, InputLine{Left: "$ "}, seen, true, ""},
		{"dash read x", ShellPOSIX, []string{"dash"}, canon, InputLine{}, seen, true, "empty row"},
		{"dash empty prompt", ShellPOSIX, []string{"dash"}, canon, InputLine{}, Prompt{Seen: true}, true, ""},
		{"dash nothing seen", ShellPOSIX, []string{"dash"}, canon, InputLine{}, Prompt{}, true, ""},
		{"bash empty prompt", ShellBash, bash, raw, InputLine{}, Prompt{Seen: true}, true, ""},
	} {
		got := NotAtPrompt(tc.sh, tc.args, tc.mode, tc.line, tc.p, tc.warm)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: NotAtPrompt = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestContinuationEmptyPrompt(t *testing.T) {
	raw := proc.TTYMode{Known: true}
	if !(InputLine{}).Continuation(Prompt{Text: "$ ", Seen: true}, true, raw) {
		t.Error("a blank row under a line editor with a prompt seen: want a continuation")
	}
	if (InputLine{}).Continuation(Prompt{Seen: true}, true, raw) {
		t.Error("the cursor at the start of a row, the empty prompt seen: want a prompt")
	}
	if !(InputLine{Left: "    "}).Continuation(Prompt{Seen: true}, true, raw) {
		t.Error("an indented blank row (fish): want a continuation")
	}
	if !(InputLine{}).Bare(Prompt{Seen: true}) || (InputLine{}).Bare(Prompt{}) {
		t.Error("Bare of an empty row: only with the empty prompt seen")
	}
}

// A probe goes to a shell reading its command line only: fish's read
// prompt, a question, a canonical terminal under a line editor (fish's
// included) are not that.
func TestAwayFromPrompt(t *testing.T) {
	raw := proc.TTYMode{Known: true}
	canon := proc.TTYMode{Known: true, Canonical: true}
	seen := Prompt{Text: "$ ", Seen: true}
	for _, tc := range []struct {
		name string
		sh   Shell
		args []string
		mode proc.TTYMode
		line InputLine
		want string // a word of the reason, "" for none
	}{
		{"fish prompt", ShellFish, []string{"fish"}, raw, InputLine{Left: "me@host ~> "}, ""},
		{"fish read", ShellFish, []string{"fish"}, raw, InputLine{Left: "read> "}, "read prompt"},
		{"fish running a command", ShellFish, []string{"fish"}, canon, InputLine{Left: "compiling "}, "canonical"},
		{"bash prompt", ShellBash, []string{"bash"}, raw, InputLine{Left: "$ "}, ""},
		{"bash read x (warm)", ShellBash, []string{"bash"}, canon, InputLine{}, "canonical"},
		{"zsh read -q question", ShellZsh, []string{"zsh"}, raw, InputLine{Left: "Continue? [y/N] "}, "question"},
		{"dash prompt", ShellPOSIX, []string{"dash"}, canon, InputLine{Left: "$ "}, ""},
		{"dash read x", ShellPOSIX, []string{"dash"}, canon, InputLine{}, "empty row"},
		{"mode unknown", ShellFish, []string{"fish"}, proc.TTYMode{}, InputLine{Left: "> "}, ""},
	} {
		got := AwayFromPrompt(tc.sh, tc.args, tc.mode, tc.line, seen)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: AwayFromPrompt = %q, want a reason with %q", tc.name, got, tc.want)
		}
	}
}

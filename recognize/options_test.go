package recognize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/panectl/panectl/schema"
)

// optionsOf says a fixture's options as "*1. Yes | 2. No" (* highlighted).
func optionsOf(opts []Option) string {
	var parts []string
	for _, o := range opts {
		s := o.Key + ". " + o.Text
		if o.Selected {
			s = "*" + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " | ")
}

// TestDialogOptionsExact pins the options read from one dialog of each
// agent and kind: numbered with the highlight anywhere, unnumbered (pi,
// Claude's trust screen), opencode's buttons, and sign-in menus.
func TestDialogOptionsExact(t *testing.T) {
	want := map[string]string{
		"screens/claude/awaiting_approval-01.txt":             "*1. Yes | 2. Yes, allow all edits during this session (shift+tab) | 3. No",
		"screens/claude/awaiting_approval_dialog-02.txt":      "1. Yes | *2. No (recommended)",
		"screens-v2/claude/awaiting_approval-03.txt":          "1. Yes | 2. Yes, and always allow access to /home/ada/harness/projects/claude from this project | 3. Yes, and switch to auto mode · auto mode handles these prompts for you | *4. No",
		"screens-v2/claude/awaiting_approval_dialog-01.txt":   "*1. No, exit | 2. Yes, I trust this folder",
		"screens-v2/codex/awaiting_approval-03.txt":           "1. Yes, proceed (y) | 2. Yes, and don't ask again for commands that start with `touch approved-by-user.txt` (p) | *3. No, and tell Codex what to do differently (esc)",
		"screens-v2/codex/awaiting_approval_dialog-07.txt":    "1. Sign in with ChatGPT | 2. Sign in with Device Code | *3. Sign in another way",
		"screens-v2/codex/awaiting_approval_dialog-05.txt":    "*1. Trust and continue | 2. Back to Agent Command Center",
		"screens-v2/gemini/awaiting_approval-03.txt":          "*1. Allow once | 2. Allow for this session | 3. Modify with external editor | 4. No, suggest changes (esc)",
		"screens-v2/gemini/awaiting_approval_dialog-03.txt":   "1. Sign in with Google | *2. Use Gemini API Key | 3. Vertex AI",
		"screens-v2/gemini/awaiting_approval_dialog-01.txt":   "*1. Trust folder (gemini) | 2. Trust parent folder (projects) | 3. Don't trust",
		"screens-v2/qwen/awaiting_approval-03.txt":            "1. Yes, allow once | 2. Always allow run 'touch *' commands in this project | 3. Always allow run 'touch *' commands for this user | *4. No, suggest changes (esc)",
		"screens-v2/copilot/awaiting_approval-07.txt":         "*1. Yes | 2. Yes, and don't ask again for `python3` in this directory | 3. No, and tell Copilot what to do differently (Esc to stop)",
		"screens-v2/copilot/awaiting_approval_dialog-05.txt":  "1. Yes | *2. Yes, and remember this folder for future sessions | 3. No (Esc)",
		"screens-v2/pi/awaiting_approval-05.txt":              "1. Yes | *2. No",
		"screens-v2/opencode/awaiting_approval-05.txt":        "1. Allow once | 2. Allow always | 3. Reject",
		"screens-v5/opencode/awaiting_approval_dialog-01.txt": "1. Confirm | 2. Cancel",
		"screens-v2/codex/awaiting_approval_dialog-09.txt":    "", // an API key field: no options
	}
	seen := 0
	for _, f := range loadFixtures(t) {
		w, ok := want[f.File]
		if !ok {
			continue
		}
		seen++
		if got := optionsOf(ReadDialog(f.Scr).Options); got != w {
			t.Errorf("%s:\n got %s\nwant %s", f.File, got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d fixtures named", seen, len(want))
	}
}

// TestDialogOptionsEveryPrompt reads every tool-permission prompt of every
// agent (label awaiting_approval): Classify reports its options, keys
// unique, one highlighted (none for opencode, which marks it by colour),
// and yes and no each name an option; always does where the agent offers
// one (pi asks Yes or No). Every selection dialog (awaiting_approval:dialog)
// gives Classify's options as ReadDialog reads them.
func TestDialogOptionsEveryPrompt(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	prompts := 0
	for _, f := range loadFixtures(t) {
		if !strings.HasPrefix(f.Label, "awaiting_approval") {
			continue
		}
		r, err := set.Classify(f.Agent, f.Scr)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := optionsOf(r.Options), optionsOf(ReadDialog(f.Scr).Options); got != want {
			t.Errorf("%s: Classify's options %q, ReadDialog's %q", f.File, got, want)
		}
		if f.Label != "awaiting_approval" {
			continue
		}
		prompts++
		if err := checkPrompt(f.Agent, r.Options); err != nil {
			t.Errorf("%s: %v (options: %s)", f.File, err, optionsOf(r.Options))
		}
	}
	if prompts < 30 {
		t.Errorf("only %d permission prompts among the fixtures", prompts)
	}
}

// checkPrompt checks a permission prompt's options (see
// TestDialogOptionsEveryPrompt).
func checkPrompt(agent string, opts []Option) error {
	if len(opts) < 2 {
		return fmt.Errorf("%d options", len(opts))
	}
	keys, selected := map[string]bool{}, 0
	for _, o := range opts {
		if keys[o.Key] {
			return fmt.Errorf("key %s twice", o.Key)
		}
		keys[o.Key] = true
		if o.Selected {
			selected++
		}
	}
	if want := map[bool]int{true: 0, false: 1}[agent == "opencode"]; selected != want {
		return fmt.Errorf("%d highlighted, want %d", selected, want)
	}
	choices := []string{"yes", "no", "always"}
	if agent == "pi" {
		choices = choices[:2]
	}
	for _, c := range choices {
		if _, err := Choose(opts, c); err != nil {
			return err
		}
	}
	return nil
}

// TestNamesEsc finds the options whose text says Esc picks them.
func TestNamesEsc(t *testing.T) {
	for text, want := range map[string]bool{
		"No, and tell Codex what to do differently (esc)":           true,
		"No, and tell Copilot what to do differently (Esc to stop)": true,
		"No (Esc)":                  true,
		"No, suggest changes (esc)": true,
		"No":                        false,
		"Yes, proceed (y)":          false,
		"Yes, allow all edits during this session (shift+tab)": false,
		"(esc) is the key, not here":                           false,
	} {
		if got := NamesEsc(Option{Text: text}); got != want {
			t.Errorf("NamesEsc(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestChoose picks options by their text, and lists what is offered when
// the choice is not.
func TestChoose(t *testing.T) {
	codex := []Option{{Key: "1", Text: "Yes, proceed (y)", Selected: true},
		{Key: "2", Text: "Yes, and don't ask again for commands that start with `touch` (p)"},
		{Key: "3", Text: "No, and tell Codex what to do differently (esc)"}}
	trust := []Option{{Key: "1", Text: "No, exit", Selected: true}, {Key: "2", Text: "Yes, I trust this folder"}}
	qwen := []Option{{Key: "1", Text: "Yes, allow once"}, {Key: "2", Text: "Always allow run 'touch *' commands in this project"},
		{Key: "3", Text: "Always allow run 'touch *' commands for this user"}, {Key: "4", Text: "No, suggest changes (esc)"}}
	gemini := []Option{{Key: "1", Text: "Allow once"}, {Key: "2", Text: "Allow for this session"}, {Key: "3", Text: "No, suggest changes (esc)"}}
	claude := []Option{{Key: "1", Text: "Yes"}, {Key: "2", Text: "Yes, and don’t ask again for: ls"}, {Key: "3", Text: "No"}}
	pi := []Option{{Key: "1", Text: "Yes", Selected: true}, {Key: "2", Text: "No"}}
	for _, tc := range []struct {
		opts         []Option
		choice, want string // want: the key, or "" for none
	}{
		{codex, "yes", "1"}, {codex, "always", "2"}, {codex, "no", "3"}, {codex, "3", "3"}, {codex, "4", ""},
		{trust, "yes", "2"}, {trust, "no", "1"}, {trust, "always", ""},
		{qwen, "yes", "1"}, {qwen, "always", "2"}, {qwen, "no", "4"},
		{gemini, "yes", "1"}, {gemini, "always", "2"}, {gemini, "no", "3"},
		{claude, "always", "2"}, {claude, "no", "3"},
		{pi, "always", ""}, {pi, "no", "2"},
		{nil, "yes", ""},
	} {
		got, err := Choose(tc.opts, tc.choice)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%s of %s: picked %s, want an error", tc.choice, optionsOf(tc.opts), got.Key)
		case tc.want == "" && !strings.Contains(err.Error(), "its options: "+schema.ListOptions(tc.opts)):
			t.Errorf("%s: the error %q does not list the options", tc.choice, err)
		case tc.want != "" && (err != nil || got.Key != tc.want):
			t.Errorf("%s of %s: got %s (%v), want %s", tc.choice, optionsOf(tc.opts), got.Key, err, tc.want)
		}
	}
}

// Claude Code 2.1.197 draws an option too long for the pane with no space
// after its number ("2.Yes, and always ..."), seen live at 80 columns: all
// three options are read, and "1.5 s" after a number is no option.
func TestDialogOptionsNoSpaceAfterNumber(t *testing.T) {
	scr := screen(80, 30, "claude", "",
		"╭──────────────────────────────────────────────────────────────────────────────╮",
		"│ Bash command                                                                 │",
		"│                                                                              │",
		"│   touch approved-by-user.txt && ls -la                                       │",
		"│                                                                              │",
		"│ Do you want to proceed?                                                      │",
		"│ ❯ 1. Yes                                                                     │",
		"│   2.Yes, and always allow access to cl3-my-service-backend-api/ from this    │",
		"│   project                                                                    │",
		"│   3. No, and tell Claude what to do differently (esc)                        │",
		"╰──────────────────────────────────────────────────────────────────────────────╯",
	)
	want := "*1. Yes | 2. Yes, and always allow access to cl3-my-service-backend-api/ from this | 3. No, and tell Claude what to do differently (esc)"
	if got := optionsOf(ReadDialog(scr).Options); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if m := matchNumbered("1.5 s elapsed"); m != nil {
		t.Errorf("matchNumbered(%q) = %q, want no option", "1.5 s elapsed", m)
	}
}

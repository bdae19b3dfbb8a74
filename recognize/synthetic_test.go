package recognize

import (
	"strings"
	"testing"
)

// screen builds a Screen from rows with the cursor just after the last row's
// text, the way a program waiting for input leaves it.
func screen(w, h int, command, title string, rows ...string) Screen {
	last := len(rows) - 1
	x := 0
	if last >= 0 {
		x = len([]rune(rows[last]))
	}
	return Screen{Rows: rows, Title: title, Command: command, CursorX: x, CursorY: last, Width: w, Height: h}
}

// withShell gives s the verdict a live pane's shell has (Screen.Shell).
func withShell(s Screen, verdict string) Screen {
	s.Shell = verdict
	return s
}

// cursorBelow moves the cursor to column 0 of the row under the text, where a
// running command leaves it.
func cursorBelow(s Screen) Screen {
	s.CursorX, s.CursorY = 0, len(s.Rows)
	return s
}

var (
	rule120 = strings.Repeat("─", 120)
	rule80  = strings.Repeat("─", 80)
)

type synthCase struct {
	name     string
	named    string // recognizer to classify with
	auto     string // what auto must resolve to ("" = same as named)
	scr      Screen
	want     State
	wantRule string // "" = any
}

func synthCases() []synthCase {
	return []synthCase{
		// Shells at their prompt, 120x40 and 80x24.
		{name: "bash prompt", named: "shell", scr: screen(120, 40, "bash", "devbox", "user@devbox:~/src$ ls", "a.txt  b.txt", "user@devbox:~/src$"), want: AwaitingInput, wantRule: "shell-prompt"},
		{name: "bash prompt narrow", named: "shell", scr: screen(80, 24, "bash", "", "$ true", "$"), want: AwaitingInput, wantRule: "shell-prompt"},
		{name: "root prompt", named: "shell", scr: screen(80, 24, "bash", "", "root@devbox:/# "), want: AwaitingInput, wantRule: "shell-prompt"},
		{name: "zsh prompt", named: "shell", scr: screen(120, 40, "zsh", "", "devbox% echo hi", "hi", "devbox% "), want: AwaitingInput, wantRule: "shell-prompt"},
		{name: "fish prompt", named: "shell", scr: screen(80, 24, "fish", "~", "Welcome to fish, the friendly interactive shell", "user@devbox ~> "), want: AwaitingInput, wantRule: "shell-prompt"},
		{name: "dash prompt", named: "shell", scr: screen(80, 24, "dash", "", "$ echo hi", "hi", "$ "), want: AwaitingInput, wantRule: "shell-prompt"},
		{name: "login shell typed text", named: "shell", scr: screen(80, 24, "-bash", "", "$ ls -la"), want: AwaitingInput, wantRule: "shell-foreground"},
		{name: "read -p", named: "shell", scr: screen(120, 40, "bash", "", "$ read -p 'Continue? [y/N] ' a", "Continue? [y/N] "), want: AwaitingApproval, wantRule: "shell-question"},
		{name: "read -p narrow", named: "shell", scr: screen(80, 24, "zsh", "", "% read -q '?Proceed? '", "Proceed? "), want: AwaitingApproval, wantRule: "shell-question"},
		{name: "shell busy sleep", named: "shell", scr: cursorBelow(screen(120, 40, "sleep", "", "user@devbox:~$ sleep 10")), want: Busy, wantRule: "shell-foreground-command"},
		{name: "shell busy sleep narrow", named: "shell", scr: cursorBelow(screen(80, 24, "sleep", "", "$ sleep 10")), want: Busy, wantRule: "shell-foreground-command"},
		{name: "sudo password", named: "shell", scr: screen(80, 24, "sudo", "", "$ sudo true", "[sudo] password for user: "), want: AwaitingApproval},

		// A live shell in the foreground: its terminal mode and /proc
		// (Screen.Shell) decide whether its name means "at the prompt".
		{name: "shell loop (live)", named: "shell", scr: withShell(cursorBelow(screen(80, 24, "bash", "", "$ while :; do :; done")), "busy: bash is running (process state R)"), want: Busy, wantRule: "shell-busy"},
		{name: "shell loop on a prompt-like row (live)", named: "shell", scr: withShell(screen(80, 24, "dash", "", "$ f() { while :; do :; done; }; f", "$"), "busy: dash is running (process state R)"), want: Busy, wantRule: "shell-busy"},
		{name: "shell read builtin (live)", named: "shell", scr: withShell(cursorBelow(screen(80, 24, "zsh", "", "% read x")), "not at prompt: zsh reads the terminal in canonical mode"), want: Unknown, wantRule: "shell-not-at-prompt"},
		{name: "shell at prompt (live)", named: "shell", scr: withShell(screen(80, 24, "bash", "", "$ ls"), "at prompt: the terminal is in raw mode"), want: AwaitingInput, wantRule: "shell-at-prompt"},
		{name: "shell question wins (live)", named: "shell", scr: withShell(screen(80, 24, "bash", "", "$ read -p 'Continue? [y/N] ' a", "Continue? [y/N] "), "not at prompt: bash reads the terminal in canonical mode"), want: AwaitingApproval, wantRule: "shell-question"},
		{name: "fish read prompt", named: "shell", scr: screen(80, 24, "fish", "", "~> read x", "read> "), want: Unknown, wantRule: "shell-fish-read"},

		// REPLs.
		{name: "python prompt", named: "python", scr: screen(120, 40, "python3", "", "Python 3.12.3 (main) [GCC 13.2.0] on linux", `Type "help" for more information.`, ">>> "), want: AwaitingInput, wantRule: "python-prompt"},
		{name: "python continuation narrow", named: "python", scr: screen(80, 24, "python3", "", ">>> for i in range(3):", "... "), want: AwaitingInput, wantRule: "python-prompt"},
		{name: "python running", named: "python", scr: cursorBelow(screen(80, 24, "python3", "", ">>> import time; time.sleep(10)")), want: Busy, wantRule: "python-running"},
		{name: "node prompt", named: "node", scr: screen(120, 40, "node", "", "Welcome to Node.js v22.3.0.", `Type ".help" for more information.`, "> "), want: AwaitingInput, wantRule: "node-prompt"},
		{name: "node running narrow", named: "node", scr: cursorBelow(screen(80, 24, "node", "", "Welcome to Node.js v22.3.0.", "> while (Date.now() < t) {}")), want: Busy, wantRule: "node-running"},

		// generic.
		{name: "generic yes/no", named: "generic", scr: screen(80, 24, "apt", "", "Do you want to continue? [Y/n] "), want: AwaitingApproval},
		{name: "generic busy", named: "generic", scr: screen(80, 24, "sometool", "", "working", " ⠋ Loading data (esc to cancel)"), want: Busy},
		{name: "generic prompt", named: "generic", scr: screen(80, 24, "sometool", "", "sometool v1", "sometool> "), want: AwaitingInput},

		// Agents without captured fixtures: one screen per state they claim.
		{name: "agy approval", named: "antigravity", scr: screen(120, 40, "agy", "", "Requesting permission for:", "  rm -rf build", "Do you want to proceed?", "> 1. Yes, run command", "  2. No"), want: AwaitingApproval},
		{name: "agy trust narrow", named: "agy", auto: "antigravity", scr: screen(80, 24, "agy", "", "Do you trust the contents of this project?", "> Yes", "  No"), want: AwaitingApproval},
		{name: "agy busy", named: "antigravity", scr: screen(120, 40, "agy", "", "> fix the bug", "⢿  Generating...", rule120, "> ", rule120, "ctrl+c to stop"), want: Busy},
		{name: "agy input", named: "antigravity", scr: screen(120, 40, "agy", "", "> fix the bug", "Done.", rule120, "> ", rule120), want: AwaitingInput},
		{name: "cursor approval", named: "cursor", scr: screen(120, 40, "cursor-agent", "", "$ rm -rf build", "Run this command?", " Run (once) (y)", " Skip (esc or n)"), want: AwaitingApproval},
		{name: "cursor busy", named: "cursor", scr: screen(80, 24, "cursor-agent", "", "⬡ Grepping..", "→ Add a follow-up   ctrl+c to stop"), want: Busy},
		{name: "cursor input", named: "cursor", scr: screen(120, 40, "cursor-agent", "", "Done.", "→ Add a follow-up", "Composer 2.5 · 48.2% · Auto-run"), want: AwaitingInput},
		{name: "opencode approval", named: "opencode", scr: screen(120, 40, "opencode", "", "△ Permission required", "  $ rm -rf build", "Allow once   Allow always   Reject", "⇆ select  enter confirm  esc dismiss"), want: AwaitingApproval},
		{name: "opencode busy", named: "opencode", scr: screen(80, 24, "opencode", "", "■■■■⬝⬝⬝⬝ Thinking...", "esc interrupt"), want: Busy},
		{name: "opencode input", named: "opencode", scr: screen(120, 40, "opencode", "", "Ask anything", "enter send"+strings.Repeat(" ", 10)+"press enter to send"), want: AwaitingInput},
		{name: "copilot approval", named: "copilot", scr: screen(120, 40, "copilot", "GitHub Copilot", "│ Do you want to run this command?", "│ ❯ 1. Yes", "│   2. No", "Confirm with number keys or ↑↓ keys and Enter, Cancel with Esc"), want: AwaitingApproval},
		{name: "copilot busy", named: "copilot", scr: screen(80, 24, "copilot", "GitHub Copilot", "∙ Reading files... (Esc to cancel · 492 B)", "❯ "), want: Busy},
		{name: "copilot input", named: "copilot", scr: screen(120, 40, "copilot", "GitHub Copilot", "● Done.", "❯ ", "Remaining requests: 97%"), want: AwaitingInput},
		{name: "grok approval", named: "grok", scr: screen(120, 40, "grok", "⚠ Action Required", "Run command?", "┃  1 (●) Yes, proceed", "┃  2 (○) No, reject", "1/3:select │ Ctrl+o:yolo │ Ctrl+c:cancel"), want: AwaitingApproval},
		{name: "grok busy", named: "grok", scr: screen(80, 24, "grok", "⠋ Thinking", "⠋ Thinking 3s [stop]", "> ", "Esc:cancel"), want: Busy},
		{name: "grok input", named: "grok", scr: screen(120, 40, "grok", "proj - grok", "Done.", "> ", "Ctrl+.:shortcuts"), want: AwaitingInput},
		{name: "amp approval", named: "amp", scr: screen(120, 40, "amp", "proj - amp - main", "Run this command?", "  rm -rf build", "Approve   Allow all for this session   Deny with feedback"), want: AwaitingApproval},
		{name: "amp busy", named: "amp", scr: screen(80, 24, "amp", "⠙ proj - amp - main", "Thinking about it", "╰──── thinking ────"), want: Busy},
		{name: "amp input", named: "amp", scr: screen(120, 40, "amp", "proj - amp - main", "Done.", "╭────╮", "│ > │", "╰────╯"), want: AwaitingInput},
		{name: "droid approval", named: "droid", scr: screen(120, 40, "droid", "", "Execute rm -rf build?", "> Yes, allow", "  No, cancel", "enter to select · esc to cancel · ↑↓ to navigate"), want: AwaitingApproval},
		{name: "droid busy", named: "droid", scr: screen(80, 24, "droid", "", "⠋ Thinking... (esc to stop)", "> "), want: Busy},
		{name: "droid input", named: "droid", scr: screen(120, 40, "droid", "", "Done.", "> "), want: AwaitingInput},
		{name: "kimi approval", named: "kimi", scr: screen(120, 40, "kimi", "Kimi Code", "╭─ approval ─╮", "│ Shell is requesting approval to run command:", "│ [1] Approve once", "│ [2] Approve for this session", "│ [3] Reject", "▲/▼ select  1/2/3/4 choose  ↵ confirm"), want: AwaitingApproval},
		{name: "kimi busy", named: "kimi", scr: screen(80, 24, "kimi", "Kimi Code", "🌖", "│ > ", "╰──────╯"), want: Busy},
		{name: "kimi input", named: "kimi", scr: screen(120, 40, "kimi", "Kimi Code", "Done.", "╭──────╮", "│ > ", "╰──────╯"), want: AwaitingInput},
	}
}

// TestSynthetic classifies hand-written screens of shells, REPLs and agents
// without captured fixtures, with the named recognizer and with auto.
func TestSynthetic(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range synthCases() {
		t.Run(c.name, func(t *testing.T) {
			got, err := set.Classify(c.named, c.scr)
			if err != nil {
				t.Fatal(err)
			}
			if got.State != c.want || (c.wantRule != "" && got.Evidence.Rule != c.wantRule) {
				t.Errorf("%s: got %s %+v (note %q), want %s %s", c.named, got.State, got.Evidence, got.Note, c.want, c.wantRule)
			}
			wantAuto := c.auto
			if wantAuto == "" {
				wantAuto = got.Recognizer
			}
			auto, err := set.Classify(AutoID, c.scr)
			if err != nil {
				t.Fatal(err)
			}
			if auto.Recognizer != wantAuto || auto.State != c.want {
				t.Errorf("auto: got %s/%s %+v, want %s/%s", auto.Recognizer, auto.State, auto.Evidence, wantAuto, c.want)
			}
		})
	}
}

// TestEveryRecognizerCovered makes sure each bundled recognizer has a
// fixture or synthetic screen for each state its rules claim.
func TestEveryRecognizerCovered(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]map[State]bool{}
	mark := func(id string, st State) {
		if covered[id] == nil {
			covered[id] = map[State]bool{}
		}
		covered[id][st] = true
	}
	for _, f := range loadFixtures(t) {
		mark(f.Agent, f.wantState())
	}
	for _, c := range synthCases() {
		mark(set.Manifest(c.named).ID, c.want)
	}
	for _, id := range set.ids {
		m := set.byID[id]
		for _, r := range m.Rules {
			if r.State != Unknown && !covered[id][r.State] {
				t.Errorf("%s claims %s (rule %s) but no screen tests it", id, r.State, r.ID)
			}
		}
	}
}

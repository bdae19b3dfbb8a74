package recognize

import (
	"strings"
	"testing"
)

func classifyOrFail(t *testing.T, id string, scr Screen) Result {
	t.Helper()
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	got, err := set.Classify(id, scr)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// A finished turn's busy lines above the current input box are history, not
// the live region.
func TestStaleBusyAboveInputBoxIsNotBusy(t *testing.T) {
	claude := screen(120, 40, "claude", "✳ Claude Code",
		"❯ run the tests",
		"✶ Running… (2s · ↓ 11 tokens)", // an old spinner frame left in the transcript
		"  esc to interrupt · ← for agents",
		"● All 12 tests pass.",
		"  Line one of the answer.",
		"  Line two of the answer.",
		"  Line three of the answer.",
		"  Line four of the answer.",
		"  Line five of the answer.",
		"✻ Worked for 12s",
		"",
		rule120,
		"❯ ",
		rule120,
		"  ? for shortcuts · ← for agents",
	)
	if got := classifyOrFail(t, "claude", claude); got.State != AwaitingInput {
		t.Errorf("claude: got %s %+v, want awaiting_input", got.State, got.Evidence)
	}

	codex := screen(120, 40, "node", "say hello | codex",
		"› please answer slow",
		"• Working (5s • esc to interrupt)", // stale: the turn ended below it
		"• Answer line 1",
		"  Answer line 2",
		"  Answer line 3",
		"  Answer line 4",
		"  Answer line 5",
		"  Answer line 6",
		"",
		"  Worked for 20s • 21:36",
		"",
		"› Ask Codex to do anything",
		"",
		"  fake-model default · /home/user1/projects/codex",
		"  ← for agents · ? for shortcuts",
	)
	for _, id := range []string{"codex", AutoID} {
		if got := classifyOrFail(t, id, codex); got.State != AwaitingInput || got.Recognizer != "codex" {
			t.Errorf("codex (%s): got %s/%s %+v, want codex/awaiting_input", id, got.Recognizer, got.State, got.Evidence)
		}
	}

	// A stale status row close above the composer: two transcript rows
	// between it and the composer make it history (the live status row is
	// the one right above the composer).
	near := screen(120, 40, "node", "say hello | codex",
		"› run longtool",
		"• Working (12s • esc to interrupt)",
		"• OK done.",
		"  Worked for 13s • 02:21",
		"",
		"› Ask Codex to do anything",
		"",
		"  fake-model default · /home/user1/projects/codex",
		"  ← for agents · ? for shortcuts",
	)
	if got := classifyOrFail(t, "codex", near); got.State != AwaitingInput {
		t.Errorf("codex, stale status row near the composer: got %s %+v, want awaiting_input", got.State, got.Evidence)
	}
	near.Rows = append(near.Rows[:2:2], append([]string{""}, near.Rows[5:]...)...)
	if got := classifyOrFail(t, "codex", near); got.State != Busy || got.Evidence.Rule != "codex-working" {
		t.Errorf("codex, live status row: got %s %+v, want busy by codex-working", got.State, got.Evidence)
	}
}

// An input box pushed up by footer lines (status line, todo list) is still
// the input box; the spinner above it still counts.
func TestInputBoxPushedUpByFooter(t *testing.T) {
	footer := []string{
		"  ? for shortcuts · ← for agents",
		"  ☐ Write the tests",
		"  ☐ Update the README",
		"  ☐ Run the linter",
		"  ☐ Commit",
		"  model: opus · ctx 12% · $0.42",
		"  branch: main · 3 files changed",
	}
	idle := append([]string{"● OK done.", "", "✻ Crunched for 0s", "", rule80, "❯ ", rule80}, footer...)
	got := classifyOrFail(t, "claude", screen(80, 24, "claude", "✳ Claude Code", idle...))
	if got.State != AwaitingInput || got.Evidence.Region != "input_box" {
		t.Errorf("idle: got %s %+v, want awaiting_input from input_box", got.State, got.Evidence)
	}
	busy := append([]string{"● Working through it", "", "✽ Crunching… (5s · ↓ 22 tokens)", "  ⎿  Tip: Connect Claude to your IDE", "", rule80, "❯ ", rule80}, footer...)
	got = classifyOrFail(t, "claude", screen(80, 24, "claude", "✳ Claude Code", busy...))
	if got.State != Busy || got.Evidence.Rule != "claude-spinner" {
		t.Errorf("busy: got %s %+v, want busy from claude-spinner", got.State, got.Evidence)
	}
	qwen := append([]string{"  ✦ OK done.", "", rule80, ">   Type your message or @path/to/file", rule80}, "  ? for shortcuts", "  extra status line", "  another status line", "  and one more")
	got = classifyOrFail(t, "qwen", screen(80, 24, "node", "Qwen - proj", qwen...))
	if got.State != AwaitingInput {
		t.Errorf("qwen: got %s %+v, want awaiting_input", got.State, got.Evidence)
	}
}

func TestIsRule(t *testing.T) {
	cases := map[string]bool{
		strings.Repeat("─", 40):        true,
		"  " + strings.Repeat("━", 10): true,
		"──── my-session ───────────────":           true,
		"╭" + strings.Repeat("─", 20) + "╮":         false,
		"│ " + strings.Repeat("─", 20) + " │":       false,
		strings.Repeat("╌", 40):                     false,
		"───":                                       false,
		"─ a long sentence that is not a rule ─── ": false,
	}
	for row, want := range cases {
		if got := isRule(row); got != want {
			t.Errorf("isRule(%q) = %v, want %v", row, got, want)
		}
	}
}

func TestCursorLineRegion(t *testing.T) {
	v := newView(Screen{Rows: []string{"a", "b", ""}, CursorY: 5, Height: 24})
	if lines, _ := v.region(Region{Kind: RegionCursorLine}, nil, nil); len(lines) != 1 || lines[0] != "" {
		t.Errorf("cursor below text: %q", lines)
	}
	v = newView(Screen{Rows: []string{"a", "b", ""}, CursorY: -1})
	if lines, _ := v.region(Region{Kind: RegionCursorLine}, nil, nil); len(lines) != 1 || lines[0] != "b" {
		t.Errorf("unknown cursor: %q", lines)
	}
}

func TestUnframe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"│ ❯ 1. Yes                │", "❯ 1. Yes"},
		{"│ │ fake-gemini-key      │ │", "fake-gemini-key"},
		{"  ┃  Build · Fake Model", "Build · Fake Model"},
		{"▎ Auto mode is on", "Auto mode is on"},
		{"  -rw-r--r-- 1 root  main.py      █", "-rw-r--r-- 1 root  main.py"},
		{"│                      │", ""},
		{"│", ""},
		{"❯ ", "❯"},
		{"a│b", "a│b"},             // a bar inside text is text
		{"│abc", "│abc"},           // no space after the bar: not a frame
		{"████ logo", "████ logo"}, // blocks at the start are drawing, not a scrollbar
	} {
		if got := unframe(c.in); got != c.want {
			t.Errorf("unframe(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A finished Claude turn whose last bullet ends in "… (see log above)" is
// not a spinner: the spinner's stats group starts with a time or a key hint.
func TestClaudeBulletWithEllipsisIsNotBusy(t *testing.T) {
	scr := screen(120, 40, "claude", "✳ Claude Code",
		"❯ run the migration",
		"● Ran the migration… (see log above)",
		"",
		rule120,
		"❯ ",
		rule120,
		"  ⏸ manual mode on · ? for shortcuts",
	)
	if got := classifyOrFail(t, "claude", scr); got.State != AwaitingInput {
		t.Errorf("got %s %+v, want awaiting_input", got.State, got.Evidence)
	}
	scr.Rows[1] = "✽ Migrating… (4s · ↓ 20 tokens)"
	if got := classifyOrFail(t, "claude", scr); got.State != Busy || got.Evidence.Rule != "claude-spinner" {
		t.Errorf("live spinner: got %s %+v, want busy by claude-spinner", got.State, got.Evidence)
	}
}

// A shell whose foreground job nobody recognizes is busy (generic's
// job_fallback); the same screen without a job is unknown, and the evidence
// names what was looked for.
func TestShellJobIsBusy(t *testing.T) {
	scr := cursorBelow(screen(80, 24, "sleep", "", "working", "still working"))
	got := classifyOrFail(t, AutoID, scr)
	if got.State != Unknown || len(got.Evidence.LookedFor) == 0 {
		t.Errorf("no job: got %s %+v, want unknown naming what was looked for", got.State, got.Evidence)
	}
	scr.Job = "sleep"
	got = classifyOrFail(t, AutoID, scr)
	if got.State != Busy || got.Evidence.Region != "job" || got.Evidence.Line != "sleep" || got.NeedsQuiet {
		t.Errorf("job: got %s %+v needs_quiet=%v, want busy from the job region", got.State, got.Evidence, got.NeedsQuiet)
	}
	// a question the job asks still wins
	scr.Rows = append(scr.Rows, "Overwrite? [y/N] ")
	scr.CursorY, scr.CursorX = len(scr.Rows)-1, 17
	if got := classifyOrFail(t, AutoID, scr); got.State != AwaitingApproval {
		t.Errorf("job asking: got %s %+v, want awaiting_approval", got.State, got.Evidence)
	}
}

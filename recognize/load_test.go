package recognize

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeManifest(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestIDs(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"amp", "antigravity", "auto", "claude", "codex", "copilot", "cursor", "droid", "gemini",
		"generic", "grok", "kimi", "node", "opencode", "pi", "python", "qwen", "shell"}
	if got := set.IDs(); !slices.Equal(got, want) {
		t.Errorf("IDs() = %v, want %v", got, want)
	}
}

func TestResolve(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		id   string
		scr  Screen
		want string
	}{
		{"alias", "agy", Screen{}, "antigravity"},
		{"id", "codex", Screen{}, "codex"},
		{"version-string process", AutoID, Screen{Command: "2.1.197"}, "claude"},
		{"node wrapper argv", AutoID, Screen{Command: "node", Args: []string{"node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"}}, "codex"},
		{"node wrapper package dir", AutoID, Screen{Command: "node", Args: []string{"node", "--no-warnings", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js"}}, "gemini"},
		{"bun wrapper", AutoID, Screen{Command: "bun", Args: []string{"bun", "/home/u/.bun/bin/opencode"}}, "opencode"},
		{"python wrapper", AutoID, Screen{Command: "python3", Args: []string{"/usr/bin/python3", "/usr/local/bin/kimi"}}, "kimi"},
		{"bare node", AutoID, Screen{Command: "node", Rows: []string{"> "}}, "node"},
		{"bare python", AutoID, Screen{Command: "python3", Rows: []string{">>> "}}, "python"},
		{"python screen without command", AutoID, Screen{Rows: []string{"Python 3.12.3 (main) on linux", ">>> "}}, "python"},
		{"shell", AutoID, Screen{Command: "zsh"}, "shell"},
		{"login shell", AutoID, Screen{Command: "-bash"}, "shell"},
		{"shell running a command", AutoID, Screen{Command: "make", Rows: []string{"user@devbox:~/src$ make"}}, "shell"},
		{"gemini title", AutoID, Screen{Command: "node", Title: "◇  Ready (proj)"}, "gemini"},
		{"unknown program", AutoID, Screen{Command: "htop", Rows: []string{"CPU 12%"}}, "generic"},
	}
	for _, c := range cases {
		got, err := set.Resolve(c.id, c.scr)
		if err != nil || got != c.want {
			t.Errorf("%s: Resolve(%q) = %q, %v; want %q", c.name, c.id, got, err, c.want)
		}
	}
	_, err = set.Resolve("nope", Screen{})
	if !errors.Is(err, ErrUnknownRecognizer) || !strings.Contains(err.Error(), "claude") || !strings.Contains(err.Error(), "auto") {
		t.Errorf("unknown id: err = %v, want ErrUnknownRecognizer listing the ids", err)
	}
	if _, err := set.Classify("nope", Screen{}); !errors.Is(err, ErrUnknownRecognizer) {
		t.Errorf("Classify unknown id: err = %v", err)
	}
}

func TestUserOverrideAndAddition(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "claude.toml", `
id = "claude"
processes = ["claude"]

[[rules]]
id = "mine"
state = "busy"
region = "screen"
regex = 'custom-busy'
`)
	writeManifest(t, dir, "myagent.toml", `
id = "myagent"
processes = ["myagent"]

[[rules]]
id = "myagent-ready"
state = "awaiting_input"
region = "bottom:1"
regex = '^ready>'
`)
	writeManifest(t, dir, "notes.txt", "not a manifest")
	set, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(set.IDs(), "myagent") {
		t.Errorf("IDs() = %v, want myagent", set.IDs())
	}
	got, err := set.Classify("claude", Screen{Rows: []string{"custom-busy"}, Command: "claude"})
	if err != nil || got.State != Busy || got.Evidence.Rule != "mine" {
		t.Errorf("override: got %+v, %v", got, err)
	}
	if m := set.Manifest("claude"); len(m.Rules) != 1 {
		t.Errorf("the user claude manifest should replace the bundled one, has %d rules", len(m.Rules))
	}
	got, err = set.Classify(AutoID, Screen{Rows: []string{"ready>"}, Command: "myagent"})
	if err != nil || got.Recognizer != "myagent" || got.State != AwaitingInput {
		t.Errorf("user addition via auto: got %+v, %v", got, err)
	}
	// A missing user directory is not an error.
	if _, err := Load(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("missing dir: %v", err)
	}
}

func TestBrokenManifestNamesFileAndLine(t *testing.T) {
	cases := []struct {
		name, text string
		line       int
		msg        string
	}{
		{"toml syntax", "id = \"x\"\n\n[[rules]]\nid = \"r\"\nstate = busy\n", 5, ""},
		{"bad regex", "id = \"x\"\n\n[[rules]]\nid = \"r\"\nstate = \"busy\"\nregion = \"screen\"\nregex = '(unclosed'\n", 7, "invalid regex"},
		{"bad state", "id = \"x\"\n[[rules]]\nid = \"r\"\nstate = \"sleeping\"\n", 4, "unknown state"},
		{"bad region", "id = \"x\"\n[[rules]]\nid = \"r\"\nstate = \"busy\"\nregion = \"bottom:0\"\n", 5, "row count"},
		{"unknown field", "id = \"x\"\nfavourite_colour = \"red\"\n", 2, "unknown field"},
		{"missing regex", "id = \"x\"\n\n\n[[rules]]\nid = \"r\"\nstate = \"busy\"\nregion = \"screen\"\n", 4, "no regex"},
		{"bad id", "\nid = \"Bad Id\"\n", 2, "id"},
		{"reserved id", "id = \"auto\"\n", 1, "reserved"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := writeManifest(t, dir, "broken.toml", c.text)
			_, err := Load(dir)
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("err = %v, want *ManifestError", err)
			}
			if me.File != p || me.Line != c.line || !strings.Contains(me.Msg, c.msg) {
				t.Errorf("got %s:%d %q, want %s:%d containing %q", me.File, me.Line, me.Msg, p, c.line, c.msg)
			}
			if !strings.Contains(err.Error(), p+":") {
				t.Errorf("message %q does not name the file and line", err)
			}
		})
	}
}

func TestDuplicateUserIDs(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "a.toml", "id = \"same\"\n")
	writeManifest(t, dir, "b.toml", "id = \"same\"\n")
	_, err := Load(dir)
	var me *ManifestError
	if !errors.As(err, &me) || !strings.Contains(me.Msg, "a.toml") {
		t.Errorf("err = %v, want a ManifestError naming both files", err)
	}
}

// TestCatastrophicPatternIsBounded: a user rule with a pattern that
// backtracks exponentially is skipped after MatchTimeout, and the next rule
// still decides. (No wall-clock assertion: the call returning is the test.)
func TestCatastrophicPatternIsBounded(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "slow.toml", `
id = "slow"

[[rules]]
id = "evil"
state = "busy"
region = "bottom:1"
regex = '^(a+)+$'

[[rules]]
id = "fine"
state = "awaiting_input"
region = "bottom:1"
regex = 'b$'
`)
	set, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := set.Classify("slow", Screen{Rows: []string{strings.Repeat("a", 40) + "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.State != AwaitingInput || !strings.Contains(got.Note, "evil") {
		t.Errorf("got %+v, want awaiting_input with a note about rule evil", got)
	}
}

// A layer's rules are tried before the user manifest's own, state by state;
// a highlighted option counts only with another option beside it (also).
func TestLayerAndAlso(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "menus.toml", `
id = "menus"
layer = true

[[rules]]
id = "menu-option"
state = "awaiting_approval"
region = "bottom:5"
regex = '^> \d\.'
also = '^\s*\d\.'
`)
	writeManifest(t, dir, "tool.toml", `
id = "tool"
processes = ["tool"]
use = ["menus"]

[[rules]]
id = "tool-busy"
state = "busy"
region = "bottom:5"
regex = 'working'

[[rules]]
id = "tool-prompt"
state = "awaiting_input"
region = "bottom:1"
regex = '^> '
`)
	set, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(set.IDs(), "menus") {
		t.Errorf("a layer is listed as a recognizer: %v", set.IDs())
	}
	if _, err := set.Resolve("menus", Screen{}); !errors.Is(err, ErrUnknownRecognizer) {
		t.Errorf("a layer can be named as a recognizer: %v", err)
	}
	menu := Screen{Rows: []string{"working", "> 1. Yes", "  2. No"}, Command: "tool"}
	if got, _ := set.Classify("tool", menu); got.State != AwaitingApproval || got.Evidence.Rule != "menu-option" {
		t.Errorf("menu: got %+v", got)
	}
	typed := Screen{Rows: []string{"done", "> 1. fix the bug"}, Command: "tool"}
	if got, _ := set.Classify("tool", typed); got.State != AwaitingInput {
		t.Errorf("a prompt starting with '1.' is not a menu: got %+v", got)
	}
}

func TestLayerErrors(t *testing.T) {
	cases := []struct{ name, text, msg string }{
		{"layer with processes", "id = \"l\"\nlayer = true\nprocesses = [\"x\"]\n", "a layer holds rules only"},
		{"unknown layer", "id = \"x\"\nuse = [\"nosuch\"]\n", "not a loaded layer"},
		{"rule id of the layer", "id = \"x\"\nuse = [\"dialogs\"]\n[[rules]]\nid = \"dialog-yes-no\"\nstate = \"busy\"\nregion = \"screen\"\nregex = 'x'\n", "also a rule of layer"},
		{"bad job_fallback", "id = \"x\"\njob_fallback = \"sleepy\"\n", "job_fallback"},
		{"empty echo prefix", "id = \"x\"\necho_prefixes = [\"\"]\n", "echo prefix"},
		{"long echo prefix", "id = \"x\"\necho_prefixes = [\"" + strings.Repeat(">", MaxEchoPrefixLen+1) + "\"]\n", "echo prefix"},
		{"echo prefix of two lines", "id = \"x\"\necho_prefixes = [\"a\\nb\"]\n", "echo prefix"},
		{"layer with echo prefixes", "id = \"l\"\nlayer = true\necho_prefixes = [\"> \"]\n", "a layer holds rules only"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := writeManifest(t, dir, "m.toml", c.text)
			_, err := Load(dir)
			var me *ManifestError
			if !errors.As(err, &me) || me.File != p || me.Line == 0 || !strings.Contains(me.Msg, c.msg) {
				t.Errorf("err = %v, want a ManifestError at a line of %s containing %q", err, p, c.msg)
			}
		})
	}
}

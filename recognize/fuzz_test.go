package recognize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzClassify feeds random screens and random manifest bytes: parsing must
// fail with an error or succeed, and classifying with every recognizer (and
// auto) must return without panicking. Time is bounded by MatchTimeout per
// rule; run it with go test -run x -fuzz FuzzClassify -fuzztime 30s ./recognize.
func FuzzClassify(f *testing.F) {
	bundled, err := Load("")
	if err != nil {
		f.Fatal(err)
	}
	for _, fx := range loadFixtures(f) {
		f.Add(strings.Join(fx.Scr.Rows, "\n"), fx.Scr.Title, fx.Scr.Command, fx.Scr.CursorY, []byte(""))
	}
	entries, err := os.ReadDir("manifests")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("manifests", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add("$ ls\n$ ", "", "bash", 1, data)
	}
	f.Add("aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "t", "x", 0, []byte("id = \"x\"\n[[rules]]\nid = \"r\"\nstate = \"busy\"\nregion = \"screen\"\nregex = '^(a+)+$'\n"))
	f.Add("", "", "", -3, []byte("id = \"x\"\ninput_marker = '('\n"))

	f.Fuzz(func(t *testing.T, text, title, command string, cursorY int, manifest []byte) {
		scr := Screen{Rows: strings.Split(text, "\n"), Title: title, Command: command, CursorY: cursorY, Height: 24, Width: 80,
			Args: strings.Fields(title)}
		sets := []*Set{bundled}
		if m, err := parseManifest("fuzz.toml", manifest); err == nil {
			s, err := newSet([]string{"fuzz.toml"}, map[string][]byte{"fuzz.toml": manifest}, bundled)
			if err != nil {
				t.Skip()
			}
			if !m.Layer && s.Manifest(m.ID) == nil || m.Layer && s.layers[m.ID] == nil {
				t.Fatalf("parsed manifest %q missing from its set", m.ID)
			}
			sets = append(sets, s)
		}
		for _, s := range sets {
			for _, id := range s.IDs() {
				got, err := s.Classify(id, scr)
				if err != nil {
					t.Fatalf("Classify(%q): %v", id, err)
				}
				switch got.State {
				case Busy, AwaitingInput, AwaitingApproval, Unknown:
				default:
					t.Fatalf("Classify(%q) state %q", id, got.State)
				}
			}
		}
	})
}

// FuzzReadDialog feeds random screens to ReadDialog and Choose: no panic,
// unique keys, at most one option highlighted, and every option Choose
// picks is one of the options read.
func FuzzReadDialog(f *testing.F) {
	for _, fx := range loadFixtures(f) {
		f.Add(strings.Join(fx.Scr.Rows, "\n"), "yes")
	}
	f.Add("❯ 1. Yes\n  1. No\n› 2. Maybe", "no")
	f.Add(" → Yes\n   No\n   (1/2)", "always")
	f.Fuzz(func(t *testing.T, text, choice string) {
		d := ReadDialog(Screen{Rows: strings.Split(text, "\n"), CursorY: -1})
		keys := map[string]bool{}
		selected := 0
		for _, o := range d.Options {
			if keys[o.Key] {
				t.Fatalf("key %q twice in %+v", o.Key, d.Options)
			}
			keys[o.Key] = true
			if o.Selected {
				selected++
			}
		}
		if selected > 1 {
			t.Fatalf("%d options highlighted: %+v", selected, d.Options)
		}
		if o, err := Choose(d.Options, choice); err == nil && !keys[o.Key] {
			t.Fatalf("Choose(%q) picked %+v, not an option", choice, o)
		}
	})
}

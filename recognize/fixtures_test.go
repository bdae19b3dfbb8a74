package recognize

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/evidence.golden.json from the current results")

// fixture is one row of testdata/screens/INDEX.tsv with its screen and meta.
type fixture struct {
	File  string
	Agent string
	Label string
	Scr   Screen
}

// wantState maps a fixture label to the state panectl reports:
// "awaiting_approval:dialog" is awaiting_approval.
func (f fixture) wantState() State {
	l, _, _ := strings.Cut(f.Label, ":")
	return State(l)
}

// readScreen returns the rows of a capture-pane -p file, trailing blank rows
// trimmed.
func readScreen(t testing.TB, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
		rows = rows[:len(rows)-1]
	}
	return rows
}

// readMeta parses a fixture's .meta file ("key: value" lines).
func readMeta(t testing.TB, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	meta := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ": ")
		if ok {
			meta[k] = v
		}
	}
	return meta
}

func atoiPair(t testing.TB, s, sep string) (int, int) {
	t.Helper()
	a, b, ok := strings.Cut(s, sep)
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("bad pair %q", s)
	}
	return x, y
}

// fixtureDirs are the captured screen sets, each with an INDEX.tsv: the
// first captures (screens) and the newest agent versions captured live with
// the agent harness (screens-v2).
var fixtureDirs = []string{"screens", "screens-v2", "screens-v3", "screens-v4", "screens-v5"}

// metaValue returns the first of keys present in meta (the two fixture sets
// name the same fields differently: pane_title/title, pane_size/size, ...).
func metaValue(meta map[string]string, keys ...string) string {
	for _, k := range keys {
		if v, ok := meta[k]; ok {
			return v
		}
	}
	return ""
}

// loadFixtures reads every row of every fixtureDirs INDEX.tsv; File is the
// path under testdata ("screens-v2/claude/busy-01.txt").
func loadFixtures(t testing.TB) []fixture {
	t.Helper()
	var out []fixture
	for _, set := range fixtureDirs {
		dir := filepath.Join("testdata", set)
		data, err := os.ReadFile(filepath.Join(dir, "INDEX.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			cols := strings.Split(line, "\t")
			if len(cols) < 9 {
				t.Fatalf("%s/INDEX.tsv: short row %q", set, line)
			}
			meta := readMeta(t, filepath.Join(dir, strings.TrimSuffix(cols[0], ".txt")+".meta"))
			title, command := metaValue(meta, "pane_title", "title"), metaValue(meta, "pane_current_command", "command")
			if title != cols[3] || command != cols[4] {
				t.Fatalf("%s/%s: INDEX.tsv and .meta disagree", set, cols[0])
			}
			w, h := atoiPair(t, metaValue(meta, "pane_size", "size"), "x")
			x, y := atoiPair(t, meta["cursor"], ",")
			out = append(out, fixture{
				File:  set + "/" + cols[0],
				Agent: cols[1],
				Label: cols[2],
				Scr: Screen{
					Rows:        readScreen(t, filepath.Join(dir, cols[0])),
					Title:       title,
					Command:     command,
					CursorX:     x,
					CursorY:     y,
					Width:       w,
					Height:      h,
					AlternateOn: meta["alternate_on"] == "1",
				},
			})
		}
	}
	return out
}

// asFile is the Screen `recognize --file` builds from the same capture: the
// rows, title and command, no cursor, size or argv.
func asFile(s Screen) Screen {
	return Screen{Rows: s.Rows, Title: s.Title, Command: s.Command, CursorY: -1}
}

// goldenEntry is one fixture's results, pinned in evidence.golden.json.
type goldenEntry struct {
	File  string `json:"file"`
	Named Result `json:"named"`
	Auto  Result `json:"auto"`
}

// TestFixtures classifies every captured screen of both sets with its named
// recognizer and with auto, as a live look (cursor, size) and as `recognize
// --file` sees it (no cursor, no argv), and pins the evidence in
// testdata/evidence.golden.json (refresh with go test ./recognize -update).
// Named: every screen gives its label (awaiting_approval:dialog counts as
// awaiting_approval), none unknown. Auto: at least 95% give the label with
// the fixture's agent.
func TestFixtures(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	fixtures := loadFixtures(t)
	if len(fixtures) == 0 {
		t.Fatal("no fixtures")
	}
	var got []goldenEntry
	autoRight, autoTotal := 0, 0
	for _, f := range fixtures {
		for _, look := range []struct {
			how string
			scr Screen
		}{{"live", f.Scr}, {"file", asFile(f.Scr)}} {
			named, err := set.Classify(f.Agent, look.scr)
			if err != nil {
				t.Fatal(err)
			}
			if named.State != f.wantState() {
				t.Errorf("%s (%s): %s says %s (%+v; %s), want %s", f.File, look.how, f.Agent, named.State, named.Evidence, named.Note, f.wantState())
			}
			auto, err := set.Classify(AutoID, look.scr)
			if err != nil {
				t.Fatal(err)
			}
			autoTotal++
			if auto.Recognizer == f.Agent && auto.State == f.wantState() {
				autoRight++
			} else {
				t.Logf("%s (%s): auto says %s/%s (%+v), want %s/%s", f.File, look.how, auto.Recognizer, auto.State, auto.Evidence, f.Agent, f.wantState())
			}
			if look.how == "live" {
				got = append(got, goldenEntry{File: f.File, Named: named, Auto: auto})
			}
		}
	}
	if autoRight*100 < autoTotal*95 {
		t.Errorf("auto gave the label on %d of %d looks, want at least 95%%", autoRight, autoTotal)
	}
	checkGolden(t, filepath.Join("testdata", "evidence.golden.json"), got)
}

func checkGolden(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *update {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./recognize -update to create it)", err)
	}
	if !bytes.Equal(want, data) {
		t.Errorf("%s differs from the current results; if the change is intended run go test ./recognize -update and review the diff.\ngot:\n%s", path, data)
	}
}

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

func loadFixtures(t testing.TB) []fixture {
	t.Helper()
	dir := filepath.Join("testdata", "screens")
	data, err := os.ReadFile(filepath.Join(dir, "INDEX.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []fixture
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 9 {
			t.Fatalf("INDEX.tsv: short row %q", line)
		}
		meta := readMeta(t, filepath.Join(dir, strings.TrimSuffix(cols[0], ".txt")+".meta"))
		if meta["pane_title"] != cols[3] || meta["pane_current_command"] != cols[4] {
			t.Fatalf("%s: INDEX.tsv and .meta disagree", cols[0])
		}
		w, h := atoiPair(t, meta["pane_size"], "x")
		x, y := atoiPair(t, meta["cursor"], ",")
		out = append(out, fixture{
			File:  cols[0],
			Agent: cols[1],
			Label: cols[2],
			Scr: Screen{
				Rows:        readScreen(t, filepath.Join(dir, cols[0])),
				Title:       meta["pane_title"],
				Command:     meta["pane_current_command"],
				CursorX:     x,
				CursorY:     y,
				Width:       w,
				Height:      h,
				AlternateOn: meta["alternate_on"] == "1",
			},
		})
	}
	return out
}

// goldenEntry is one fixture's results, pinned in evidence.golden.json.
type goldenEntry struct {
	File  string `json:"file"`
	Named Result `json:"named"`
	Auto  Result `json:"auto"`
}

// TestFixtures classifies every captured screen with its named recognizer and
// with auto, and pins the evidence in testdata/evidence.golden.json
// (refresh with go test ./recognize -update).
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
	for _, f := range fixtures {
		named, err := set.Classify(f.Agent, f.Scr)
		if err != nil {
			t.Fatal(err)
		}
		auto, err := set.Classify(AutoID, f.Scr)
		if err != nil {
			t.Fatal(err)
		}
		if named.State != f.wantState() {
			t.Errorf("%s: %s says %s (%+v), want %s", f.File, f.Agent, named.State, named.Evidence, f.wantState())
		}
		if auto.Recognizer != f.Agent {
			t.Errorf("%s: auto resolved to %s, want %s", f.File, auto.Recognizer, f.Agent)
		}
		if auto.State != f.wantState() {
			t.Errorf("%s: auto says %s (%+v), want %s", f.File, auto.State, auto.Evidence, f.wantState())
		}
		got = append(got, goldenEntry{File: f.File, Named: named, Auto: auto})
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

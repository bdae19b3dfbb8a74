package cmd_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/panectl/panectl/cmd"
	"github.com/panectl/panectl/schema"
)

// fixtureSets are the captured screen sets under recognize/testdata, each
// with an INDEX.tsv (file, agent, label, title, command, version, size,
// alternate_on, cursor).
var fixtureSets = []string{"screens", "screens-v2", "screens-v3", "screens-v4", "screens-v5"}

// fixtureRow is one INDEX.tsv row.
type fixtureRow struct {
	dir, file, agent, label, title, command, size string
}

func (r fixtureRow) state() string { s, _, _ := strings.Cut(r.label, ":"); return s }

func fixtureRows(t *testing.T) []fixtureRow {
	t.Helper()
	var rows []fixtureRow
	for _, set := range fixtureSets {
		dir, err := filepath.Abs(filepath.Join("..", "recognize", "testdata", set))
		if err != nil {
			t.Fatal(err)
		}
		index, err := os.ReadFile(filepath.Join(dir, "INDEX.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(index), "\n") {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			c := strings.Split(line, "\t")
			if len(c) < 9 {
				t.Fatalf("%s/INDEX.tsv: short row %q", set, line)
			}
			rows = append(rows, fixtureRow{dir: dir, file: c[0], agent: c[1], label: c[2], title: c[3], command: c[4], size: c[6]})
		}
	}
	return rows
}

// TestRecognizeFileFixtures runs `panectl recognize --file` (the command
// tree, in process) on every screen of both fixture sets with the row's
// title and command: with the row's recognizer every screen gives its label
// (awaiting_approval:dialog counts as awaiting_approval) and none is
// unknown; with auto at least 95% give the label and the row's agent.
func TestRecognizeFileFixtures(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	recognizeFile := func(r fixtureRow, recognizer string) schema.RecognizeOutput {
		var out, errOut bytes.Buffer
		f := &cmd.Factory{IO: cmd.IOStreams{Out: &out, ErrOut: &errOut, In: strings.NewReader("")}}
		root := cmd.NewRootCmd(f)
		root.SetArgs([]string{"--json", "recognize", "--file", filepath.Join(r.dir, r.file),
			"--recognizer", recognizer, "--title", r.title, "--command", r.command})
		if err := root.Execute(); err != nil {
			t.Fatalf("%s: %v %s", r.file, err, errOut.String())
		}
		var got schema.RecognizeOutput
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%s: %v in %q", r.file, err, out.String())
		}
		return got
	}
	rows := fixtureRows(t)
	autoRight := 0
	for _, r := range rows {
		named := recognizeFile(r, r.agent)
		if string(named.State) != r.state() || named.State == "unknown" {
			t.Errorf("%s: recognize --file --recognizer %s says %s (%+v, %s), want %s", r.file, r.agent, named.State, named.Evidence, named.Note, r.label)
		}
		auto := recognizeFile(r, "auto")
		if string(auto.State) == r.state() && auto.Recognizer == r.agent {
			autoRight++
		} else {
			t.Logf("%s: recognize --file (auto) says %s/%s, want %s/%s", r.file, auto.Recognizer, auto.State, r.agent, r.state())
		}
	}
	t.Logf("auto: %d of %d screens", autoRight, len(rows))
	if autoRight*100 < len(rows)*95 {
		t.Errorf("recognize --file with auto gave the label on %d of %d screens, want at least 95%%", autoRight, len(rows))
	}
}

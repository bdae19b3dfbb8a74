package cmd_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/panectl/panectl/cmd"
	"github.com/panectl/panectl/schema"
	"github.com/rogpeppe/go-internal/testscript"
)

// fixtureSets are the captured screen sets under recognize/testdata, each
// with an INDEX.tsv (file, agent, label, title, command, version, size,
// alternate_on, cursor).
var fixtureSets = []string{"screens", "screens-v2", "screens-v3", "screens-v4"}

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

// TestFixtureScreens classifies captured screens of both fixture sets as
// labelled through a real pane of the fixture's size that shows it (the
// title set with OSC 2, the cursor put back where it was, the alternate
// screen on when it was, and the foreground process named as the agent's),
// with both the named recognizer and auto; and through `recognize --file`
// (with the title and command it had). One fixture per set, agent and label
// (every fixture with -args -fixtures). The script is
// generated from the INDEX.tsv files so a new fixture is tested without
// editing anything here.
func TestFixtureScreens(t *testing.T) {
	requireTmux(t)
	var b strings.Builder
	n := 0
	seen := map[string]bool{}
	for _, r := range fixtureRows(t) {
		key := r.dir + r.agent + r.label
		if !*allFixtures && seen[key] {
			continue
		}
		seen[key] = true
		base := filepath.Join(r.dir, strings.TrimSuffix(r.file, ".txt"))
		state := r.state()
		n++
		fmt.Fprintf(&b, "# %s: %s\n", r.file, r.label)
		fmt.Fprintf(&b, "code 0 panectl -L t --json recognize --file %s --recognizer %s --title %s --command %s\n", quote(base+".txt"), r.agent, quote(r.title), quote(r.command))
		fmt.Fprintf(&b, "jsonfield state '\"%s\"'\njsonfield recognizer '\"%s\"'\njsonfield evidence.rule '.'\n", state, r.agent)
		fmt.Fprintf(&b, "exec panectl -L t new --size %s -- bash $WORK/show.sh %s shown%d\nenvstdout P\ntmux wait-for shown%d\n", r.size, quote(base), n, n)
		fmt.Fprintf(&b, "code 0 panectl -L t --json recognize $P --recognizer %s\n", r.agent)
		fmt.Fprintf(&b, "jsonfield state '\"%s\"'\njsonfield evidence.rule '.'\n", state)
		fmt.Fprintf(&b, "code 0 panectl -L t --json recognize $P\n")
		fmt.Fprintf(&b, "jsonfield state '\"%s\"'\njsonfield recognizer '\"%s\"'\n", state, r.agent)
		fmt.Fprintf(&b, "exec panectl -L t kill $P\n\n")
	}
	b.WriteString(showScript)
	sdir := t.TempDir()
	if err := os.WriteFile(filepath.Join(sdir, "fixtures.txtar"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, params(sdir, "bash"))
}

var allFixtures = flag.Bool("fixtures", false, "TestFixtureScreens: replay every fixture in a pane, not one per set, agent and label")

// quote renders s as one testscript argument (single quotes, ” for ').
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// showScript draws a fixture in the pane it runs in, signals the tmux
// channel $2, and leaves a process named as the fixture's foreground
// command in the foreground.
const showScript = `-- show.sh --
meta=$1.meta
get() { sed -n "s/^$1: //p" "$meta"; }
title=$(get pane_title; get title)
cmd=$(get pane_current_command; get command)
cur=$(get cursor)
if [ "$(get alternate_on)" = 1 ]; then printf '\033[?1049h'; fi
printf '\033[H\033[2J'
printf '%s' "$(cat "$1.txt")"
printf '\033[%d;%dH' $(( ${cur#*,} + 1 )) $(( ${cur%,*} + 1 ))
printf '\033]2;%s\033\\' "$title"
(sleep 0.3; tmux wait-for -S "$2") &
exec -a "$cmd" sleep 1000
`

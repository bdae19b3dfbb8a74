//go:build e2e

package cmd_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

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

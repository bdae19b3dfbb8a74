package waiter

import (
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/tmux"
)

func TestLost(t *testing.T) {
	const B, P1, P2 = "PANECTL:B:aa", "PANECTL:P:p1", "PANECTL:P:p2"
	cases := []struct {
		name   string
		lines  []string
		probes []string
		want   bool
	}{
		{"nothing yet", []string{"$ echo"}, []string{P1}, false},
		{"probe printed, no begin: lost", []string{"$ x", P1, "$"}, []string{P1}, true},
		{"begin before probe: slow, not lost", []string{B, "out", P1}, []string{P1}, false},
		{"second probe printed", []string{P2}, []string{P1, P2}, true},
		{"no probes", []string{"$"}, nil, false},
		{"echo of the probe is not the probe", []string{`$ printf '\120ANECTL:P:p1\n'`}, []string{P1}, false},
	}
	for _, c := range cases {
		if got := lost(c.lines, B, c.probes); got != c.want {
			t.Errorf("%s: lost = %v; want %v", c.name, got, c.want)
		}
	}
}

func TestKeepNewest(t *testing.T) {
	lines := strings.Split("a b c d", " ")
	if got, cut := keepNewest(lines, 2); strings.Join(got, "") != "cd" || !cut {
		t.Errorf("keepNewest(2) = %q, %v", got, cut)
	}
	if got, cut := keepNewest(lines, 0); len(got) != 4 || cut {
		t.Errorf("keepNewest(0) = %q, %v", got, cut)
	}
}

func TestNextStep(t *testing.T) {
	cases := []struct {
		name string
		look runLook
		want runStep
	}{
		{"nothing yet", runLook{}, stepWait},
		{"end marker", runLook{began: true, ended: true}, stepEnded},
		{"end marker wins over a dead pane", runLook{began: true, ended: true, dead: true}, stepEnded},
		{"fish could not parse", runLook{ended: true, fishWhole: true}, stepUnparsed},
		{"end without begin, not fish", runLook{ended: true}, stepEnded},
		{"dead before the end", runLook{began: true, dead: true}, stepDead},
		{"rejected on every attempt", runLook{restful: true, rejections: 2, attempts: 2}, stepRejected},
		{"one attempt is not enough to reject", runLook{restful: true, rejections: 1, attempts: 1, graceOver: true}, stepWait},
		{"fewer messages than attempts", runLook{restful: true, rejections: 1, attempts: 2}, stepWait},
		{"messages while not rested", runLook{rejections: 2, attempts: 2}, stepWait},
		{"back at the prompt after the begin marker", runLook{began: true, restful: true, back: true}, stepInterrupted},
		{"back but not rested", runLook{began: true, back: true}, stepWait},
		{"lost within the grace period", runLook{lost: true, probeDue: true}, stepWait},
		{"lost after the grace period", runLook{graceOver: true, lost: true, probeDue: true}, stepRetype},
		{"no begin marker after the grace period", runLook{graceOver: true, probeDue: true}, stepProbe},
		{"a probe not due yet", runLook{graceOver: true}, stepWait},
		{"began: no probe", runLook{began: true, graceOver: true, probeDue: true}, stepWait},
	}
	for _, c := range cases {
		if got := nextStep(c.look); got != c.want {
			t.Errorf("%s: nextStep = %d; want %d", c.name, got, c.want)
		}
	}
}

func TestReadsInFull(t *testing.T) {
	const g = time.Second
	cases := []struct {
		name                  string
		due, began, restful   bool
		sinceFull, sinceTyped time.Duration
		want                  bool
	}{
		{"a cheap look", false, false, false, 0, 0, false},
		{"the deadline", true, true, false, 0, 0, true},
		{"rested", false, true, true, 0, 0, true},
		{"a grace period without the begin marker", false, false, false, g, g, true},
		{"a full read within the grace period", false, false, false, g / 2, g, false},
		{"typed again within the grace period", false, false, false, g, g / 2, false},
		{"began: the grace does not matter", false, true, false, g, g, false},
	}
	for _, c := range cases {
		if got := readsInFull(c.due, c.began, c.sinceFull, c.sinceTyped, g, c.restful); got != c.want {
			t.Errorf("%s: readsInFull = %v; want %v", c.name, got, c.want)
		}
	}
}

func TestRefusal(t *testing.T) {
	shell := tmux.PaneInfo{ID: "%1", Command: "bash"}
	bash := proc.Foreground{Name: "bash", Args: []string{"bash"}, PID: 9, Exe: "/usr/bin/bash"}
	vim := proc.Foreground{Name: "vim", Args: []string{"vim"}, PID: 9, Exe: "/usr/bin/vim"}
	fake := proc.Foreground{Name: "bash", Args: []string{"bash"}, PID: 9, Exe: "/usr/bin/python3.11"}
	type refusalCase struct {
		name    string
		info    tmux.PaneInfo
		fg      proc.Foreground
		waited  time.Duration
		ok      bool
		refused string // part of the reason ("": not refused)
	}
	cases := []refusalCase{
		{"a shell", shell, bash, 0, true, ""},
		{"dead", tmux.PaneInfo{ID: "%1", Command: "bash", Dead: true, DeadStatus: 3}, bash, 0, false, "dead"},
		{"copy mode", tmux.PaneInfo{ID: "%1", Command: "bash", InMode: true}, bash, 0, false, "copy mode"},
		{"not a shell yet", tmux.PaneInfo{ID: "%1", Command: "vim"}, vim, 0, false, ""},
		{"not a shell after the grace", tmux.PaneInfo{ID: "%1", Command: "vim"}, vim, notShellGrace, false, `"vim"`},
	}
	if proc.ExeKnowable {
		cases = append(cases, refusalCase{"a program calling itself bash", shell, fake, notShellGrace, false,
			`calls itself "bash", but its executable is /usr/bin/python3.11`})
	}
	for _, c := range cases {
		_, ok, err := refusal(c.info, c.fg, c.waited)
		if ok != c.ok {
			t.Errorf("%s: ok = %v; want %v", c.name, ok, c.ok)
		}
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s: error %v; want one saying %q", c.name, err, c.refused)
		}
	}
}

// A start-up script that may exec a shell is the pane's own process, a
// shell interpreting a script.
func TestStartScript(t *testing.T) {
	script := proc.Foreground{Name: "bash", Args: []string{"bash", "-c", "sleep 1; exec bash"}, PID: 7}
	cases := []struct {
		name string
		fg   proc.Foreground
		want bool
	}{
		{"start-up script", script, true},
		{"a job of the pane's shell", proc.Foreground{Name: "bash", Args: script.Args, PID: 8}, false},
		{"no shell", proc.Foreground{Name: "sleep", Args: []string{"sleep", "30"}, PID: 7}, false},
		{"a shell at its prompt", proc.Foreground{Name: "bash", Args: []string{"bash"}, PID: 7}, false},
		{"a task", proc.Foreground{Name: "bash", Args: script.Args, PID: 7, Task: true}, false},
	}
	for _, c := range cases {
		if got := startScript(c.fg, 7); got != c.want {
			t.Errorf("%s: startScript = %v; want %v", c.name, got, c.want)
		}
	}
}

// tmux's dead-pane line is cut from the end, also where it joined the
// bottom row, with the blank rows before it; the command's lines stay.
func TestWithoutBanner(t *testing.T) {
	const b = "Pane is dead (status 3, Sun Dec  6 02:39:15 2026)"
	cases := []struct {
		name   string
		lines  []string
		banner string
		want   []string
	}{
		{"blank rows above it", []string{"bye", "exit", "", "", b}, b, []string{"bye", "exit"}},
		{"joined to the bottom row", []string{"29", "last words" + b}, b, []string{"29", "last words"}},
		{"no line drawn", []string{"bye", ""}, "", []string{"bye"}},
		{"a line of the command's own elsewhere", []string{b, "bye"}, b, []string{b, "bye"}},
		{"nothing left", []string{"", b}, b, nil},
	}
	for _, c := range cases {
		if got := withoutBanner(c.lines, c.banner); strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("%s: withoutBanner = %q; want %q", c.name, got, c.want)
		}
	}
}

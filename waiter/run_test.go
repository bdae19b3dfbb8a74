package waiter

import (
	"strings"
	"testing"
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

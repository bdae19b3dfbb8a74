package cmd

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// drawProgress writes to stderr only on terminals, and colour only when
// allowed; never for --json or for panectl's own pane.
func TestDrawProgress(t *testing.T) {
	t.Setenv("TMUX_PANE", "%9")
	for _, tc := range []struct {
		name                string
		outTTY, errTTY, col bool
		json                bool
		pane                string
		want                string // "" means nothing at all
		dim                 bool
	}{
		{name: "not a terminal", pane: "%1"},
		{name: "stdout piped", errTTY: true, col: true, pane: "%1"},
		{name: "stderr piped", outTTY: true, pane: "%1"},
		{name: "json", outTTY: true, errTTY: true, col: true, json: true, pane: "%1"},
		{name: "own pane", outTTY: true, errTTY: true, col: true, pane: "%9"},
		{name: "terminal", outTTY: true, errTTY: true, col: true, pane: "%1", want: "waiting for text x in %1: 2s of 30s", dim: true},
		{name: "NO_COLOR", outTTY: true, errTTY: true, pane: "%1", want: "waiting for text x in %1: 2s of 30s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			f := &Factory{IO: IOStreams{ErrOut: &buf, OutTTY: tc.outTTY, ErrTTY: tc.errTTY, ErrColor: tc.col}, JSON: tc.json}
			f.drawProgress(tc.pane, 2*time.Second, 30*time.Second, "text x")
			f.clearProgress()
			got := buf.String()
			if tc.want == "" {
				if got != "" {
					t.Fatalf("stderr = %q, want nothing", got)
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("stderr = %q, want %q", got, tc.want)
			}
			if dim := strings.Contains(got, "\033[2m"); dim != tc.dim {
				t.Fatalf("stderr = %q: dim %v, want %v", got, dim, tc.dim)
			}
			if !strings.HasSuffix(got, "\r\033[K") {
				t.Fatalf("stderr = %q: the line is not erased at the end", got)
			}
		})
	}
}

// A long description is cut on a rune boundary.
func TestDrawProgressTruncatesRunes(t *testing.T) {
	var buf bytes.Buffer
	f := &Factory{IO: IOStreams{ErrOut: &buf, OutTTY: true, ErrTTY: true}}
	f.drawProgress("%1", time.Second, time.Minute, strings.Repeat("é", 80))
	if !strings.Contains(buf.String(), strings.Repeat("é", 57)+"...") || !utf8Valid(buf.String()) {
		t.Fatalf("stderr = %q", buf.String())
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

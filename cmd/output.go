package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

// emit prints a command's output: the JSON object with --json, else the
// plain lines human writes.
func (f *Factory) emit(out any, human func(w io.Writer)) error {
	f.clearProgress()
	if f.JSON {
		enc := json.NewEncoder(f.IO.Out)
		enc.SetEscapeHTML(false)
		return enc.Encode(out)
	}
	if human != nil {
		human(f.IO.Out)
	}
	return nil
}

// marshal is json.Marshal without HTML escaping: text reaches people and
// models as it is (&&, <, >), not as \u0026.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// maxQuoted bounds a line quoted in a message: a message stays a few KiB
// whatever the pane printed.
const maxQuoted = 200

// cutLines cuts each line past maxQuoted bytes, saying how many were cut.
func cutLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) <= maxQuoted {
			out[i] = l
			continue
		}
		n := maxQuoted
		for n > 0 && !utf8.RuneStart(l[n]) {
			n--
		}
		out[i] = fmt.Sprintf("%s... (%d more bytes)", l[:n], len(l)-n)
	}
	return out
}

func printLines(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// parseTimeout reads a timeout flag value in seconds.
func parseTimeout(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		// a number too large for a float64 is +Inf, clamped like any other
		if v != v { // NaN
			return 0, tool.Usagef("invalid timeout %q: want seconds (1.5) or a duration (500ms, 2s, 1m)", s)
		}
		return v, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, tool.Usagef("invalid timeout %q: want seconds (1.5) or a duration (500ms, 2s, 1m)", s)
	}
	return d.Seconds(), nil
}

// explicitMaxLines rejects --max-lines 0 given on the command line (0 in
// the input type means "not given": the default).
func explicitMaxLines(c *cobra.Command, n int) error {
	if c.Flags().Changed("max-lines") && n == 0 {
		return tool.Usagef("--max-lines 0 is out of range: want 1..%d", schema.MaxLines)
	}
	return nil
}

// drawProgress shows a long wait's progress on a terminal's stderr: one
// line, redrawn in place, dim when colour is allowed. Only when both stdout
// and stderr are terminals, never with --json, and never for the pane
// panectl itself runs in (the line would become that pane's output).
func (f *Factory) drawProgress(paneID string, elapsed, timeout time.Duration, what string) {
	if f.JSON || !f.IO.OutTTY || !f.IO.ErrTTY || paneID == os.Getenv("TMUX_PANE") {
		return
	}
	if r := []rune(what); len(r) > 60 {
		what = string(r[:57]) + "..."
	}
	line := "waiting for " + what
	if paneID != "" {
		line += " in " + paneID
	}
	line += fmt.Sprintf(": %.0fs", elapsed.Seconds())
	if timeout > 0 {
		line += fmt.Sprintf(" of %.0fs", timeout.Seconds())
	}
	if f.IO.ErrColor {
		line = "\033[2m" + line + "\033[0m"
	}
	fmt.Fprint(f.IO.ErrOut, "\r\033[K"+line)
	f.progressShown = true
}

// clearProgress erases the progress line before panectl prints or exits.
func (f *Factory) clearProgress() {
	if f.progressShown {
		fmt.Fprint(f.IO.ErrOut, "\r\033[K")
		f.progressShown = false
	}
}

// timeoutHelp is the help of a --timeout flag.
func timeoutHelp() string {
	return "seconds (1.5) or a duration (500ms, 2s, 1m); " + schema.Bound("timeout")
}

// timeoutFlag is a --timeout flag filling an input's Timeout field (nil
// until given: the default applies): seconds (1.5) or a Go duration (500ms,
// 2s, 1m). A bad value is a usage error (exit 2).
type timeoutFlag struct{ p **float64 }

func (t timeoutFlag) String() string {
	if *t.p == nil {
		return ""
	}
	return strconv.FormatFloat(**t.p, 'g', -1, 64)
}

func (t timeoutFlag) Set(s string) error {
	v, err := parseTimeout(s)
	if err != nil {
		return err
	}
	*t.p = &v
	return nil
}

func (t timeoutFlag) Type() string { return "seconds" }

package panerow

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// fixedValues are a live pane's fixed fields, as tmux prints them.
var fixedValues = map[string]string{
	"pane_id": "%3", "session_id": "$1", "window_id": "@2", "window_index": "0", "pane_index": "1",
	"pane_pid": "4242", "pane_tty": "/dev/pts/3", "pane_width": "80", "pane_height": "24",
	"pane_dead_status": "", "pane_dead_signal": "", "history_size": "120", "history_limit": "2000",
	"cursor_x": "2", "cursor_y": "5", "alternate_saved_y": "", "focus-events": "off", "session_attached": "0",
	"scroll_region_lower": "23",
}

// printRow prints r's format as tmux would: fixed holds the fixed fields
// (default fixedValues, else "0"), texts the free text in paneTexts' order.
// With vis, the text goes through vis(3) as tmux 3.4 and 3.5 print it.
func printRow(r Row, fixed map[string]string, texts []string, vis bool) string {
	text := map[string]string{}
	for i, t := range paneTexts {
		text[t] = texts[i]
	}
	return regexp.MustCompile(`#\{(n:)?([@a-z_-]+)\}`).ReplaceAllStringFunc(r.Format(), func(m string) string {
		name := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(m, "#{"), "n:"), "}")
		t, isText := text[name]
		switch {
		case strings.HasPrefix(m, "#{n:"):
			return fmt.Sprint(len(t))
		case isText && vis:
			return strvis(t)
		case isText:
			return t
		}
		if v, ok := fixed[name]; ok {
			return v
		}
		if v, ok := fixedValues[name]; ok {
			return v
		}
		return "0"
	}) + "\n"
}

// strvis is tmux's utf8_strvis with VIS_OCTAL|VIS_CSTYLE|VIS_NOSLASH: UTF-8
// characters, printable ASCII, space, tab and newline as they are; other
// bytes as C escapes or "\ooo".
func strvis(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		c := s[i]
		switch {
		case n > 1 && r != utf8.RuneError:
			b.WriteString(s[i : i+n])
			i += n
			continue
		case c >= 0x21 && c < 0x7f || c == ' ' || c == '\t' || c == '\n':
			b.WriteByte(c)
		case strings.IndexByte("\r\b\a\v\f", c) >= 0:
			b.WriteString(map[byte]string{'\r': `\r`, '\b': `\b`, '\a': `\a`, '\v': `\v`, '\f': `\f`}[c])
		case c == 0 && (i+1 == len(s) || s[i+1] < '0' || s[i+1] > '7'):
			b.WriteString(`\0`)
		default:
			fmt.Fprintf(&b, `\%03o`, c)
		}
		i++
	}
	return b.String()
}

func TestParsePane(t *testing.T) {
	r := New("0123456789abcdef")
	texts := []string{"my sess", "bash", "/srv/work", "bash -l", "/state/p3", "title \u241f with sep"}
	p, rest, err := r.Parse(printRow(r, nil, texts, false) + "after")
	if err != nil {
		t.Fatal(err)
	}
	want := PaneInfo{ID: "%3", SessionID: "$1", SessionName: "my sess", WindowID: "@2", PaneIndex: 1, Command: "bash",
		StartCommand: "bash -l", Journal: "/state/p3", PID: 4242, TTY: "/dev/pts/3", CWD: "/srv/work", Width: 80, Height: 24, HistorySize: 120,
		HistoryLimit: 2000, CursorX: 2, CursorY: 5, ScrollLower: 23, Title: "title \u241f with sep"}
	if p != want || rest != "after" {
		t.Fatalf("parse = %+v, rest %q\nwant %+v", p, rest, want)
	}
	if _, _, err := r.Parse("garbage"); err == nil {
		t.Error("malformed row: want an error")
	}
	for field, v := range map[string]string{"pane_pid": "notanumber", "pane_id": "3", "session_id": "$", "pane_tty": "/dev/../etc/passwd",
		"pane_dead": "yes", "cursor_x": "-1", "window_id": "@1x"} {
		if _, _, err := r.Parse(printRow(r, map[string]string{field: v}, texts, false)); err == nil {
			t.Errorf("%s %q: want an error", field, v)
		}
	}
	empty := map[string]string{}
	for _, f := range paneFixed {
		empty[f.name] = ""
	}
	if _, _, err := r.Parse(printRow(r, empty, make([]string, len(paneTexts)), false)); !errors.Is(err, ErrNoPane) {
		t.Errorf("empty row: %v, want ErrNoPane", err)
	}
}

// Free text holding separators, newlines and whole forged rows comes back
// exactly, in a listing of two panes. Without vis(3) even a forged row with
// the call's nonce (read from the tmux client's argv) cannot shift a field.
// Under vis (tmux 3.4, 3.5) one without it cannot.
func TestParsePaneForgedText(t *testing.T) {
	r := New("0123456789abcdef")
	for _, vis := range []bool{false, true} {
		forger := r
		if vis {
			forger = New("fedcba9876543210")
		}
		other := printRow(forger, map[string]string{"pane_id": "%0", "session_id": "$9", "window_id": "@9"}, []string{"build", "bash", "/root", "bash", "", "t"}, false)
		forged := "x" + sep + "80\n" + strings.TrimSuffix(other, "\n") + "\n" + "\x1f\u241e"
		texts := []string{"s" + sep, forged, "/tmp/a\x1fb\nc" + forger.textSep(), forged, forged, "t"}
		out := printRow(r, nil, texts, vis) + printRow(r, map[string]string{"pane_id": "%4"}, texts, vis)
		for i, id := range []string{"%3", "%4"} {
			p, rest, err := r.Parse(out)
			if err != nil || p.ID != id || p.SessionName != texts[0] || p.Command != forged || p.CWD != texts[2] || p.StartCommand != forged {
				t.Fatalf("vis %v row %d: %+v, %v", vis, i, p, err)
			}
			out = rest
		}
		if out != "" {
			t.Errorf("vis %v: left %q", vis, out)
		}
	}
}

// A row whose text is cut short is that row's error: the next row parses.
// The cwd and command may change between their length and themselves (tmux
// reads them from /proc at each use): those are taken up to the next
// separator.
func TestParsePaneBadRowSkipped(t *testing.T) {
	r := New("0123456789abcdef")
	texts := []string{"s", "bash", "/tmp", "bash", "", "title"}
	moved := strings.Replace(printRow(r, nil, texts, false), "/tmp", "/tmp/b", 1)
	if p, _, err := r.Parse(moved); err != nil || p.CWD != "/tmp/b" {
		t.Fatalf("a cwd that changed: %+v, %v", p, err)
	}
	good := printRow(r, map[string]string{"pane_id": "%5"}, texts, false)
	bad := strings.Replace(printRow(r, nil, texts, false), "title", "titl", 1)
	p, rest, err := r.Parse(bad + good)
	if err == nil || p.ID != "%3" {
		t.Fatalf("cut text: %+v, %v; want an error with the pane's id", p, err)
	}
	if p, rest, err = r.Parse(rest); err != nil || p.ID != "%5" || rest != "" {
		t.Fatalf("the next row: %+v, %q, %v", p, rest, err)
	}
}

// FuzzParsePane puts arbitrary bytes in every free-text field of two rows:
// the parse gives back exactly the fixed fields and texts printed, never
// shifted ones. Under vis(3) (tmux 3.4, 3.5) a text may also be an error,
// when it holds what vis does not escape (a backslash) beside what it does,
// or the call's own separator.
func FuzzParsePane(f *testing.F) {
	f.Add("s", "bash", "/srv/work", "bash", "title", false)
	f.Add("s\u241f1", "x\x1f%9\u241f$9", "/tmp/a\x1fb\nc", "", "\u241e", true)
	f.Add(`a\n`, "\n", `\001`+"\x01", "\x00", `\`, true)
	f.Fuzz(func(t *testing.T, name, cmd, cwd, start, title string, vis bool) {
		r := Row{nonce: "0123456789abcdef"}
		texts := []string{name, cmd, cwd, start, cmd + start, title} // the journal option: any bytes too
		out := printRow(r, nil, texts, vis) + printRow(r, map[string]string{"pane_id": "%4", "pane_pid": "7"}, texts, vis)
		for i, id := range []string{"%3", "%4"} {
			p, rest, err := r.Parse(out)
			got := []string{p.SessionName, p.Command, p.CWD, p.StartCommand, p.Journal, p.Title}
			switch {
			case err == nil && (p.ID != id || strings.Join(got, "|") != strings.Join(texts, "|")):
				t.Fatalf("vis %v row %d: parsed %+v from texts %q", vis, i, p, texts)
			case err != nil && (!vis || p.ID != "" && p.ID != id):
				if !vis || !strings.Contains(strings.Join(texts, ""), r.nonce) {
					t.Fatalf("vis %v row %d: %v (pane %q) from texts %q", vis, i, err, p.ID, texts)
				}
			}
			out = rest
		}
	})
}

// Arbitrary bytes as tmux's whole answer: no panic, and what parses has
// checked ids.
func FuzzParsePaneAnswer(f *testing.F) {
	r := Row{nonce: "0123456789abcdef"}
	f.Add(printRow(r, nil, []string{"s", "bash", "/", "bash", "", "t"}, false))
	f.Add("")
	f.Fuzz(func(t *testing.T, out string) {
		for i := 0; out != "" && i < 100; i++ {
			p, rest, err := r.Parse(out)
			if err == nil && (!fixedOK("%", p.ID) || !fixedOK("$", p.SessionID) || !fixedOK("@", p.WindowID)) {
				t.Fatalf("parsed %+v from %q", p, out)
			}
			if len(rest) >= len(out) {
				t.Fatalf("rest %q did not shrink from %q", rest, out)
			}
			out = rest
		}
	})
}

func TestUnvis(t *testing.T) {
	for _, s := range []string{"", "plain", "a\x1fb", "\x00", "\x001", "\r\n\t\x7f\xff", "é\x01"} {
		if got := unvis(strvis(s)); got != s {
			t.Errorf("unvis(strvis(%q)) = %q", s, got)
		}
	}
}

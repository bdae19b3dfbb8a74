package tmux

import (
	"os"
	"strings"
	"testing"
)

// parseArguments is tmux 3.3a's cmd_parse_from_arguments (cmd-parse.y) as
// a model: the argument vector split into commands at arguments ending in
// ";", "\;" at the end of an argument keeping a ";" as data.
func parseArguments(argv []string) [][]string {
	var cmds [][]string
	var cur []string
	for _, a := range argv {
		end := false
		if strings.HasSuffix(a, ";") {
			a = a[:len(a)-1]
			if strings.HasSuffix(a, `\`) {
				a = a[:len(a)-1] + ";"
			} else {
				end = true
			}
		}
		if !end || a != "" {
			cur = append(cur, a)
		}
		if end {
			cmds = append(cmds, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		cmds = append(cmds, cur)
	}
	return cmds
}

func TestArg(t *testing.T) {
	for in, want := range map[string]string{
		"":        "",
		"a":       "a",
		"a;":      `a\;`,
		";":       `\;`,
		`b\;`:     `b\\;`,
		`\`:       `\`,
		"a;b":     "a;b",
		"x ;":     `x \;`,
		`\\;`:     `\\\;`,
		"#{a};":   `#{a}\;`,
		"{}\\;\n": "{}\\;\n",
	} {
		if got := Arg(in); got != want {
			t.Errorf("Arg(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCommandListArgv: what tmux reads back from a list's argument vector
// is the list itself, whatever its arguments hold.
func TestCommandListArgv(t *testing.T) {
	list := CommandList{
		{"new-session", "-d", "--", "sh", "-c", "x", "a;", `b\;`, ";", ""},
		{"set-option", "-g", "status-right", "X"},
		{"display-message", "-p", ";;"},
	}
	got := parseArguments(list.argv())
	if len(got) != len(list) {
		t.Fatalf("tmux would read %d commands from %q, want %d", len(got), list.argv(), len(list))
	}
	for i := range list {
		if strings.Join(got[i], "\x00") != strings.Join(list[i], "\x00") {
			t.Errorf("command %d: tmux would read %q, want %q", i, got[i], list[i])
		}
	}
}

// FuzzArg: any argument, alone or among others in a command list, comes
// back from tmux's argument parser unchanged, and never splits a command.
func FuzzArg(f *testing.F) {
	for _, s := range []string{"a;", ";", `\;`, `b\\;`, "", ";;", `\`, "x; ;"} {
		f.Add(s, "next")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		list := CommandList{{"send-keys", "-l", a, b}, {"display-message", b}}
		got := parseArguments(list.argv())
		if len(got) != 2 || strings.Join(got[0], "\x00") != strings.Join(list[0], "\x00") ||
			strings.Join(got[1], "\x00") != strings.Join(list[1], "\x00") {
			t.Fatalf("tmux would read %q from %q, want %q", got, list.argv(), list)
		}
	})
}

func TestFormatLiteral(t *testing.T) {
	for in, want := range map[string]string{"a": "a", "#": "##", "#{x}#(y)": "##{x}##(y)", "##": "####"} {
		if got := FormatLiteral(in); got != want {
			t.Errorf("FormatLiteral(%q) = %q, want %q", in, got, want)
		}
	}
}

// A pane that is not found names the list command for its own server.
func TestListCommandNamesTheServer(t *testing.T) {
	t.Setenv("TMUX_TMPDIR", "/tmp/x")
	dir := socketDir(os.Getenv)
	for socket, want := range map[string]string{
		dir + "/default": "panectl list",
		dir + "/work":    "panectl -L work list",
		"/run/my.sock":   "panectl -S /run/my.sock list",
	} {
		if got := listCommand(socket); got != want {
			t.Errorf("listCommand(%q) = %q, want %q", socket, got, want)
		}
	}
}

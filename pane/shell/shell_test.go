package shell

import (
	"errors"
	"strings"
	"testing"

	"github.com/panectl/panectl/pane/proc"
)

func TestShellOf(t *testing.T) {
	for cmd, want := range map[string]Shell{"bash": ShellBash, "-bash": ShellBash, "zsh": ShellZsh, "-zsh": ShellZsh,
		"fish": ShellFish, "dash": ShellPOSIX, "sh": ShellPOSIX, "mksh": ShellKorn, "/bin/ksh": ShellKorn} {
		if got, ok := ShellOf(cmd); !ok || got != want {
			t.Errorf("ShellOf(%q) = %q, %v; want %q", cmd, got, ok, want)
		}
	}
	for _, cmd := range []string{"vim", "python3", "tcsh", "csh", "nu", "", "less"} {
		if _, ok := ShellOf(cmd); ok {
			t.Errorf("ShellOf(%q) is a shell; want not", cmd)
		}
	}
}

func TestCheckSingle(t *testing.T) {
	one := []string{
		"echo hi", "a && b", "a || b && c", "a | b | c", "(a; b)", "{ a; b; }", "cat <<'EOF'\nhello\nEOF",
		"cat <<EOF > f.txt\nx; y\nEOF", "if true; then a; b; fi", "for i in 1 2; do echo $i; done",
		"f() { return 42; }", "sleep 1 &", "echo 'a; b'", "echo a\\; b", "echo hi # a; b", "echo hi;",
		"a \\\n  && b",
	}
	for _, c := range one {
		for _, sh := range []Shell{ShellBash, ShellPOSIX, ShellZsh} {
			if n, err := CheckSingle(sh, c, false); err != nil || n != 1 {
				t.Errorf("CheckSingle(%s, %q) = %d, %v; want 1 statement", sh, c, n, err)
			}
		}
	}
	// zsh's own forms (parsed in zsh's dialect: bash's refused them)
	for _, c := range []string{"echo ${(U)x:-abc}", "print -l ${(s/,/)${:-a,b}}", "ls **/*.go(.)", "echo =(ls)", "repeat 3 echo hi"} {
		if n, err := CheckSingle(ShellZsh, c, false); err != nil || n != 1 {
			t.Errorf("CheckSingle(zsh, %q) = %d, %v; want 1 statement", c, n, err)
		}
	}
	two := []string{"a; b", "a\nb", "a & b", "f() { return 42; }; f", "sleep 2; echo finished", "cat <<EOF\nx\nEOF\necho y"}
	for _, c := range two {
		n, err := CheckSingle(ShellBash, c, false)
		if !errors.Is(err, ErrMultiStatement) || n < 2 {
			t.Errorf("CheckSingle(%q) = %d, %v; want ErrMultiStatement", c, n, err)
		}
		if !strings.Contains(err.Error(), "--allow-multi") {
			t.Errorf("refusal of %q does not say how to allow it: %v", c, err)
		}
		if _, err := CheckSingle(ShellBash, c, true); err != nil {
			t.Errorf("CheckSingle(%q, allowMulti) = %v", c, err)
		}
	}
	for _, c := range []string{"echo 'unterminated", "a &&", "if true; then", "", "  \n", `echo a \`, "echo a \\\\\\", "echo a \\\n  b \\"} {
		if _, err := CheckSingle(ShellBash, c, true); !errors.Is(err, ErrParse) {
			t.Errorf("CheckSingle(%q) = %v; want ErrParse", c, err)
		}
	}
	// a literal (doubled) backslash, or one in a comment, or a continuation
	// with a line after it, ends nothing
	for _, c := range []string{`echo a \\`, `echo a # note \`, "echo a \\\n  b", "echo 'a\\'"} {
		if _, err := CheckSingle(ShellPOSIX, c, false); err != nil {
			t.Errorf("CheckSingle(%q) = %v; want it accepted", c, err)
		}
	}
	// POSIX sh has no [[ ]]: the dialect follows the shell
	if _, err := CheckSingle(ShellBash, "[[ -n x ]]", false); err != nil {
		t.Errorf("bash [[ ]]: %v", err)
	}
	for c, want := range map[string]int{
		"echo hi": 1, "set x (ls; pwd)": 1, "a; and b": 1, "a && b || c | d": 1, "begin\n echo hello\nend": 1,
		"for i in (seq 5); echo line$i; sleep 0.2; end; exit 3": 2, "function f; return 42; end; f": 2,
		"if test -n x; echo a; else if true; echo b; else; echo c; end": 1, "echo 'a; b' # c; d": 1,
		"a\nb": 2, "not true; echo x": 2, "switch x; case a; echo a; end": 1, "begin; echo a; end; echo b": 2,
		// &&, || and | continue on the next line (blank and comment lines between), as fish's grammar says
		"echo one &&\necho two": 1, "echo one ||\n\n  echo two": 1, "echo one |\ncat": 1, "echo one &&\n# c\necho two": 1,
		"echo one &&\necho two\necho three": 2, "echo one\nand echo two": 1, "echo one\nor echo two; echo three": 2,
		// & alone puts a statement in the background and ends it; in a redirection it does not
		"sleep 1 & echo x": 2, "sleep 1 &": 1, "sleep 1 &\necho x": 2, "echo a 2>&1 | cat": 1, "echo a &>/dev/null": 1,
		"echo a >&2; echo b": 2, "echo a &| cat": 1, "echo a 2>| cat": 1,
	} {
		if n, _ := CheckSingle(ShellFish, c, true); n != want {
			t.Errorf("fish %q: %d statements; want %d", c, n, want)
		}
	}
}

func FuzzCheckSingle(f *testing.F) {
	for _, s := range []string{"echo hi", "a; b", "cat <<'EOF'\nhello\nEOF", "a && b | c", "(x)", "f() { :; }", "'", "$((1+", "${a:-b}"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, cmd string, allow bool) {
		for _, sh := range []Shell{ShellBash, ShellZsh, ShellPOSIX, ShellKorn, ShellFish} {
			n, err := CheckSingle(sh, cmd, allow)
			if err == nil && n < 1 {
				t.Fatalf("%s %q: no error and %d statements", sh, cmd, n)
			}
			if err != nil && !errors.Is(err, ErrParse) && !errors.Is(err, ErrMultiStatement) {
				t.Fatalf("%s %q: untyped error %v", sh, cmd, err)
			}
			if allow && errors.Is(err, ErrMultiStatement) {
				t.Fatalf("%s %q: refused with allow_multi", sh, cmd)
			}
		}
	})
}

func TestRunWrapperNeverHoldsPrintedMarker(t *testing.T) {
	for _, sh := range []Shell{ShellBash, ShellFish, ShellPOSIX} {
		r := NewRun(sh, "echo hi")
		if strings.Contains(r.Typed, r.Begin) || strings.Contains(r.Typed, r.End) {
			t.Errorf("%s: typed text %q holds a printed marker", sh, r.Typed)
		}
		if !strings.Contains(r.Typed, r.Nonce) {
			t.Errorf("%s: typed text lacks the nonce", sh)
		}
	}
	if r := NewRun(ShellFish, "echo ( 'x"); !strings.Contains(r.Typed, "$status") || !strings.HasPrefix(r.Typed, " eval '") ||
		!strings.Contains(r.Typed, "\necho ( \\'x'; printf") {
		t.Errorf("fish wrapper %q: want the begin marker and the command quoted for eval", r.Typed)
	}
	// a long fish command: the begin marker is the sourced file's first line
	r, script := NewSourcedRun(ShellFish, "/tmp/x y/command", "echo hi")
	if !strings.HasPrefix(script, `printf '\120ANECTL:B:`+r.Nonce) || !strings.Contains(script, "command rm -f -- '/tmp/x y/command'\necho hi\n") ||
		strings.Contains(r.Typed, ":B:") || !strings.Contains(r.Typed, "source '/tmp/x y/command'") {
		t.Errorf("fish sourced run: typed %q, script %q", r.Typed, script)
	}
	r, script = NewSourcedRun(ShellBash, "/tmp/c", "echo hi")
	if !strings.Contains(r.Typed, ":B:") || !strings.Contains(r.Typed, ". '/tmp/c'") || script != "command rm -f -- '/tmp/c'\necho hi\n" {
		t.Errorf("sh sourced run: typed %q, script %q", r.Typed, script)
	}
}

// fish's message for a command eval could not parse is what comes after
// the echo of the typed line (its last line holds the nonce), up to the
// end marker, without blank and caret lines.
func TestUnparsed(t *testing.T) {
	r := NewRun(ShellFish, "begin\necho (")
	N, E := r.Nonce, r.End
	lines := []string{
		`> eval 'printf \'\\120ANECTL:B:` + N + `\\n\'`,
		"  begin",
		`  echo ('; printf '\120ANECTL:E:` + N + `:%d\n' $status`,
		"fish: Unexpected end of string, expecting ')'",
		"echo (",
		"     ^",
		"",
		E + ":123:",
		"> ",
	}
	if got := strings.Join(r.Unparsed(lines), "|"); got != "fish: Unexpected end of string, expecting ')'|echo (" {
		t.Errorf("Unparsed = %q", got)
	}
}

func TestScan(t *testing.T) {
	r := NewRun(ShellBash, "x")
	B, E, N := r.Begin, r.End, r.Nonce
	echo := `$  printf '\120ANECTL:B:` + N + `\n'; { x`
	cases := []struct {
		name  string
		lines []string
		began bool
		ended bool
		st    int
		out   []string
	}{
		{"plain", []string{echo, "> }; printf ...", B, "hi", "", E + ":0:", "$"}, true, true, 0, []string{"hi"}},
		{"no newline", []string{echo, B, "abc", E + ":0:", "$"}, true, true, 0, []string{"abc"}},
		{"progress bar ended by CR", []string{echo, B, "[==] 45%", E + ":0:", "$"}, true, true, 0, []string{"[==] 45%"}},
		{"digits after the status", []string{echo, B, "x", E + ":1:45678 %", "$"}, true, true, 1, []string{"x"}},
		{"no output", []string{echo, B, "", E + ":1:"}, true, true, 1, nil},
		{"status 42", []string{B, "a", "", "b", "", E + ":42:"}, true, true, 42, []string{"a", "", "b"}},
		{"blank lines kept", []string{B, "a", "", "", E + ":0:"}, true, true, 0, []string{"a", ""}},
		{"set -x", []string{echo, "+ printf '\\120ANECTL:B:" + N + "\\n'", B, "+ echo hi", "hi", "+ printf '\\r\\n\\120ANECTL:E:" + N + ":%d:\\033[K\\n' 0", "", E + ":0:"}, true, true, 0, []string{"+ echo hi", "hi"}},
		{"prompt lookalike", []string{"PANECTL:E:000000000000:0: $ " + echo, B, "ok", "", E + ":0:"}, true, true, 0, []string{"ok"}},
		{"running", []string{echo, B, "partial"}, true, false, 0, []string{"partial"}},
		{"end partly drawn", []string{echo, B, "out", "", E + ":12"}, true, false, 0, []string{"out", "", E + ":12"}},
		{"not begun", []string{echo}, false, false, 0, nil},
		{"begin trimmed away", []string{"tail", E + ":3:"}, false, true, 3, []string{"tail"}},
	}
	for _, c := range cases {
		got := r.Scan(c.lines)
		if got.Began != c.began || got.Ended != c.ended || got.Status != c.st || strings.Join(got.Lines, "|") != strings.Join(c.out, "|") {
			t.Errorf("%s: Scan = %+v; want began=%v ended=%v status=%d lines=%q", c.name, got, c.began, c.ended, c.st, c.out)
		}
	}
}

// SourcedNote gives the reason that holds for the shell's terminal.
func TestSourcedNote(t *testing.T) {
	long := " printf x; { echo " + strings.Repeat("y", 5000) + "\n}; printf y"
	mid := " printf x; { echo " + strings.Repeat("y", 2000) + "\n}; printf y"
	canon := proc.TTYMode{Known: true, Canonical: true}
	editor := proc.TTYMode{Known: true}
	cases := []struct {
		typed   string
		mode    proc.TTYMode
		want    []string
		wantNot []string
	}{
		{long, canon, []string{"dash reads from a terminal in canonical mode", "cuts lines at 4095 bytes", "5018 bytes"}, []string{"line editor takes"}},
		{mid, canon, []string{"longer than panectl types"}, []string{"line editor takes", "cuts lines"}},
		{long, editor, []string{"dash's line editor", "longer than panectl types"}, []string{"canonical"}},
		{mid, proc.TTYMode{}, []string{"longer than panectl types"}, []string{"canonical mode", "line editor"}},
	}
	for _, c := range cases {
		note := SourcedNote(c.typed, c.mode, "dash")
		for _, w := range c.want {
			if !strings.Contains(note, w) {
				t.Errorf("mode %+v, %d bytes: note %q lacks %q", c.mode, len(c.typed), note, w)
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(note, w) {
				t.Errorf("mode %+v, %d bytes: note %q says %q", c.mode, len(c.typed), note, w)
			}
		}
	}
}

func TestCheckTypable(t *testing.T) {
	for _, tc := range []struct {
		command, want string // want: "" for accepted, else a part of the message
	}{
		{"echo a\tb", ""},
		{"echo a\necho b", ""},
		{"printf '\\r'", ""},
		{"echo é ✓", ""},
		{"echo one #\recho TWO", "carriage return (\\r) at byte 10"},
		{"echo a\x00b", "NUL byte at byte 6"},
		{"echo \x1b[A", "escape (\\e) at byte 5"},
		{"\x03", "C-c (\\x03) at byte 0"},
		{"echo \x7f", "DEL"},
		{"echo \x01", "control character (\\x01) at byte 5: typed into the pane, the terminal or the line editor acts on it; remove it, or have the command make it (printf '\\001')"},
	} {
		err := CheckTypable(tc.command)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckTypable(%q): %v, want accepted", tc.command, err)
		case tc.want != "" && (err == nil || !errors.Is(err, ErrControlChar) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CheckTypable(%q): %v, want ErrControlChar with %q", tc.command, err, tc.want)
		}
	}
}

// bash and zsh expand history in a typed line outside single quotes: a
// command with a '!' is typed in single quotes for eval there; other
// commands and shells keep the group.
func TestRunWrapperHistoryExpansion(t *testing.T) {
	if r := NewRun(ShellZsh, "ehco hi"); !strings.Contains(r.Typed, "; eval 'ehco hi'; ") {
		t.Errorf("zsh: typed %q, want every command for eval (no spelling correction)", r.Typed)
	}
	for _, sh := range []Shell{ShellBash, ShellZsh} {
		r := NewRun(sh, `echo "x!!y" it's`)
		if want := `; eval 'echo "x!!y" it'\''s'; printf`; !strings.Contains(r.Typed, want) {
			t.Errorf("%s: typed %q, want the command in single quotes for eval (%q)", sh, r.Typed, want)
		}
	}
	for _, c := range []struct {
		sh      Shell
		command string
	}{{ShellBash, "echo hi"}, {ShellPOSIX, "echo hi!"}, {ShellKorn, "echo hi!"}} {
		if r := NewRun(c.sh, c.command); !strings.Contains(r.Typed, "; { "+c.command+"\n}; ") {
			t.Errorf("%s %q: typed %q, want the command in a group", c.sh, c.command, r.Typed)
		}
	}
}

// A top-level exit among several statements would end the pane's shell.
func TestCheckNoExit(t *testing.T) {
	for _, c := range []struct {
		sh      Shell
		command string
		refused bool
	}{
		{ShellBash, "echo hi; exit 3", true},
		{ShellBash, "false || exit 3\necho after", true},
		{ShellPOSIX, "echo hi; logout", true},
		{ShellZsh, "echo hi; exit", true},
		{ShellBash, "exit 3", false},              // one statement: run reports the shell's end
		{ShellBash, "( echo hi; exit 3 )", false}, // a subshell keeps the shell
		{ShellBash, "echo hi; (exit 3)", false},
		{ShellBash, "f() { exit 1; }; echo $(exit 2)", false},
		{ShellBash, "echo exit; echo done", false},
		{ShellFish, "echo hi; exit 3", false}, // not parsed
	} {
		err := CheckNoExit(c.sh, c.command)
		if (err != nil) != c.refused || (err != nil && !errors.Is(err, ErrExitsShell)) {
			t.Errorf("CheckNoExit(%v, %q) = %v; want refused %v", c.sh, c.command, err, c.refused)
		}
	}
}

func TestNotShellExe(t *testing.T) {
	if !proc.ExeKnowable {
		t.Skip("this system names no executables: the name is trusted")
	}
	for _, tc := range []struct {
		name string
		fg   proc.Foreground
		want string // "" for a shell, else a part of the reason
	}{
		{"bash", proc.Foreground{Name: "bash", Args: []string{"bash"}, PID: 9, Exe: "/usr/bin/bash"}, ""},
		{"sh is dash", proc.Foreground{Name: "sh", Args: []string{"-sh"}, PID: 9, Exe: "/usr/bin/dash"}, ""},
		{"versioned name", proc.Foreground{Name: "zsh", PID: 9, Exe: "/bin/zsh5"}, ""},
		{"python calling itself bash", proc.Foreground{Name: "bash", Args: []string{"bash"}, PID: 9, Exe: "/usr/bin/python3.11"}, "its executable is /usr/bin/python3.11, not a shell's"},
		{"not in /proc", proc.Foreground{Name: "bash"}, "cannot be found in /proc"},
		{"unreadable: another user's", proc.Foreground{Name: "bash", Args: []string{"bash"}, PID: 9}, "cannot be read (/proc/9/exe"},
		{"busybox sh", proc.Foreground{Name: "sh", Args: []string{"sh"}, PID: 9, Exe: "/bin/busybox"}, ""},
		{"busybox ash, login", proc.Foreground{Name: "ash", Args: []string{"-ash"}, PID: 9, Exe: "/bin/busybox"}, ""},
		{"busybox sh by name", proc.Foreground{Name: "busybox", Args: []string{"busybox", "sh"}, PID: 9, Exe: "/bin/busybox"}, ""},
		{"busybox vi", proc.Foreground{Name: "busybox", Args: []string{"busybox", "vi"}, PID: 9, Exe: "/bin/busybox"}, `applet "vi"`},
		{"busybox applet named bash", proc.Foreground{Name: "bash", Args: []string{"bash"}, PID: 9, Exe: "/bin/busybox"}, `applet "bash"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := NotShellExe(tc.fg)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Fatalf("NotShellExe = %q, want %q", got, tc.want)
			}
			if _, ok := Of(tc.fg); ok != (tc.want == "") {
				t.Fatalf("Of: ok %v, want %v", ok, tc.want == "")
			}
		})
	}
}

// Package shell knows the shell families panectl types into (bash, zsh,
// fish, POSIX sh, ksh). It wraps a command with end markers and parses
// it (mvdan.cc/sh; fish by hand). It judges a pane's prompt and input
// line: at the prompt, busy, or holding a continuation.
package shell

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/tmux"
	"mvdan.cc/sh/v3/syntax"
)

// Shell is the family of an interactive shell, as far as typing a command
// into it is concerned: how a command is wrapped and how it is parsed.
type Shell string

const (
	ShellBash  Shell = "bash"  // bash: parsed as bash
	ShellZsh   Shell = "zsh"   // zsh (parsed in mvdan.cc/sh's zsh dialect, which lacks some short forms)
	ShellFish  Shell = "fish"  // fish: its own syntax, $status, eval
	ShellPOSIX Shell = "posix" // sh, dash, ash, busybox sh: parsed as POSIX sh
	ShellKorn  Shell = "ksh"   // ksh, mksh, pdksh: parsed as mksh
)

// ShellOf names the shell family of a pane's foreground command
// (pane_current_command: "bash", "-zsh", "dash"), ok=false when it is not
// a shell panectl can type commands into (vim, python, tcsh, ...).
func ShellOf(command string) (Shell, bool) {
	name := path.Base(strings.TrimPrefix(strings.TrimSpace(command), "-"))
	switch name {
	case "bash", "rbash":
		return ShellBash, true
	case "zsh":
		return ShellZsh, true
	case "fish":
		return ShellFish, true
	case "sh", "dash", "ash", "busybox", "posh", "yash":
		return ShellPOSIX, true
	case "ksh", "ksh93", "mksh", "pdksh", "oksh", "lksh":
		return ShellKorn, true
	}
	return "", false
}

// Of names the shell family of a pane's foreground program fg, as ShellOf
// names fg.Command(). ok is false when that is no shell, or when fg's
// executable is no shell's (NotShellExe): a program that calls itself bash
// is no shell to type into.
func Of(fg proc.Foreground) (Shell, bool) {
	sh, ok := ShellOf(fg.Command())
	if !ok || NotShellExe(fg) != "" {
		return "", false
	}
	return sh, true
}

// NotShellExe says why fg's executable (/proc/PID/exe) is not a shell's,
// "" when it is one. A program can set its argv[0] to anything; its
// executable it cannot. Busybox counts when it runs its shell applet (sh,
// ash: the applet is argv[0], or argv[1] after "busybox"). An executable
// that cannot be read (another user's process, one gone) is no shell's.
// Where the system names no executables (ExeKnowable false: macOS, the
// BSDs), the name is trusted and this is "".
func NotShellExe(fg proc.Foreground) string {
	if !proc.ExeKnowable {
		return ""
	}
	switch {
	case fg.PID <= 0:
		return "its process cannot be found in /proc"
	case fg.Exe == "":
		return fmt.Sprintf("its executable cannot be read (/proc/%d/exe: another user's process, or one gone)", fg.PID)
	}
	name := path.Base(fg.Exe)
	if name == "busybox" {
		if applet := busyboxApplet(fg); applet != "sh" && applet != "ash" {
			return fmt.Sprintf("its executable is %s running its applet %q, not its shell (sh, ash)", fg.Exe, applet)
		}
		return ""
	}
	if _, ok := ShellOf(name); ok {
		return ""
	}
	// versioned names: zsh5, bash-5.2
	if _, ok := ShellOf(strings.TrimRight(name, "0123456789.-")); ok {
		return ""
	}
	return fmt.Sprintf("its executable is %s, not a shell's", fg.Exe)
}

// busyboxApplet is the applet busybox runs in fg: argv[0]'s name, or
// argv[1] when argv[0] is busybox itself.
func busyboxApplet(fg proc.Foreground) string {
	args := fg.Args
	if len(args) == 0 {
		return fg.Name
	}
	applet := path.Base(strings.TrimPrefix(args[0], "-"))
	if applet == "busybox" && len(args) > 1 {
		applet = args[1]
	}
	return applet
}

// HasLineEditor reports whether the shell edits its command line itself
// (readline, ZLE, fish's reader), taking its terminal out of canonical mode
// while it does: bash, zsh and fish. (sh/dash read lines the kernel edits;
// ksh's editors are optional.)
func (s Shell) HasLineEditor() bool {
	return s == ShellBash || s == ShellZsh || s == ShellFish
}

// Marker texts. The shell prints them with printf from a format where the
// first letter is an octal escape (\120 is "P"), so the echo of the typed
// line and any trace of it (set -x) hold `\120ANECTL`, never the printed
// `PANECTL:...:<nonce>`; the nonce is fresh for each run, so no prompt or
// earlier output can hold it either.
const markerWord = "PANECTL"

// Run is one wrapped command: the text to type and the markers its shell
// prints around the command's output.
type Run struct {
	Nonce string
	Typed string // the line(s) to type, then Enter
	Begin string // printed on a line of its own before the command runs
	End   string // printed as End + ":<status>:" on a row of its own after the command's output
}

// NewRun wraps command for sh. The wrapper prints the begin marker, runs the
// command in a group (so a heredoc, a multi-line command, `a && b`, a
// function definition work unchanged), then prints the end marker and the
// group's status (endPrintf). The line starts with a space so shells that
// ignore such lines in history (HISTCONTROL=ignorespace, setopt
// histignorespace) do.
//
// fish gets the begin marker and the command as one quoted string for its
// eval builtin: the typed line is always complete (fish never waits in a
// continuation for a `(`, a quote or an `end` the command lacks), and a
// command fish cannot parse is reported by eval at once (status 123) with
// nothing run, not even the begin marker: an end marker with no begin
// marker before it. eval runs in the prompt's own scope (set -l, cd,
// functions take effect as if typed); begin ... end would hide set -l.
//
// bash and zsh expand history (!!, !$, !x) in a typed line before parsing
// it, everywhere but in single quotes: a command holding a '!' goes to
// eval in single quotes there, so it runs as given (as sh -c would run it)
// and not rewritten into the previous command line. zsh gets eval for every
// command: with setopt correct it asks "correct 'ehco' to 'echo' [nyae]?"
// about the words of a typed line, never about eval's string.
func NewRun(sh Shell, command string) Run {
	r := newRun()
	switch {
	case sh == ShellFish:
		r.Typed = " eval " + quote(sh, r.beginPrintf()+"\n"+command) + "; " + r.endPrintf(sh)
	case sh == ShellZsh || sh == ShellBash && strings.ContainsRune(command, '!'):
		r.Typed = " " + r.beginPrintf() + "; eval " + quote(sh, command) + "; " + r.endPrintf(sh)
	default:
		r.Typed = " " + r.beginPrintf() + "; { " + command + "\n}; " + r.endPrintf(sh)
	}
	return r
}

func newRun() Run {
	n := tmux.Nonce()
	return Run{Nonce: n, Begin: markerWord + ":B:" + n, End: markerWord + ":E:" + n}
}

// beginPrintf prints the begin marker; endPrintf the end marker and the
// status of the shell's last command.
func (r Run) beginPrintf() string { return `printf '\120ANECTL:B:` + r.Nonce + `\n'` }

// endPrintf starts the end marker on a row of its own (\r\n), so nothing
// the command left on its last row is overwritten: a line without a final
// newline, or a progress bar ended by \r. A colon ends the status, and
// \033[K erases old text after it.
func (r Run) endPrintf(sh Shell) string {
	st := `"$?"`
	if sh == ShellFish {
		st = "$status"
	}
	return `printf '\r\n\120ANECTL:E:` + r.Nonce + `:%d:\033[K\n' ` + st
}

// A typed command line longer than typeLimit bytes (or a command longer than
// typeTotal) is not typed: it goes to the shell in a file (NewSourcedRun).
// A terminal in canonical mode cuts lines at MaxCanonLine bytes; line
// editors have no limit, but typing megabytes through them is slow.
const (
	typeLimit = 1024
	typeTotal = 8 << 10
)

// TooLongToType reports whether typed (a run's Typed) is too long to type
// whole in every shell: then the command goes through a file.
func TooLongToType(typed string) bool {
	if len(typed) > typeTotal {
		return true
	}
	for rest := typed; rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		if len(line) > typeLimit {
			return true
		}
		rest = after
	}
	return false
}

// SourcedNote says why a run's command went through a file (TooLongToType
// was true for typed, the wrapped command line) for the shell at hand,
// named shell, whose terminal was in mode at its prompt: a terminal in
// canonical mode (no line editor: dash, bash --noediting) cuts lines at
// MaxCanonLine bytes, or, for a command within that, panectl types no more
// than typeLimit bytes on a line (typeTotal in all) into any shell; a line
// editor (bash's readline, zsh's zle, fish) takes lines of any length but
// redraws the line for each key, so typing that much is slow.
func SourcedNote(typed string, mode proc.TTYMode, shell string) string {
	longest := 0
	for _, line := range strings.Split(typed, "\n") {
		longest = max(longest, len(line))
	}
	const sourced = "the shell sourced the command from a private file instead of having it typed: "
	limits := fmt.Sprintf("it is longer than panectl types into a shell (%d bytes on a line, %d in all)", typeLimit, typeTotal)
	switch {
	case mode.Known && mode.Canonical && longest > proc.MaxCanonLine:
		return fmt.Sprintf(sourced+"%s reads from a terminal in canonical mode (no line editor), which cuts lines at %d bytes, and a line of it is %d bytes", shell, proc.MaxCanonLine, longest)
	case mode.Known && mode.Canonical:
		return sourced + limits
	case mode.Known:
		return sourced + limits + fmt.Sprintf("; %s's line editor takes long lines but redraws the line for every key typed", shell)
	}
	return sourced + limits
}

// NewSourcedRun is NewRun for a command too long to type, written to a
// file at path: the shell sources it (. in sh, source in fish) in the
// current shell, so cd, variables and functions take effect as if it had
// been typed; the status is the command's. script is the file's content:
// a line that removes the file (the shell has it open, or read it whole; no
// copy outlives the run even when panectl is killed), then the command.
// `command rm` skips aliases and functions named rm. fish parses a sourced
// file whole before it runs any of it, so there the begin marker is the
// file's first line: a command fish cannot parse prints no begin marker,
// as with eval in NewRun.
func NewSourcedRun(sh Shell, path, command string) (r Run, script string) {
	rm := "command rm -f -- " + quote(sh, path) + "\n"
	if sh == ShellFish {
		r = newRun()
		r.Typed = " source " + quote(sh, path) + "; " + r.endPrintf(sh)
		return r, r.beginPrintf() + "\n" + rm + command + "\n"
	}
	return NewRun(sh, ". "+quote(sh, path)), rm + command + "\n"
}

// quote quotes s as one word for sh: single quotes (fish: also with \ and
// \' escapes).
func quote(sh Shell, s string) string {
	if sh == ShellFish {
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// StatusProbe is a line that prints the status of the shell's last command
// ($?, fish: $status) after a marker: typed when an interrupt ended a run
// without its end marker, it reads the status the shell reports. The
// printed line is printed + ":" + the status.
func StatusProbe(sh Shell) (typed, printed string) {
	n := tmux.Nonce()
	v := `"$?"`
	if sh == ShellFish {
		v = "$status"
	}
	return " printf '" + `\120ANECTL:S:` + n + `:%d\n' ` + v, markerWord + ":S:" + n
}

// ScanStatus finds a status probe's printed line in lines: the status and
// whether it was there.
func ScanStatus(lines []string, printed string) (int, bool) {
	for _, l := range lines {
		i := strings.Index(l, printed+":")
		if i < 0 {
			continue
		}
		rest := l[i+len(printed)+1:]
		k := 0
		for k < len(rest) && (rest[k] >= '0' && rest[k] <= '9' || k == 0 && rest[k] == '-') {
			k++
		}
		if st, err := strconv.Atoi(rest[:k]); err == nil {
			return st, true
		}
	}
	return 0, false
}

// Probe is a harmless line that prints a marker of its own: typed after a
// run whose begin marker did not show, it tells a lost line (the probe
// prints, the begin marker never came before it) from a slow shell (the
// begin marker comes first: shells read their input in order).
func Probe() (typed, printed string) {
	n := tmux.Nonce()
	return " printf '" + `\120ANECTL:P:` + n + `\n'`, markerWord + ":P:" + n
}

// RunOutput is what a run printed between its markers.
type RunOutput struct {
	Began    bool     // the begin marker was seen
	Ended    bool     // the end marker was seen
	Status   int      // the status printed with the end marker
	Lines    []string // the command's output lines
	BeginIdx int      // index in the scanned lines of the begin marker, -1
}

// Scan finds the run's markers in logical lines read from the pane since
// before it was typed. Lines is what came between them: the echo and any
// trace of the wrapper (lines holding the nonce) are removed. The row the
// command left the cursor on is the line before the end marker's: kept
// when it holds text (output without a final newline, a progress bar),
// dropped when empty. When the begin marker is gone (history trimmed or
// cleared) the lines before the end marker are used.
func (r Run) Scan(lines []string) RunOutput {
	out := RunOutput{BeginIdx: -1}
	start := 0
	for i, l := range lines {
		if strings.Contains(l, r.Begin) {
			out.Began, out.BeginIdx, start = true, i, i+1
			break
		}
	}
	for i := start; i < len(lines); i++ {
		l := lines[i]
		j := strings.Index(l, r.End+":")
		if j < 0 {
			if !strings.Contains(l, r.Nonce) {
				out.Lines = append(out.Lines, l)
			}
			continue
		}
		st, ok := endStatus(l[j+len(r.End)+1:])
		if !ok {
			// a partly drawn end line: not ended yet
			out.Lines = append(out.Lines, l)
			continue
		}
		if n := len(out.Lines); n > 0 && out.Lines[n-1] == "" {
			out.Lines = out.Lines[:n-1] // the cursor's row was empty
		}
		out.Ended, out.Status = true, st
		break
	}
	if !out.Ended && !out.Began {
		out.Lines = nil
	}
	return out
}

// endStatus reads the status after an end marker, up to its colon.
func endStatus(rest string) (int, bool) {
	num, _, ok := strings.Cut(rest, ":")
	if !ok {
		return 0, false
	}
	st, err := strconv.Atoi(num)
	return st, err == nil
}

// Unparsed is what the shell printed between the echo of the typed line
// and the end marker, for a run that ended with no begin marker although
// nothing of its output was lost: fish's eval (or source) refused the
// command, and this is its message. Lines are trimmed; blank lines and
// caret lines (fish's "^~~" under the offending token) are left out.
func (r Run) Unparsed(lines []string) []string {
	var msg []string
	for _, l := range lines {
		j := strings.Index(l, r.End+":")
		if j < 0 && strings.Contains(l, r.Nonce) {
			msg = nil // the echo of the typed line: the message comes after its last line
			continue
		}
		if j >= 0 {
			l = l[:j]
		}
		if t := strings.TrimSpace(l); strings.Trim(t, "^~ ") != "" {
			msg = append(msg, t)
		}
		if j >= 0 {
			break
		}
	}
	return msg
}

// ErrMultiStatement: the command holds more than one top-level statement
// and --allow-multi was not given. ErrParse: the command does not parse.
// ErrControlChar: the command holds a control character that a terminal
// acts on (see CheckSingle).
var (
	ErrMultiStatement = errors.New("more than one statement")
	ErrParse          = errors.New("the command does not parse")
	ErrControlChar    = errors.New("the command holds a control character")
)

// controlNames names the control characters a command most often carries
// by mistake.
var controlNames = map[byte]string{0: "a NUL byte", '\r': "a carriage return (\\r)", 0x1b: "an escape (\\e)", 0x7f: "a DEL (\\x7f)", 3: "a C-c (\\x03)", 4: "a C-d (\\x04)"}

// CheckTypable refuses a command to be typed at a shell's prompt that
// holds a control character other than tab and newline (ErrControlChar,
// naming it and its byte offset): the terminal and the line editor act on
// it (a CR is Enter: what follows runs as another command; a NUL ends
// bash's line; C-c, C-d, ESC edit or end the line), so what ran would not
// be the command CheckSingle parsed.
func CheckTypable(command string) error {
	for i := 0; i < len(command); i++ {
		ch := command[i]
		if ch >= 0x20 && ch != 0x7f || ch == '\t' || ch == '\n' {
			continue
		}
		name, ok := controlNames[ch]
		if !ok {
			name = fmt.Sprintf("a control character (\\x%02x)", ch)
		}
		what := "the terminal or the line editor acts on it"
		hint := fmt.Sprintf("remove it, or have the command make it (printf '\\%03o')", ch)
		if ch == '\r' {
			what = "a carriage return is Enter, so what follows it would run as another command"
			hint = "Windows line endings? convert CRLF to LF; or have the command make it (printf '\\r')"
		}
		return fmt.Errorf("%w: %s at byte %d: typed into the pane, %s; %s", ErrControlChar, name, i, what, hint)
	}
	return nil
}

// CheckSingle parses command with a real shell parser (mvdan.cc/sh/v3) in
// the dialect of sh (zsh's own since mvdan.cc/sh v3.13) and returns the number of top-level statements. `a; b`
// and two lines are two; `a && b`, a pipeline, a subshell, a brace group,
// a heredoc are one. Errors: ErrParse wrapping the parser's message;
// ErrMultiStatement when there are several and allowMulti is false.
//
// fish has no Go parser: its top-level statements are counted by
// fishStatements (quotes, comments, (substitutions), begin/if/for/while/
// function/switch ... end blocks, and/or continuations); syntax errors are
// left to fish itself: its eval reports them at once (NewRun).
func CheckSingle(sh Shell, command string, allowMulti bool) (int, error) {
	var n int
	if sh == ShellFish {
		if fishHeredoc(command) {
			return 0, fmt.Errorf("%w: fish has no heredocs (<<): feed the text another way, e.g. printf '%%s\\n' 'line one' 'line two' | cat, or write it to a file first", ErrParse)
		}
		n = fishStatements(command)
		if n == 0 && strings.TrimSpace(command) != "" {
			// words but no statement ("end", "else", "and true"): fish's
			// own message says what is wrong (its eval reports it at once)
			n = 1
		}
	} else {
		f, err := syntax.NewParser(syntax.Variant(langOf(sh)), syntax.KeepComments(true)).Parse(strings.NewReader(command), "")
		if err != nil && sh == ShellZsh {
			// mvdan.cc/sh's zsh dialect is young: it lacks some of zsh's
			// short forms (for i (1 2) cmd), which zsh itself runs
			return 0, fmt.Errorf("%w: %v (panectl's zsh parser, mvdan.cc/sh, does not know every zsh form: if zsh takes it, write it in the long form, e.g. for i in 1 2; do ...; done)", ErrParse, err)
		}
		if err != nil {
			return 0, fmt.Errorf("%w: %v", ErrParse, err)
		}
		if continuesAtEnd(f, command) {
			return 0, fmt.Errorf("%w: the command ends with a backslash, a line continuation with no line after it: an interactive shell waits for the rest; remove it (or double it for a literal backslash)", ErrParse)
		}
		n = len(f.Stmts)
	}
	if n == 0 {
		return 0, fmt.Errorf("%w: the command is empty", ErrParse)
	}
	if n > 1 && !allowMulti {
		return n, fmt.Errorf("%w: the command holds %d top-level statements (separated by ';', '&' or a newline); run refuses them so that one exit status answers for one command: join them with && (stops at the first failure), group them in { ...; } or ( ... ), or pass --allow-multi (allow_multi in JSON) to get the status of the last one", ErrMultiStatement, n)
	}
	return n, nil
}

// langOf is mvdan.cc/sh's dialect of a shell family (bash for fish, which
// it cannot parse).
func langOf(sh Shell) syntax.LangVariant {
	switch sh {
	case ShellPOSIX:
		return syntax.LangPOSIX
	case ShellKorn:
		return syntax.LangMirBSDKorn
	case ShellZsh:
		return syntax.LangZsh
	}
	return syntax.LangBash
}

// ErrExitsShell: several statements, one of which would end the pane's
// shell before the last one's status is read.
var ErrExitsShell = errors.New("the command would exit the pane's shell")

// CheckNoExit refuses, in several top-level statements, an exit (or logout)
// outside a subshell: typed at a prompt it ends the pane's shell, and the
// output before it is lost with the status. `( a; exit 3 )` keeps the shell.
// One statement may exit: run then reports the shell's end (exit 5).
// fish is not parsed here (its own exit is left as it is).
func CheckNoExit(sh Shell, command string) error {
	if sh == ShellFish {
		return nil
	}
	f, err := syntax.NewParser(syntax.Variant(langOf(sh))).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) < 2 {
		return nil // CheckSingle reports parse errors
	}
	var word string
	syntax.Walk(f, func(node syntax.Node) bool {
		switch n := node.(type) {
		case *syntax.Subshell, *syntax.FuncDecl, *syntax.CmdSubst, *syntax.ProcSubst:
			return false // an exit there ends a child, not the shell
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				if w := n.Args[0].Lit(); w == "exit" || w == "logout" {
					word = w
				}
			}
		}
		return word == ""
	})
	if word == "" {
		return nil
	}
	return fmt.Errorf("%w: it holds several statements and a top-level %s, which would end the pane's shell and lose the output before it; run it in a subshell, e.g. ( echo hi; exit 3 ), which keeps the shell and gives its status", ErrExitsShell, word)
}

// continuesAtEnd reports whether command ends with a line continuation: a
// backslash as its last byte, not itself escaped and not in a comment. The
// parser takes it as a literal backslash (as sh -c does), but typed at a
// prompt it makes the shell wait for another line (in the wrapper it would
// join the closing brace to the command's last word).
func continuesAtEnd(f *syntax.File, command string) bool {
	if n := len(command) - len(strings.TrimRight(command, `\`)); n%2 == 0 {
		return false
	}
	inComment := false
	syntax.Walk(f, func(node syntax.Node) bool {
		if c, ok := node.(*syntax.Comment); ok && int(c.End().Offset()) >= len(command) {
			inComment = true
		}
		return !inComment
	})
	return !inComment
}

// fishHeredoc reports whether command holds << outside quotes and
// comments: a heredoc, which fish does not have (it reports "Expected a
// string, but found a redirection").
func fishHeredoc(command string) bool {
	for i := 0; i < len(command); i++ {
		switch ch := command[i]; {
		case ch == '\\':
			i++
		case ch == '\'' || ch == '"':
			for i++; i < len(command) && command[i] != ch; i++ {
				if command[i] == '\\' {
					i++
				}
			}
		case ch == '#' && (i == 0 || command[i-1] == ' ' || command[i-1] == '\t' || command[i-1] == '\n' || command[i-1] == ';'):
			for i < len(command) && command[i] != '\n' {
				i++
			}
		case ch == '<' && i+1 < len(command) && command[i+1] == '<':
			return true
		}
	}
	return false
}

// fishStatements counts fish's top-level statements: separated by ';', a
// newline or a background '&' outside quotes, (...) and blocks; &&, || and
// | (also &| and 2>|) join two into one, and may be followed by newlines
// and comment lines, as fish's grammar allows; begin, if, for, while,
// function and switch open a block that end closes.
//
// A statement starting with and or or counts with the one before. In
// fish's grammar it is a job of its own that runs on the previous job's
// status, but `a; and b` is exactly `a && b` (fish 3 made && its
// spelling): one exit status answers for the whole, which is what the
// single-statement guard asks.
func fishStatements(command string) int {
	s := fishCounter{first: true}
	for i := 0; i < len(command); i++ {
		i = s.step(command, i)
	}
	s.endWord()
	return s.n
}

// fishCounter is fishStatements' state as it reads a command byte by byte.
type fishCounter struct {
	n, depth, paren        int
	first, cont, afterElse bool
	joined                 bool // after &&, || or |, before the next word: a newline continues
	word                   strings.Builder
}

// step reads command[i] and returns the index of the last byte it took.
// Its complexity is above 20 because a tokenizer has a case per kind of
// byte. Splitting them further would scatter the order they are tried in.
func (s *fishCounter) step(command string, i int) int {
	ch := command[i]
	switch {
	case ch == '\\' && i+1 < len(command):
		s.word.WriteString(command[i : i+2])
		i++
	case ch == '\'' || ch == '"':
		i = s.quote(command, i)
	case ch == '(':
		s.paren++
		s.word.WriteByte(ch)
	case ch == ')':
		s.paren = max(0, s.paren-1)
		s.word.WriteByte(ch)
	case s.paren > 0:
		s.word.WriteByte(ch)
	case ch == '#' && s.word.Len() == 0:
		for i+1 < len(command) && command[i+1] != '\n' {
			i++
		}
	case ch == '\n' && s.joined && s.word.Len() == 0:
		// `a &&` then b on the next line: one statement
	case ch == ';' || ch == '\n' || ch == '&' || ch == '|':
		i = s.operator(command, i)
	case ch == ' ' || ch == '\t':
		s.endWord()
	default:
		s.word.WriteByte(ch)
	}
	return i
}

// quote takes the quoted string that starts at command[i] into the word.
// It returns the index of the closing quote.
func (s *fishCounter) quote(command string, i int) int {
	ch := command[i]
	j := i + 1
	for j < len(command) && command[j] != ch {
		if command[j] == '\\' {
			j++
		}
		j++
	}
	s.word.WriteString(command[i:min(j+1, len(command))])
	return j
}

// operator reads ';', a newline, '&' or '|' at command[i]. It is a
// redirection, the end of a statement, or a join of two.
func (s *fishCounter) operator(command string, i int) int {
	ch := command[i]
	var next byte
	if i+1 < len(command) {
		next = command[i+1]
	}
	w := s.word.String()
	switch {
	case ch == '&' && (next == '>' || strings.HasSuffix(w, ">") || strings.HasSuffix(w, "<")):
		s.word.WriteByte(ch) // a redirection: &>file, 2>&1, <&3
	case ch == ';' || ch == '\n' || ch == '&' && next != '&' && next != '|':
		s.endWord()
		s.first, s.cont, s.joined = true, false, false
	default: // |, &&, || or &|
		s.endWord()
		if next == ch || ch == '&' && next == '|' {
			i++
		}
		s.first, s.cont, s.joined = true, true, true
	}
	return i
}

// endWord ends the word being read. The first word of a statement is
// where statements and blocks are counted.
func (s *fishCounter) endWord() {
	w := s.word.String()
	s.word.Reset()
	if w != "" {
		s.joined = false
	}
	if w == "" || !s.first {
		return
	}
	s.first = false
	elsePrev := s.afterElse
	s.afterElse = false
	switch w {
	case "and", "or":
		s.first, s.cont = true, true
		return
	case "end":
		s.depth = max(0, s.depth-1)
		return
	case "else":
		s.first, s.afterElse = true, true
		return
	case "case":
		return
	}
	if s.depth == 0 && !s.cont {
		s.n++
	}
	switch w {
	case "not", "command", "builtin", "exec", "time":
		s.first, s.cont = true, true // the next word is the command
	case "if":
		if !elsePrev {
			s.depth++
		}
	case "begin":
		s.depth++
		s.first, s.cont = true, true
	case "for", "while", "function", "switch":
		s.depth++
	}
}

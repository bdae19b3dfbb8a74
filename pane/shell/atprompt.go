package shell

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/panectl/panectl/pane/proc"
)

// QuestionPattern is the wording of a question a shell or a program asks
// on its input line ("[y/N]", "Continue?", "Password:"): the shell
// manifest's shell-question rule (recognize/manifests/shell.toml), which a
// test keeps equal to it.
const QuestionPattern = `(?i)(\[y/n\]|\(y/n\)|\(yes/no\)|\[yes/no\]|continue\?|proceed\?|are you sure.*\?|password( for \S+)?:|passphrase.*:)\s*$`

var questionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(QuestionPattern) })

// fishReadPrompt is the prompt fish's read builtin draws when given none.
const fishReadPrompt = "read>"

// NotAtPrompt tells a shell that is the foreground program of its terminal
// but is not at its prompt: its read builtin (or another builtin or
// function reading the terminal) holds the input line, and a line typed
// there would be its answer, not a command. It returns what shows it, ""
// when nothing does. The signs, from the firmest:
//
//   - bash and zsh edit their prompt with their line editor, in raw mode;
//     their read builtin (without -e) reads a canonical line. A canonical
//     terminal while the shell is in the foreground and its line editor is
//     on (not bash --noediting, zsh +Z) means it is not at its prompt. A
//     shell still starting is canonical too (its rc file may even draw a
//     prompt-like line and read): this is believed only of a warm shell,
//     one a run saw at its prompt or that took typed input lately.
//   - A canonical terminal (dash, bash --noediting) with the cursor at the
//     start of an empty row, where the prompt seen last (prompt) is not
//     empty: the shell did not draw it (dash's `read x`).
//   - The input line asks a question (QuestionPattern), or is fish's read
//     prompt ("read> "): fish reads with its line editor at its prompt and
//     in read alike, so only the line tells there.
//
// What it cannot tell: a read whose prompt text is not a question in a
// shell whose terminal mode is the same at its prompt (fish's `read -P
// 'Name: '`, dash's `printf 'Name: '; read x`), bash's `read -e`
// (readline), and dash's `read x` at an empty prompt (PS1=”).
func NotAtPrompt(sh Shell, args []string, mode proc.TTYMode, line InputLine, prompt Prompt, warm bool) string {
	text := strings.TrimRight(line.Left+line.Right, " ")
	switch {
	case questionRE().MatchString(text):
		return fmt.Sprintf("the input line asks a question (%q): the shell is not at its prompt, a command or the shell's read builtin waits for the answer", text)
	case sh == ShellFish && strings.TrimSpace(line.Left) == fishReadPrompt && strings.TrimSpace(line.Right) == "":
		return fmt.Sprintf("the input line is fish's read prompt (%q): the shell is not at its prompt, its read builtin waits for a line", text)
	case !mode.Known || !mode.Canonical:
		return ""
	case editorOn(sh, args) && warm:
		return fmt.Sprintf("the terminal is in canonical mode, while %s draws its prompt with its line editor in raw mode: the shell is not at its prompt, a builtin (read) reads a line from the terminal; the input line shows %q", sh, text)
	case line.Left == "" && strings.TrimSpace(line.Right) == "" && prompt.Seen && prompt.Text != "":
		return fmt.Sprintf("the cursor is at the start of an empty row where the shell's prompt (%q, as last seen) is not drawn: the shell is not at its prompt, a command or builtin (read with no prompt text) reads the terminal", prompt.Text)
	}
	return ""
}

// editorOn reports whether the shell edits its prompt with its line editor
// (raw mode): bash unless started with --noediting, zsh unless started with
// ZLE off (+Z, --nozle, --no-zle). A line editor turned off later (set +o
// emacs) is not seen. fish's is always on, but its read uses it too.
func editorOn(sh Shell, args []string) bool {
	var rest []string
	if len(args) > 1 {
		rest = args[1:]
	}
	switch sh {
	case ShellBash:
		return !slices.Contains(rest, "--noediting")
	case ShellZsh:
		return !slices.ContainsFunc(rest, func(a string) bool { return a == "+Z" || a == "--nozle" || a == "--no-zle" })
	}
	return false
}

// Starting reports whether a shell with a line editor is still starting:
// bash, zsh and fish read their prompt with the line editor, which puts the
// terminal in raw mode; while their start-up files run, the terminal is
// still in canonical mode. Only believed of a shell that is not warm (no run
// saw it at its prompt, nothing was typed into it lately: a warm shell in
// canonical mode is in a read, NotAtPrompt). A shell with its editor off
// (bash --noediting, zsh +Z) and sh/dash read in canonical mode at their
// prompt too: for them nothing tells.
func Starting(sh Shell, args []string, mode proc.TTYMode, warm bool) bool {
	editor := sh == ShellFish || editorOn(sh, args)
	return !warm && editor && mode.Known && mode.Canonical
}

// AwayFromPrompt tells whether a shell that is its terminal's foreground
// program is not reading a command line right now, for a line panectl
// types for itself (a probe): typed there, it would be a program's or a
// builtin's input. It is NotAtPrompt of a warm shell (a run is under way,
// or was: the shell was at its prompt), and a canonical terminal under
// fish, whose line editor holds the terminal in raw mode at its prompt and
// in its read builtin alike (canonical: a command runs, or fish is between
// a command and its prompt). It returns what shows it, "" when nothing
// does. A terminal whose mode cannot be read tells nothing.
func AwayFromPrompt(sh Shell, args []string, mode proc.TTYMode, line InputLine, prompt Prompt) string {
	if why := NotAtPrompt(sh, args, mode, line, prompt, true); why != "" {
		return why
	}
	if sh == ShellFish && mode.Known && mode.Canonical {
		return "the terminal is in canonical mode, while fish reads its prompt with its line editor in raw mode: a command runs in the foreground"
	}
	return ""
}

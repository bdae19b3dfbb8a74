package shell

import (
	"context"
	"encoding/base64"
	"regexp"
	"strings"
	"sync"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/tmux"
)

// promptOption keeps the last prompt a run saw its shell draw in this pane
// (base64url), so that text typed after it can be told from the prompt. An
// empty prompt (PS1=”) is kept as emptyPrompt: never a base64url value (one
// character encodes no byte), so "none seen" (unset) stays apart.
const (
	promptOption = "@panectl_prompt"
	emptyPrompt  = "-"
)

// Prompt is the prompt a run last saw its shell draw in a pane.
type Prompt struct {
	Text string // the input line up to the cursor, blanks kept
	Seen bool   // a prompt was seen (Text "" then: an empty prompt)
}

// Empty reports whether the prompt seen is the empty one.
func (p Prompt) Empty() bool { return p.Seen && p.Text == "" }

// InputLine is the shell's input line as the screen shows it at the
// terminal cursor.
type InputLine struct {
	Left  string // the cursor's row up to the cursor, trailing blanks kept to the cursor
	Right string // what follows the cursor on its row up to a gap of two blanks (text being edited, not a right prompt)
}

// InputLineOf cuts the cursor's row of a screen into an InputLine.
func InputLineOf(s pane.Screen) InputLine {
	y, x := s.Info.CursorY, s.Info.CursorX
	if y < 0 || y >= len(s.Rows) {
		return InputLine{Left: strings.Repeat(" ", x)}
	}
	row := s.Rows[y]
	left, w := pane.CutCells(row, x)
	right := row[len(left):]
	if pad := x - w; pad > 0 && right == "" {
		left += strings.Repeat(" ", pad) // blanks up to the cursor
	}
	if i := strings.Index(right, "  "); i >= 0 {
		right = right[:i]
	}
	return InputLine{Left: left, Right: strings.TrimRight(right, " ")}
}

// promptEnds are the endings (a prompt character and a blank) after which
// a line editor's input begins, in the prompts of bash ($ #), zsh (% #),
// fish (> #), sh, and common themes (❯ » λ).
var promptEnds = []string{"$ ", "% ", "# ", "> ", "❯ ", "» ", "λ "}

// Pending returns the text that sits on the input line after the prompt
// ("" when the line is empty). It is judged, in order, by: text typed by
// panectl without Enter (pending, from the echo ledger) that the line ends
// with; the prompt last seen in this pane (prompt: the line holds it and
// more); the first prompt ending ("$ ", "% ", "# ", "> ", "❯ ", ...) on the
// line, after which any text is pending. A line with none of these is taken
// to hold only a prompt.
func (l InputLine) Pending(pending, prompt string) string {
	line := strings.TrimRight(l.Left, " ")
	all := strings.TrimSpace(line + " " + l.Right)
	if last := lastLine(pending); strings.TrimSpace(last) != "" {
		if p := pane.SqueezeBlanks(last); p != "" && strings.HasSuffix(pane.SqueezeBlanks(line), p) {
			return strings.TrimSpace(last + " " + l.Right)
		}
	}
	if prompt != "" && strings.TrimRight(prompt, " ") != "" {
		if p := strings.TrimRight(prompt, " "); line == p || l.Left == prompt {
			return strings.TrimSpace(l.Right)
		} else if strings.HasPrefix(line, p) {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(all, p), " "))
		}
	}
	// (a prompt character right before the cursor ends the prompt too)
	padded := l.Left + " "
	first, after := -1, 0
	for _, end := range promptEnds {
		if i := strings.Index(padded, end); i >= 0 && (first < 0 || i < first) {
			first, after = i, i+len(end)
		}
	}
	if first < 0 {
		return strings.TrimSpace(l.Right)
	}
	return strings.TrimSpace(l.Left[min(after, len(l.Left)):] + l.Right)
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// LoadPrompt reads the prompt last seen in the pane (Seen false when none),
// through s (a control client: no tmux process).
func LoadPrompt(ctx context.Context, s tmux.Snapshotter, id string) (Prompt, error) {
	_, _, opts, err := s.SnapshotOptions(ctx, id, promptOption)
	if err != nil {
		return Prompt{}, err
	}
	return promptIn(opts), nil
}

// ScreenAndPrompt takes one look at the screen and reads the prompt last
// seen, in one tmux command list: one round trip, not two.
func ScreenAndPrompt(ctx context.Context, s tmux.Snapshotter, id string) (pane.Screen, Prompt, error) {
	scr, opts, err := pane.CaptureScreenOptions(ctx, s, id, false, promptOption)
	return scr, promptIn(opts), err
}

// promptIn is the prompt recorded in opts, pane options read by prefix.
func promptIn(opts map[string]string) Prompt {
	v := opts[promptOption]
	if v == emptyPrompt {
		return Prompt{Seen: true}
	}
	b, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil || len(b) == 0 {
		return Prompt{}
	}
	return Prompt{Text: string(b), Seen: true}
}

// SavePrompt records the prompt seen in the pane (at most 512 bytes; ""
// is an empty prompt).
func SavePrompt(ctx context.Context, c *tmux.Client, id, prompt string) error {
	if len(prompt) > 512 {
		return nil
	}
	v := base64.RawURLEncoding.EncodeToString([]byte(prompt))
	if prompt == "" {
		v = emptyPrompt
	}
	return c.SetPaneOptions(ctx, id, map[string]string{promptOption: v}, nil)
}

// continuationRE matches the continuation prompts that sh, dash and bash
// (PS2 "> ") and zsh (PS2 "%_> ": "quote> ", "dquote> ", "cmdsubst> ",
// "for> ", "then else> " ...) draw while a command is unfinished.
var continuationRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[a-z]+ )*(?:[a-z]+)?> ?$`) })

// Continuation reports whether the input line continues an unfinished
// command rather than being a fresh prompt, for a shell whose terminal is
// in mode now and whose line editor, if it has one (editorShell: bash, zsh,
// fish), would have it out of canonical mode while it edits: a
// continuation prompt (see continuationRE) that is not the shell's own
// prompt as last seen (prompt), or, while a line editor edits, nothing but
// blanks before the cursor (fish edits a multi-line command with no prompt
// on its later lines; it indents them), unless the prompt seen last is the
// empty one and the cursor is at the start of its row (there an empty
// prompt and a later line of a buffer look alike: the prompt is believed).
// A shell with a line editor whose terminal is canonical now is running a
// command, not editing: false. Text typed at a continuation would be joined
// to the unfinished command.
func (l InputLine) Continuation(prompt Prompt, editorShell bool, mode proc.TTYMode) bool {
	editing := mode.Known && !mode.Canonical
	if editorShell && mode.Known && !editing {
		return false // a command runs (or reads a line) in the foreground
	}
	if strings.TrimSpace(l.Right) != "" {
		return false // text on the line: Pending says what
	}
	if strings.TrimSpace(l.Left) == "" {
		return editing && !(prompt.Empty() && l.Left == "")
	}
	if prompt.Text != "" && l.Left == prompt.Text {
		return false
	}
	return continuationRE().MatchString(strings.TrimLeft(l.Left, " "))
}

// Bare reports whether the input line holds a prompt and nothing after it:
// a prompt ending (see Prompted), or exactly the prompt last seen in the
// pane (the empty one too: the cursor at the start of an empty row).
func (l InputLine) Bare(prompt Prompt) bool {
	return l.Prompted() || strings.TrimSpace(l.Right) == "" && prompt.Seen && l.Left == prompt.Text
}

// Prompted reports whether the input line shows a prompt ending ("$ ",
// "% ", "> ", ...) and nothing typed after it.
func (l InputLine) Prompted() bool {
	if strings.TrimSpace(l.Right) != "" {
		return false
	}
	padded := l.Left + " "
	for _, end := range promptEnds {
		if strings.HasSuffix(strings.TrimRight(padded, " ")+" ", end) {
			return true
		}
	}
	return false
}

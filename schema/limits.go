package schema

import (
	"fmt"
	"strings"
	"sync"
)

// The bounds of panectl's inputs, each written once. A field's limits tag
// names one of them (limits:"max_lines"). The bound then sets the field's
// JSON Schema keywords, ends its description, and ends its flag's help
// (Bound). Go checks use these constants too.
const (
	DefaultMaxLines  = 200
	MaxLines         = 10000 // lines or rows one call returns
	DefaultTurnLines = 40
	DefaultTimeout   = 30   // seconds
	MaxTimeout       = 3600 // seconds; a longer timeout is clamped, not refused
	MaxText          = 1 << 20
	MaxPatterns      = 32
	MaxPatternLength = 4096
	MinQuietMS       = 50
	MaxQuietMS       = 60000
	DefaultQuietMS   = 600
	MaxPaneSize      = 10000 // columns or rows of a new pane
	MaxHistoryLimit  = 1<<31 - 1
	MaxByte          = 255
	MaxJSONDepth     = 64      // nesting of a tool's JSON input; the deepest valid one is 3
	MaxCallInput     = 8 << 20 // one call's JSON: text is at most 1 MiB, and escaping grows it up to six-fold
	MaxCursor        = 64      // characters of a printed cursor
	CursorStore      = 1 << 16 // characters of saved cursors a pane keeps (pane.Save)
	MaxWaitPanes     = 100     // panes one wait watches at once (pane_ids, session, all_panes)
)

// enum is the keywords of an enum of values.
func enum[T ~string](vs ...T) bound {
	var b strings.Builder
	b.WriteString("enum=")
	for i, v := range vs {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(string(v))
	}
	return bound{keywords: b.String()}
}

// bound is one named limit: its schema keywords (KEY=VALUE, see
// Generate) and the words that say it to a person ("" for none).
type bound struct {
	keywords, words string
}

// bounds are built on first use: a flag's help or a schema asks.
var bounds = sync.OnceValue(func() map[string]bound {
	return map[string]bound{
		"max_lines": {fmt.Sprintf("minimum=1,maximum=%d,default=%d", MaxLines, DefaultMaxLines),
			fmt.Sprintf("1..%d (default %d)", MaxLines, DefaultMaxLines)},
		"turn_lines": {fmt.Sprintf("minimum=1,maximum=%d,default=%d", MaxLines, DefaultTurnLines),
			fmt.Sprintf("1..%d (default %d)", MaxLines, DefaultTurnLines)},
		"rows":     {fmt.Sprintf("minimum=0,maximum=%d", MaxLines), fmt.Sprintf("0..%d", MaxLines)},
		"timeout":  {fmt.Sprintf("default=%d", DefaultTimeout), fmt.Sprintf("default %d, clamped to [0, %d]", DefaultTimeout, MaxTimeout)},
		"quiet_ms": {fmt.Sprintf("minimum=%d,maximum=%d,default=%d", MinQuietMS, MaxQuietMS, DefaultQuietMS), fmt.Sprintf("%d..%d (default %d)", MinQuietMS, MaxQuietMS, DefaultQuietMS)},
		"text":     {fmt.Sprintf("maxLength=%d", MaxText), fmt.Sprintf("at most 1 MiB (%d bytes of UTF-8)", MaxText)},
		"patterns": {fmt.Sprintf("minItems=1,maxItems=%d,maxLength=%d", MaxPatterns, MaxPatternLength),
			fmt.Sprintf("at most %d, each at most %d characters", MaxPatterns, MaxPatternLength)},
		"stop": {fmt.Sprintf("maxItems=%d,maxLength=%d", MaxPatterns, MaxPatternLength),
			fmt.Sprintf("at most %d, each at most %d characters", MaxPatterns, MaxPatternLength)},
		"pane_ids":       {fmt.Sprintf("minItems=1,maxItems=%d,minLength=1", MaxWaitPanes), fmt.Sprintf("at most %d", MaxWaitPanes)},
		"run_timeout":    {"", fmt.Sprintf("default %d for a foreground run, none for a background one; clamped to [0, %d]", DefaultTimeout, MaxTimeout)},
		"clamp":          {"", fmt.Sprintf("clamped to [0, %d]", MaxTimeout)},
		"text_outcome":   enum(OutcomeMatched, OutcomeStopped, OutcomeTimeout, OutcomeExited),
		"quiet_outcome":  enum(OutcomeQuiet, OutcomeTimeout, OutcomeExited),
		"turn_outcome":   enum(OutcomeTurnEnded, OutcomeBusy, OutcomeTimeout, OutcomeExited),
		"run_outcome":    enum(OutcomeCompleted, OutcomeTimeout, OutcomeExited, OutcomeInterrupted),
		"task_outcome":   enum(OutcomeEnded, OutcomeTimeout, OutcomeExited),
		"answer_outcome": enum(OutcomeAnswered, OutcomeDialogStayed, OutcomeTimeout, OutcomeExited),
		"state":          enum(StateBusy, StateAwaitingInput, StateAwaitingApproval, StateUnknown),
		"history_limit":  {fmt.Sprintf("minimum=0,maximum=%d", MaxHistoryLimit), ""},
		"byte":           {fmt.Sprintf("minimum=0,maximum=%d", MaxByte), fmt.Sprintf("0..%d", MaxByte)},
	}
})

// Bound is the words of the named bound, for a flag's help
// ("1..10000 (default 200)"). It panics on an unknown name: a typo in
// panectl's own code.
func Bound(name string) string {
	b, ok := bounds()[name]
	if !ok {
		panic("schema: no bound " + name)
	}
	return b.words
}

// withBound is a description that ends with the words of the bound
// named by tag (the tag as it is when it names none).
func withBound(desc, tag string) string {
	b, ok := bounds()[tag]
	if !ok || b.words == "" {
		return desc
	}
	if desc == "" {
		return b.words
	}
	return strings.TrimRight(desc, ".") + "; " + b.words
}

// keywords are the schema keywords of a limits tag: a bound's name, or
// KEY=VALUE pairs.
func keywords(tag string) string {
	if b, ok := bounds()[tag]; ok {
		return b.keywords
	}
	return tag
}

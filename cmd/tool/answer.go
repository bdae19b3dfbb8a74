package tool

import (
	"context"
	"regexp"
	"sync"
	"time"

	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/waiter"
)

// choiceSyntax is what answer's choice may be.
var choiceSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(yes|no|always|[1-9][0-9]?)$`) })

// answerAfter is how long answer may take past its timeout: moving the
// highlight (waiter's moveMax) and the answer's look.
const answerAfter = 3 * time.Second

func runAnswer(ctx context.Context, f *Env, in schema.AnswerInput) (schema.AnswerOutput, error) {
	if !choiceSyntax().MatchString(in.Choice) {
		return schema.AnswerOutput{}, Usagef("choice %q is not one of %s (1..99)", in.Choice, recognize.Choices)
	}
	ms, err := quietWindow(in.QuietMS)
	if err != nil {
		return schema.AnswerOutput{}, err
	}
	lines := in.Lines
	switch {
	case lines == 0:
		lines = schema.DefaultTurnLines
	case lines < 1 || lines > schema.MaxLines:
		return schema.AnswerOutput{}, Usagef("lines (--lines) %d is out of range: want 1..%d", lines, schema.MaxLines)
	}
	if in.Recognizer == "" {
		in.Recognizer = recognize.AutoID
	}
	set, err := recognizers()
	if err != nil {
		return schema.AnswerOutput{}, err
	}
	if _, err := set.Resolve(in.Recognizer, recognize.Screen{}); err != nil {
		return schema.AnswerOutput{}, recognizerErr(err)
	}
	start := time.Now()
	timeout := EffectiveTimeout(in.Timeout)
	ctx, cancel := OpContext(ctx, timeout, answerAfter)
	defer cancel()
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.AnswerOutput{}, err
	}
	keepAttached(ctx, c, p) // (it looks at the pane many times)
	r, err := waiter.Answer(ctx, c, waiter.AnswerOptions{
		PaneID: p.ID, Set: set, Recognizer: in.Recognizer, Choice: in.Choice, Quiet: millis(ms),
		Deadline: start.Add(Seconds(timeout)),
	})
	if err != nil {
		return schema.AnswerOutput{}, recognizerErr(err)
	}
	t := r.Turn
	if t.Result.State == "" { // the pane was gone before the first look
		t.Result.State, t.Result.Recognizer = recognize.Unknown, in.Recognizer
	}
	return schema.AnswerOutput{
		PaneID: p.ID, Outcome: r.Outcome, Option: r.Option, State: t.Result.State, Recognizer: t.Result.Recognizer,
		Evidence: evidence(t.Result.Evidence), Seconds: Round3(time.Since(start).Seconds()), EffectiveTimeout: timeout,
		Note: schema.JoinNotes(r.Note, t.Note), Options: nonNil(r.Options), Screen: nonNil(t.Screen.Last(lines)),
	}, nil
}

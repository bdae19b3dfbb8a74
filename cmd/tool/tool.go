package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/panectl/panectl/schema"
)

// Tool is one tool: its metadata (name, types, annotations, in schema),
// its body and its exit policy. The CLI, `call` and MCP all run it.
type Tool[In, Out any] struct {
	Meta schema.Tool
	Run  func(ctx context.Context, env *Env, in In) (Out, error)
	// Exit is the exit error an output calls for (nil: by its outcome,
	// see ExitOf).
	Exit func(Out) error
}

// Caller is a Tool called with JSON input.
type Caller interface {
	Info() schema.Tool
	// Call normalizes and validates raw against the tool's input schema,
	// decodes it strictly, and runs the tool. It returns the output and
	// the exit error the output calls for.
	Call(ctx context.Context, env *Env, raw []byte) (any, error)
}

// Info is the tool's metadata.
func (t *Tool[In, Out]) Info() schema.Tool { return t.Meta }

// ExitOf is the exit error out calls for: Exit's, else its outcome's
// (OutcomeExit), else none.
func (t *Tool[In, Out]) ExitOf(out Out) error {
	if t.Exit != nil {
		return t.Exit(out)
	}
	if o, ok := any(out).(schema.Outcomer); ok {
		return OutcomeExit(o.OutcomeOf())
	}
	return nil
}

// Call runs the tool on JSON input (see Caller).
func (t *Tool[In, Out]) Call(ctx context.Context, env *Env, raw []byte) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		raw = []byte("{}") // MCP: a call without arguments
	}
	raw, err := schema.NormalizeInput(t.Meta, raw)
	if err != nil {
		return nil, Usage(err)
	}
	if err := schema.ValidateInput(t.Meta, raw); err != nil {
		var ve *schema.ValidationError
		if errors.As(err, &ve) || strings.Contains(err.Error(), "invalid input") {
			return nil, Usage(err)
		}
		return nil, err
	}
	var in In
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, Usagef("invalid input: %s: %s does not fit a Go %s", te.Field, te.Value, te.Type)
		}
		return nil, Usagef("invalid input: %v", err)
	}
	if dec.More() {
		return nil, Usagef("invalid input: more than one JSON value")
	}
	out, err := t.Run(ctx, env, in)
	if err != nil {
		return nil, err
	}
	return out, t.ExitOf(out)
}

// The tools, bound to their bodies.
var (
	ListPanes       = &Tool[schema.ListPanesInput, schema.ListPanesOutput]{Meta: schema.ListPanes, Run: runList}
	NewPane         = &Tool[schema.NewPaneInput, schema.NewPaneOutput]{Meta: schema.NewPane, Run: runNew}
	KillPane        = &Tool[schema.PaneInput, schema.KillPaneOutput]{Meta: schema.KillPane, Run: runKill}
	Cursor          = &Tool[schema.PaneInput, schema.CursorOutput]{Meta: schema.Cursor, Run: runCursor}
	SendText        = &Tool[schema.SendTextInput, schema.SendOutput]{Meta: schema.SendText, Run: runSendText}
	SendSpecials    = &Tool[schema.SendSpecialsInput, schema.SendOutput]{Meta: schema.SendSpecials, Run: runSendKeys}
	SendASCII       = &Tool[schema.SendASCIIInput, schema.SendOutput]{Meta: schema.SendASCII, Run: runSendASCII}
	Capture         = &Tool[schema.CaptureInput, schema.CaptureOutput]{Meta: schema.Capture, Run: runCapture}
	WaitForText     = &Tool[schema.WaitForTextInput, schema.WaitForTextOutput]{Meta: schema.WaitForText, Run: runWaitForText}
	Screen          = &Tool[schema.ScreenInput, schema.ScreenOutput]{Meta: schema.Screen, Run: runScreen}
	StatusCheck     = &Tool[schema.StatusInput, schema.StatusOutput]{Meta: schema.StatusCheck, Run: runStatus}
	WaitForQuiet    = &Tool[schema.WaitForQuietInput, schema.WaitForQuietOutput]{Meta: schema.WaitForQuiet, Run: runWaitQuiet}
	Recognize       = &Tool[schema.RecognizeInput, schema.RecognizeOutput]{Meta: schema.Recognize, Run: runRecognize}
	WaitForTurn     = &Tool[schema.WaitForTurnInput, schema.WaitForTurnOutput]{Meta: schema.WaitForTurn, Run: runWaitForTurn, Exit: TurnExit}
	Answer          = &Tool[schema.AnswerInput, schema.AnswerOutput]{Meta: schema.Answer, Run: runAnswer}
	RunShellCommand = &Tool[schema.RunInput, schema.RunOutput]{Meta: schema.RunShellCommand, Run: runRun, Exit: RunExit}
	ListTasks       = &Tool[schema.ListTasksInput, schema.ListTasksOutput]{Meta: schema.ListTasks, Run: runListTasks}
	WaitTask        = &Tool[schema.WaitTaskInput, schema.WaitTaskOutput]{Meta: schema.WaitTask, Run: runWaitTask}
	KillTask        = &Tool[schema.KillTaskInput, schema.KillTaskOutput]{Meta: schema.KillTask, Run: runKillTask}
)

// callers are the bound tools by name.
var callers = map[string]Caller{}

func init() {
	for _, c := range []Caller{ListPanes, NewPane, KillPane, Cursor, SendText, SendSpecials, SendASCII,
		Capture, WaitForText, Screen, StatusCheck, WaitForQuiet, Recognize, WaitForTurn, Answer, RunShellCommand,
		ListTasks, WaitTask, KillTask} {
		callers[c.Info().Name] = c
	}
}

// Lookup finds the tool of schema.Tools named name.
func Lookup(name string) (Caller, error) {
	c, ok := callers[name]
	if !ok {
		var names []string
		for _, t := range schema.Tools() {
			names = append(names, t.Name)
		}
		return nil, Usagef("unknown tool %q; tools: %s", name, strings.Join(names, ", "))
	}
	return c, nil
}

// Unbound lists the tools of schema.Tools without a body here (a test
// keeps it empty).
func Unbound() []string {
	var out []string
	for _, t := range schema.Tools() {
		if _, ok := callers[t.Name]; !ok {
			out = append(out, t.Name)
		}
	}
	return out
}

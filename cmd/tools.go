package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
)

// runner runs one tool on JSON input (already validated against its input
// schema by the caller) and returns its output value.
type runner func(ctx context.Context, f *Factory, input json.RawMessage) (any, error)

// runners maps each tool name of schema.Tools to its run function: the same
// functions the CLI commands call.
func runners() map[string]runner {
	return map[string]runner{
		"list_panes":        adapt(runList),
		"new_pane":          adapt(runNew),
		"kill_pane":         adapt(runKill),
		"cursor":            adapt(runCursor),
		"send_text":         adapt(runSendText),
		"send_specials":     adapt(runSendKeys),
		"send_ascii":        adapt(runSendASCII),
		"capture":           adapt(runCapture),
		"wait_for_text":     adapt(runWaitForText),
		"screen":            adapt(runScreen),
		"status_check":      adapt(runStatus),
		"wait_for_quiet":    adapt(runWaitQuiet),
		"recognize":         adapt(runRecognize),
		"wait_for_turn":     adapt(runWaitForTurn),
		"run_shell_command": adapt(runRun),
		"list_tasks":        adapt(runListTasks),
		"wait_task":         adapt(runWaitTask),
		"kill_task":         adapt(runKillTask),
	}
}

// adapt turns a typed run function into a runner: strict JSON decoding
// (unknown fields are errors naming the field), then the call.
func adapt[I, O any](run func(context.Context, *Factory, I) (O, error)) runner {
	return func(ctx context.Context, f *Factory, input json.RawMessage) (any, error) {
		var in I
		if len(bytes.TrimSpace(input)) > 0 {
			dec := json.NewDecoder(bytes.NewReader(input))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&in); err != nil {
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) {
					return nil, usageErrorf("invalid input: %s: %s does not fit a Go %s", te.Field, te.Value, te.Type)
				}
				return nil, usageErrorf("invalid input: %v", err)
			}
			if dec.More() {
				return nil, usageErrorf("invalid input: more than one JSON value")
			}
		}
		out, err := run(ctx, f, in)
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

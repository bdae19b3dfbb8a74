// Package schematest validates panectl's JSON against the published
// schemas with an independent validator (github.com/santhosh-tekuri/jsonschema),
// for tests only: that library compiles its meta-schemas when a program
// starts (5-10 ms), which the panectl binary must not pay (SPEC.md P5).
package schematest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/panectl/panectl/schema"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

type compiled struct{ in, out *sjs.Schema }

var (
	compiledMu sync.Mutex
	compiledBy = map[string]compiled{}
)

// validators compiles (once) the tool's schemas with
// github.com/santhosh-tekuri/jsonschema, an independent validator.
func validators(t schema.Tool) (compiled, error) {
	compiledMu.Lock()
	defer compiledMu.Unlock()
	if c, ok := compiledBy[t.Name]; ok {
		return c, nil
	}
	s, err := schema.SchemasOf(t)
	if err != nil {
		return compiled{}, err
	}
	comp := func(what string, sch any) (*sjs.Schema, error) {
		b, err := json.Marshal(sch)
		if err != nil {
			return nil, err
		}
		doc, err := sjs.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		url := "panectl:///" + t.Name + "/" + what + ".json"
		c := sjs.NewCompiler()
		if err := c.AddResource(url, doc); err != nil {
			return nil, err
		}
		return c.Compile(url)
	}
	var c compiled
	if c.in, err = comp("input", s.Input); err != nil {
		return compiled{}, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	if c.out, err = comp("output", s.Output); err != nil {
		return compiled{}, fmt.Errorf("tool %s: output schema: %w", t.Name, err)
	}
	compiledBy[t.Name] = c
	return c, nil
}

// ValidateInput checks JSON input against the tool's input schema. An
// invalid value gives a *ValidationError naming the fields; JSON that does
// not parse gives a plain error.
func ValidateInput(t schema.Tool, data []byte) error { return validate(t, "input", data) }

// ValidateOutput checks a JSON output against the tool's output schema.
func ValidateOutput(t schema.Tool, data []byte) error { return validate(t, "output", data) }

func validate(t schema.Tool, what string, data []byte) error {
	c, err := validators(t)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("invalid %s for %s: not JSON: %v", what, t.Name, err)
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return fmt.Errorf("invalid %s for %s: data after the JSON value (want exactly one object)", what, t.Name)
	}
	sch := c.in
	if what == "output" {
		sch = c.out
	}
	err = sch.Validate(v)
	var ve *sjs.ValidationError
	if errors.As(err, &ve) {
		return &schema.ValidationError{Tool: t.Name, What: what, Problems: problems(ve)}
	}
	return err
}

var printer = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.Und) })

// problems flattens the validator's error tree into one problem per
// offending field; an unknown property is reported under its own name.
func problems(root *sjs.ValidationError) []schema.Problem {
	var out []schema.Problem
	var walk func(e *sjs.ValidationError)
	walk = func(e *sjs.ValidationError) {
		field := strings.Join(e.InstanceLocation, ".")
		switch k := e.ErrorKind.(type) {
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				out = append(out, schema.Problem{Field: join(field, p), Message: "unknown field"})
			}
			return
		case *kind.Required:
			for _, p := range k.Missing {
				out = append(out, schema.Problem{Field: join(field, p), Message: "required field missing"})
			}
			return
		case *kind.AnyOf:
			var alts []string
			for _, c := range e.Causes {
				alts = append(alts, leafMessages(c)...)
			}
			out = append(out, schema.Problem{Field: field, Message: "matches none of: " + strings.Join(alts, " | ")})
			return
		}
		if len(e.Causes) == 0 {
			out = append(out, schema.Problem{Field: field, Message: describe(e.ErrorKind)})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(root)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

func leafMessages(e *sjs.ValidationError) []string {
	if len(e.Causes) == 0 {
		msg := describe(e.ErrorKind)
		if len(e.InstanceLocation) > 0 {
			msg = strings.Join(e.InstanceLocation, ".") + ": " + msg
		}
		return []string{msg}
	}
	var out []string
	for _, c := range e.Causes {
		out = append(out, leafMessages(c)...)
	}
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// describe says what is wrong in plain words (numbers without locale
// grouping); other kinds use the validator's own message.
func describe(k sjs.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Minimum:
		return fmt.Sprintf("%s is less than the minimum %s", ratString(k.Got), ratString(k.Want))
	case *kind.Maximum:
		return fmt.Sprintf("%s is more than the maximum %s", ratString(k.Got), ratString(k.Want))
	case *kind.MinLength:
		return fmt.Sprintf("%d characters; want at least %d", k.Got, k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("%d characters; want at most %d", k.Got, k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("%d items; want at least %d", k.Got, k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("%d items; want at most %d", k.Got, k.Want)
	case *kind.Type:
		return fmt.Sprintf("got %s, want %s", k.Got, strings.Join(k.Want, " or "))
	}
	return k.LocalizedString(printer())
}

func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// ValidateError checks a JSON error object against the error schema.
func ValidateError(data []byte) error { return ValidateOutput(schema.ErrorTool(), data) }

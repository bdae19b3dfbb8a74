package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Problem is one reason a JSON value does not validate: the field (a dotted
// path such as patterns.3; "" for the object itself) and what is wrong.
type Problem struct {
	Field   string
	Message string
}

// ValidationError is a JSON value that does not validate against a tool's
// schema. Its message names the offending field.
type ValidationError struct {
	Tool     string
	What     string // "input" or "output"
	Problems []Problem
}

// Error lists the problems, each naming its field.
func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		if p.Field == "" {
			parts[i] = p.Message
		} else {
			parts[i] = p.Field + ": " + p.Message
		}
	}
	return fmt.Sprintf("invalid %s for %s: %s", e.What, e.Tool, strings.Join(parts, "; "))
}

// Fields lists the offending fields.
func (e *ValidationError) Fields() []string {
	var out []string
	for _, p := range e.Problems {
		out = append(out, p.Field)
	}
	return out
}

type resolved struct{ in, out *jsonschema.Resolved }

var (
	resolvedMu sync.Mutex
	resolvedBy = map[string]resolved{}
)

// resolvers resolves (once) the tool's schemas with jsonschema-go, the
// library the MCP SDK validates with; it costs nothing at start-up.
func resolvers(t Tool) (resolved, error) {
	resolvedMu.Lock()
	defer resolvedMu.Unlock()
	if r, ok := resolvedBy[t.Name]; ok {
		return r, nil
	}
	s, err := SchemasOf(t)
	if err != nil {
		return resolved{}, err
	}
	var r resolved
	if r.in, err = s.Input.Resolve(nil); err != nil {
		return resolved{}, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	if r.out, err = s.Output.Resolve(nil); err != nil {
		return resolved{}, fmt.Errorf("tool %s: output schema: %w", t.Name, err)
	}
	resolvedBy[t.Name] = r
	return r, nil
}

// ValidateInput checks JSON input against the tool's input schema. An
// invalid value gives a *ValidationError naming the field; JSON that does
// not parse, or trailing data after the object, gives a plain error.
func ValidateInput(t Tool, data []byte) error { return validate(t, "input", data) }

// ValidateOutput checks a JSON output against the tool's output schema.
func ValidateOutput(t Tool, data []byte) error { return validate(t, "output", data) }

func validate(t Tool, what string, data []byte) error {
	r, err := resolvers(t)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	if err := dec.Decode(&v); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) && strings.HasPrefix(ute.Value, "number ") {
			return fmt.Errorf("invalid %s for %s: %s is out of range (too large for a 64-bit number)",
				what, t.Name, strings.TrimPrefix(ute.Value, "number "))
		}
		return fmt.Errorf("invalid %s for %s: not JSON: %v", what, t.Name, err)
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return fmt.Errorf("invalid %s for %s: data after the JSON value (want exactly one object)", what, t.Name)
	}
	if path, key, dup := duplicateKey(data); dup {
		return &ValidationError{Tool: t.Name, What: what, Problems: []Problem{{Field: joinField(path, key),
			Message: fmt.Sprintf("the key %q appears more than once in the same object; give each field once", key)}}}
	}
	rs := r.in
	if what == "output" {
		rs = r.out
	}
	if err := rs.Validate(v); err != nil {
		probs := problems(err)
		if obj, ok := v.(map[string]any); ok && what == "input" {
			probs = inputProblems(t, obj, probs)
		}
		return &ValidationError{Tool: t.Name, What: what, Problems: probs}
	}
	return nil
}

// inputProblems names every problem of an input object in one reply: each
// unknown field (with the known name it may stand for), each required
// field missing, and each known field whose value is wrong. The validator
// stops at the first; first is what it said, kept when nothing else is
// found.
func inputProblems(t Tool, obj map[string]any, first []Problem) []Problem {
	s, err := SchemasOf(t)
	if err != nil {
		return first
	}
	var out []Problem
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ps, known := s.Input.Properties[k]
		if !known {
			out = append(out, Problem{k, "unknown field" + suggest(k, s.Input)})
			continue
		}
		rs, err := ps.Resolve(nil)
		if err != nil {
			continue
		}
		if err := rs.Validate(obj[k]); err != nil {
			for _, p := range problems(err) {
				out = append(out, Problem{joinField(k, p.Field), p.Message})
			}
		}
	}
	for _, k := range s.Input.Required {
		if _, ok := obj[k]; !ok {
			out = append(out, Problem{k, "required field missing"})
		}
	}
	if len(out) == 0 {
		return first
	}
	return out
}

// suggest names the known field an unknown name may stand for (cmd:
// command), and else lists the known fields.
func suggest(name string, s *jsonschema.Schema) string {
	var known []string
	for k := range s.Properties {
		known = append(known, k)
	}
	sort.Strings(known)
	n := strings.ToLower(strings.ReplaceAll(name, "-", "_"))
	var near []string
	for _, k := range known {
		if len(n) >= 2 && (subsequence(n, k) || subsequence(k, n)) {
			near = append(near, k)
		}
	}
	if len(near) > 0 && len(near) <= 3 {
		return " (did you mean " + strings.Join(near, " or ") + "?)"
	}
	return " (known fields: " + strings.Join(known, ", ") + ")"
}

// subsequence reports whether a's bytes appear in b in order (cmd in
// command, pane in pane_id).
func subsequence(a, b string) bool {
	i := 0
	for j := 0; j < len(b) && i < len(a); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

// joinField is the dotted path of key inside the object at path.
func joinField(path, key string) string {
	if path == "" || key == "" {
		return path + key
	}
	return path + "." + key
}

var (
	locationRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`validating (/[^:]*): `) })
	additionalRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`unexpected additional properties \[([^\]]*)\]`) })
	requiredRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`missing properties: \[([^\]]*)\]`) })
	ratRE        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(-?\d+)/1\b`) })
	floatRE      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(-?\d+)\.0+\b`) })
	typeRE       = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^type: (.*) has type "(\w+)", want (?:one of )?"([^"]*)"$`)
	})
)

// problems turns jsonschema-go's error (a chain of "validating /path: ..."
// with the schema location) into problems naming instance fields.
func problems(err error) []Problem {
	msg := strings.TrimPrefix(err.Error(), "validating root: ") // a field's own schema
	field := ""
	if m := locationRE().FindAllStringSubmatch(msg, -1); m != nil {
		field = instancePath(m[len(m)-1][1])
	}
	detail := msg
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		if j := locationRE().FindAllStringIndex(msg, -1); j != nil {
			detail = msg[j[len(j)-1][1]:]
		}
	}
	if m := additionalRE().FindStringSubmatch(msg); m != nil {
		var out []Problem
		for _, name := range names(m[1]) {
			out = append(out, Problem{join(field, name), "unknown field"})
		}
		return out
	}
	if m := requiredRE().FindStringSubmatch(msg); m != nil {
		var out []Problem
		for _, name := range names(m[1]) {
			out = append(out, Problem{join(field, name), "required field missing"})
		}
		return out
	}
	if strings.HasPrefix(detail, `minLength: "" contains 0 `) {
		// "" is not "absent": a script whose variable was never set
		return []Problem{{field, "empty string: give a value, or leave the field out for its default"}}
	}
	if m := typeRE().FindStringSubmatch(detail); m != nil {
		// null is allowed only to leave an optional field out
		want := strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(m[3], "null, "), ", null"), "null")
		detail = fmt.Sprintf("%s is of type %s, want %s", m[1], m[2], strings.ReplaceAll(want, ", ", " or "))
	}
	// jsonschema-go prints a JSON null as Go's zero reflect.Value.
	detail = strings.ReplaceAll(detail, "<invalid reflect.Value>", "null")
	detail = floatRE().ReplaceAllString(ratRE().ReplaceAllString(detail, "$1"), "$1")
	if len(detail) > 200 {
		detail = detail[:197] + "..."
	}
	return []Problem{{field, detail}}
}

// instancePath turns a schema location (/properties/codes/items/1) into
// the instance field it checks (codes.1).
func instancePath(loc string) string {
	var parts []string
	segs := strings.Split(strings.Trim(loc, "/"), "/")
	for i := 0; i < len(segs); i++ {
		switch segs[i] {
		case "properties":
			if i+1 < len(segs) {
				parts = append(parts, segs[i+1])
				i++
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			i++ // the alternative's index is not a field
		case "items", "":
		default:
			parts = append(parts, segs[i])
		}
	}
	return strings.Join(parts, ".")
}

func names(list string) []string {
	var out []string
	for _, n := range strings.Split(list, " ") {
		if n = strings.Trim(n, `"`); n != "" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

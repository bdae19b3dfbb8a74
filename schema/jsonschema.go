package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Draft is the JSON Schema dialect of every generated schema.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// JSON Schemas are generated from the Go types with
// github.com/google/jsonschema-go (the library the MCP Go SDK uses):
//
//   - the `json` tag names a property; a field without omitempty/omitzero is
//     required; structs get `additionalProperties: false`;
//   - the `jsonschema` tag is the property's description;
//   - the `limits` tag adds what a Go type cannot say, as comma-separated
//     KEY=VALUE pairs: minimum, maximum, minLength, maxLength (for an array
//     or a StringList: of each string or number in it), minItems, maxItems
//     (of the array form), default (a JSON value) and enum (strings
//     separated by |), or the name of a bound (limits.go) whose words
//     then end the description. Example: `limits:"max_lines"`;
//   - an embedded pointer to a struct is an optional group of fields (nil
//     writes none of them, as encoding/json does): its required fields are
//     required together (dependentRequired: any one of them brings the
//     others), not on their own.
//
// Schemas are built on first use and cached: nothing happens at init, so
// `panectl version` stays fast.

// Schemas is the pair of JSON Schemas of one tool.
type Schemas struct {
	Input, Output *jsonschema.Schema
}

var (
	cacheMu sync.Mutex
	cache   = map[string]Schemas{}
)

// SchemasOf returns the input and output schemas of a tool (cached). The
// returned schemas are shared: callers must not modify them.
func SchemasOf(t Tool) (Schemas, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if s, ok := cache[t.Name]; ok {
		return s, nil
	}
	in, err := Generate(t.Input)
	if err != nil {
		return Schemas{}, fmt.Errorf("tool %s: input: %w", t.Name, err)
	}
	out, err := Generate(t.Output)
	if err != nil {
		return Schemas{}, fmt.Errorf("tool %s: output: %w", t.Name, err)
	}
	s := Schemas{Input: in, Output: out}
	cache[t.Name] = s
	return s, nil
}

// stringListSchema is the schema of StringList: one string or an array of
// strings.
func stringListSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "string"},
		{Type: "array", Items: &jsonschema.Schema{Type: "string"}},
	}}
}

// Generate builds the JSON Schema (draft 2020-12) of the type of v (a value
// or a pointer to one), with descriptions and limits from its struct tags.
func Generate(v any) (*jsonschema.Schema, error) {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[StringList](): stringListSchema(),
	}})
	if err != nil {
		return nil, err
	}
	if err := applyLimits(t, s); err != nil {
		return nil, err
	}
	s.Schema = Draft
	return s, nil
}

// applyLimits walks the Go type and its schema together and applies the
// `limits` tags.
func applyLimits(t reflect.Type, s *jsonschema.Schema) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t != reflect.TypeFor[StringList]() {
			return applyLimits(t.Elem(), s.Items)
		}
	case reflect.Struct:
		optionalGroups(t, s)
		for _, f := range reflect.VisibleFields(t) {
			if f.Anonymous || !f.IsExported() {
				continue
			}
			name := jsonName(f)
			if name == "" {
				continue
			}
			prop := s.Properties[name]
			if prop == nil {
				continue
			}
			if tag, ok := f.Tag.Lookup("limits"); ok {
				if kw := keywords(tag); kw == "" {
					// a bound of words only
				} else if err := applyTag(prop, kw); err != nil {
					return fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
				}
				prop.Description = withBound(prop.Description, tag)
			}
			if err := applyLimits(f.Type, prop); err != nil {
				return err
			}
		}
	}
	return nil
}

// optionalGroups makes the required fields of each embedded pointer to a
// struct of t required together rather than alone (see Generate).
func optionalGroups(t reflect.Type, s *jsonschema.Schema) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.Anonymous || f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Struct {
			continue
		}
		var group []string
		for _, g := range reflect.VisibleFields(f.Type.Elem()) {
			if name := jsonName(g); name != "" && !g.Anonymous && g.IsExported() && slices.Contains(s.Required, name) && !omitted(g) {
				group = append(group, name)
			}
		}
		s.Required = slices.DeleteFunc(s.Required, func(n string) bool { return slices.Contains(group, n) })
		for _, name := range group {
			if s.DependentRequired == nil {
				s.DependentRequired = map[string][]string{}
			}
			s.DependentRequired[name] = slices.DeleteFunc(slices.Clone(group), func(n string) bool { return n == name })
		}
	}
}

// omitted reports whether f's json tag has omitempty or omitzero.
func omitted(f reflect.StructField) bool {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	for _, o := range strings.Split(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			return true
		}
	}
	return false
}

func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return ""
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name
}

func isArray(s *jsonschema.Schema) bool {
	if s.Type == "array" {
		return true
	}
	for _, t := range s.Types {
		if t == "array" {
			return true
		}
	}
	return false
}

// arrays returns the array forms of a property schema (itself, or the array
// branch of an anyOf); scalars returns the schemas of its single values (the
// items of an array, the branches of an anyOf, or itself).
func arrays(s *jsonschema.Schema) []*jsonschema.Schema {
	if len(s.AnyOf) > 0 {
		var out []*jsonschema.Schema
		for _, b := range s.AnyOf {
			out = append(out, arrays(b)...)
		}
		return out
	}
	if isArray(s) {
		return []*jsonschema.Schema{s}
	}
	return nil
}

func scalars(s *jsonschema.Schema) []*jsonschema.Schema {
	if len(s.AnyOf) > 0 {
		var out []*jsonschema.Schema
		for _, b := range s.AnyOf {
			out = append(out, scalars(b)...)
		}
		return out
	}
	if isArray(s) && s.Items != nil {
		return []*jsonschema.Schema{s.Items}
	}
	return []*jsonschema.Schema{s}
}

func applyTag(s *jsonschema.Schema, tag string) error {
	for _, kv := range strings.Split(tag, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return fmt.Errorf("limits %q: want KEY=VALUE", kv)
		}
		switch k {
		case "minimum", "maximum":
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("limits %s=%q: %v", k, v, err)
			}
			for _, t := range scalars(s) {
				if k == "minimum" {
					t.Minimum = &n
				} else {
					t.Maximum = &n
				}
			}
		case "minLength", "maxLength", "minItems", "maxItems":
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("limits %s=%q: %v", k, v, err)
			}
			targets := scalars(s)
			if k == "minItems" || k == "maxItems" {
				targets = arrays(s)
			}
			if len(targets) == 0 {
				return fmt.Errorf("limits %s: not an array", k)
			}
			for _, t := range targets {
				switch k {
				case "minLength":
					t.MinLength = jsonschema.Ptr(n)
				case "maxLength":
					t.MaxLength = jsonschema.Ptr(n)
				case "minItems":
					t.MinItems = jsonschema.Ptr(n)
				case "maxItems":
					t.MaxItems = jsonschema.Ptr(n)
				}
			}
		case "default":
			if !json.Valid([]byte(v)) {
				return fmt.Errorf("limits default=%q: not JSON", v)
			}
			s.Default = json.RawMessage(v)
		case "enum":
			var enum []any
			for _, e := range strings.Split(v, "|") {
				enum = append(enum, e)
			}
			for _, t := range scalars(s) {
				t.Enum = enum
			}
		default:
			return fmt.Errorf("limits: unknown key %q", k)
		}
	}
	return nil
}

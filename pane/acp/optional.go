package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// optionalState is the tri-state of an Optional: its zero value is
// optionalUndefined, so a zero Optional means "field omitted".
type optionalState uint8

const (
	optionalUndefined optionalState = iota
	optionalNull
	optionalValue
)

// Optional is a JSON field with three states: undefined (the key is omitted),
// null (the key is present with the JSON literal null), and a value. It is
// the Go shape of an ACP patch field, where omitted means "leave unchanged",
// null means "clear", and a value means "replace".
//
// Declare Optional fields with the omitzero option so that an undefined field
// is left out when marshalling:
//
//	Cwd Optional[string] `json:"cwd,omitzero"`
//
// encoding/json then calls IsZero to omit undefined fields, MarshalJSON writes
// null or the value, and UnmarshalJSON (which encoding/json calls only for keys
// that are present, including for a literal null) records null or the value.
// A field whose key is absent from the input stays undefined.
//
// The zero value is undefined. Use Some, Null and Undefined to build one.
type Optional[T any] struct {
	value T
	state optionalState
}

// Some returns an Optional holding v. v must not itself marshal to JSON null
// (a nil map, slice or pointer): that would be indistinguishable from Null on
// the wire, so MarshalJSON rejects it.
func Some[T any](v T) Optional[T] { return Optional[T]{value: v, state: optionalValue} }

// Null returns an Optional in the null state: the field is present and null.
func Null[T any]() Optional[T] { return Optional[T]{state: optionalNull} }

// Undefined returns an Optional in the undefined state: the field is omitted.
// It equals the zero value.
func Undefined[T any]() Optional[T] { return Optional[T]{} }

// IsZero reports whether o is undefined. encoding/json's omitzero option
// calls it to leave undefined fields out.
func (o Optional[T]) IsZero() bool { return o.state == optionalUndefined }

// IsNull reports whether o is present and null.
func (o Optional[T]) IsNull() bool { return o.state == optionalNull }

// IsSet reports whether o holds a value (neither undefined nor null).
func (o Optional[T]) IsSet() bool { return o.state == optionalValue }

// Get returns the value and true when o holds one, else the zero T and false.
func (o Optional[T]) Get() (T, bool) { return o.value, o.state == optionalValue }

// String describes the state for test failures and debugging:
// "undefined", "null", or the value formatted with %v.
func (o Optional[T]) String() string {
	switch o.state {
	case optionalNull:
		return "null"
	case optionalValue:
		return fmt.Sprintf("%v", o.value)
	default:
		return "undefined"
	}
}

var jsonNull = []byte("null")

// errOptionalUndefinedMarshal is returned when an undefined Optional is
// marshalled on its own: a field declared without omitzero, or a bare value.
var errOptionalUndefinedMarshal = errors.New("pane: undefined Optional marshalled; declare the field with omitzero")

// MarshalJSON writes null for Null and the value for Some. Undefined has no
// JSON form: it is an error, which in practice means a struct field is
// missing its omitzero option. A Some whose value marshals to null is an
// error too, since it would read back as Null.
func (o Optional[T]) MarshalJSON() ([]byte, error) {
	switch o.state {
	case optionalNull:
		return jsonNull, nil
	case optionalValue:
		b, err := json.Marshal(o.value)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(b, jsonNull) {
			return nil, fmt.Errorf("pane: Optional[%T] holds a value that marshals to null; use Null()", o.value)
		}
		return b, nil
	default:
		return nil, errOptionalUndefinedMarshal
	}
}

// UnmarshalJSON records a literal null as Null and anything else as a value
// decoded into T. encoding/json never calls it for an absent key, so absent
// fields stay undefined.
func (o *Optional[T]) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), jsonNull) {
		*o = Null[T]()
		return nil
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*o = Some(v)
	return nil
}

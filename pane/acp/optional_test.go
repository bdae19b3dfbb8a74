package acp

import (
	"encoding/json"
	"reflect"
	"testing"
)

type optionalProbe struct {
	S Optional[string]         `json:"s,omitzero"`
	N Optional[int]            `json:"n,omitzero"`
	M Optional[map[string]int] `json:"m,omitzero"`
}

func TestOptionalRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   optionalProbe
		json string
	}{
		{"all undefined", optionalProbe{}, `{}`},
		{"null", optionalProbe{S: Null[string](), N: Null[int](), M: Null[map[string]int]()}, `{"s":null,"n":null,"m":null}`},
		{"values", optionalProbe{S: Some("x"), N: Some(0), M: Some(map[string]int{})}, `{"s":"x","n":0,"m":{}}`},
		{"empty string is a value", optionalProbe{S: Some("")}, `{"s":""}`},
		{"mixed", optionalProbe{S: Some("a"), M: Null[map[string]int]()}, `{"s":"a","m":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.json {
				t.Fatalf("marshal = %s, want %s", got, tt.json)
			}
			var back optionalProbe
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tt.in) {
				t.Fatalf("unmarshal(%s) = %+v, want %+v", got, back, tt.in)
			}
		})
	}
}

func TestOptionalStates(t *testing.T) {
	var u Optional[int]
	if !u.IsZero() || u.IsNull() || u.IsSet() || u != Undefined[int]() {
		t.Errorf("zero Optional is not undefined: %v", u)
	}
	n := Null[int]()
	if n.IsZero() || !n.IsNull() || n.IsSet() {
		t.Errorf("Null: IsZero=%v IsNull=%v IsSet=%v", n.IsZero(), n.IsNull(), n.IsSet())
	}
	s := Some(7)
	if v, ok := s.Get(); !ok || v != 7 || s.IsZero() || s.IsNull() {
		t.Errorf("Some(7).Get() = %v, %v", v, ok)
	}
	if got := []string{u.String(), n.String(), s.String()}; !reflect.DeepEqual(got, []string{"undefined", "null", "7"}) {
		t.Errorf("String() = %q", got)
	}
}

func TestOptionalMarshalErrors(t *testing.T) {
	// A field without omitzero would write an undefined Optional: refuse.
	type noOmit struct {
		S Optional[string] `json:"s"`
	}
	if b, err := json.Marshal(noOmit{}); err == nil {
		t.Errorf("marshal of undefined without omitzero = %s, want error", b)
	}
	// Some(nil map) would read back as Null: refuse.
	if b, err := json.Marshal(optionalProbe{M: Some[map[string]int](nil)}); err == nil {
		t.Errorf("marshal of Some(nil map) = %s, want error", b)
	}
	// A wrong JSON type is a decode error, not a silent null.
	var p optionalProbe
	if err := json.Unmarshal([]byte(`{"n":"x"}`), &p); err == nil {
		t.Errorf("unmarshal of string into Optional[int] succeeded: %+v", p)
	}
}

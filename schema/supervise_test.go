package schema

import (
	"reflect"
	"strings"
	"testing"
)

// TestSuperviseFields pins the JSON of agents --json and of events lines
// (SPEC.md section 13): fields may only ever be added. Each has a schema.
func TestSuperviseFields(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{AgentsOutput{}, "agents note"},
		{Agent{}, "command cwd evidence line note pane_id recognizer seconds session_name settled state title"},
		{Event{}, "evidence exit_status from pane_id recognizer session_name signal task time to type"},
	} {
		if got := strings.Join(jsonFields(reflect.TypeOf(c.v)), " "); got != c.want {
			t.Errorf("%T fields:\n got  %s\n want %s", c.v, got, c.want)
		}
		if _, err := Generate(c.v); err != nil {
			t.Errorf("%T: no schema: %v", c.v, err)
		}
	}
}

package schematest

import (
	"errors"
	"testing"

	"github.com/panectl/panectl/schema"
)

// The independent validator and the binary's own (jsonschema-go) agree on
// which inputs are valid.
func TestValidatorsAgree(t *testing.T) {
	wait, _ := schema.Lookup("wait_for_text")
	capture, _ := schema.Lookup("capture")
	for _, c := range []struct {
		tool schema.Tool
		in   string
	}{
		{wait, `{"pane_id":"%0","patterns":"x"}`},
		{wait, `{"pane_id":"%0","patterns":["x","y"],"timeout":99999}`},
		{wait, `{"pane_id":"%0","patterns":"x","bogus":1}`},
		{wait, `{"patterns":"x"}`},
		{wait, `{"pane_id":"%0","patterns":5}`},
		{wait, `{"pane_id":"%0","patterns":[]}`},
		{capture, `{"pane_id":"%0","max_lines":10001}`},
		{capture, `{"pane_id":"%0","max_lines":10000}`},
	} {
		a := schema.ValidateInput(c.tool, []byte(c.in))
		b := ValidateInput(c.tool, []byte(c.in))
		var va, vb *schema.ValidationError
		if (a == nil) != (b == nil) || errors.As(a, &va) != errors.As(b, &vb) {
			t.Errorf("%s %s: binary says %v, independent validator says %v", c.tool.Name, c.in, a, b)
		}
	}
}

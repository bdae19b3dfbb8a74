package cmd

import (
	"errors"
	"math"
	"testing"

	"github.com/panectl/panectl/cmd/tool"
)

func TestTimeoutFlag(t *testing.T) {
	for in, want := range map[string]float64{
		"1.5": 1.5, "500ms": 0.5, "2s": 2, "1m": 60, "0": 0, "-3": -3, "1e309": math.Inf(1), "Inf": math.Inf(1),
	} {
		var p *float64
		if err := (timeoutFlag{&p}).Set(in); err != nil || p == nil || *p != want {
			t.Errorf("--timeout %q: %v %v, want %v", in, p, err, want)
		}
	}
	for _, bad := range []string{"", " ", "NaN", "soon", "1x", "--"} {
		var p *float64
		err := (timeoutFlag{&p}).Set(bad)
		var ue *tool.UsageError
		if !errors.As(err, &ue) || p != nil {
			t.Errorf("--timeout %q: %v, want a usage error", bad, err)
		}
	}
	neg, big := -3.0, math.Inf(1)
	for v, want := range map[*float64]float64{nil: 30, &neg: 0, &big: 3600} {
		if got := tool.EffectiveTimeout(v); got != want {
			t.Errorf("tool.EffectiveTimeout(%v) = %v, want %v", v, got, want)
		}
	}
}

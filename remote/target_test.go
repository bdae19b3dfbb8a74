package remote

import "testing"

func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Target
		err  bool
	}{
		{in: "box", want: Target{Host: "box"}},
		{in: "me@box:2222", want: Target{User: "me", Host: "box", Port: "2222"}},
		{in: "[::1]:22", want: Target{Host: "::1", Port: "22"}},
		{in: "fe80::1", want: Target{Host: "fe80::1"}},
		{in: "a@b@box", want: Target{User: "a@b", Host: "box"}},
		{in: "", err: true},
		{in: "-oProxyCommand=x", err: true},
		{in: "-l@box", err: true},
		{in: "box:0", err: true},
		{in: "box:ssh", err: true},
		{in: "bo x", err: true},
		{in: "box\n", err: true},
		{in: "@box", err: true},
		{in: "[::1", err: true},
		{in: "[::1]x", err: true},
	} {
		got, err := ParseTarget(tc.in)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ParseTarget(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.err)
		}
		if err == nil {
			if again, err := ParseTarget(got.String()); err != nil || again != got {
				t.Errorf("ParseTarget(%q).String() = %q does not parse back: %+v, %v", tc.in, got.String(), again, err)
			}
		}
	}
}

// FuzzParseTarget: no input panics, and nothing ssh could take for an
// option gets through.
func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"box", "me@box:22", "[::1]:2", "-x", "a@-b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTarget(s)
		if err != nil {
			return
		}
		if got.destination()[0] == '-' || got.Host[0] == '-' {
			t.Errorf("ParseTarget(%q) = %+v: starts with '-'", s, got)
		}
	})
}

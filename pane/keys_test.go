package pane

import "testing"

func TestTmuxKey(t *testing.T) {
	ok := map[string]string{
		"Enter": "Enter", "enter": "Enter", "Escape": "Escape", "Tab": "Tab", "BTab": "BTab",
		"Backspace": "BSpace", "Up": "Up", "PageUp": "PPage", "PageDown": "NPage", "Delete": "DC",
		"Insert": "IC", "F1": "F1", "F12": "F12", "C-a": "C-a", "C-Z": "C-z", "M-x": "M-x", "M-.": "M-.", "Space": "Space",
	}
	for in, want := range ok {
		if got, err := TmuxKey(in); err != nil || got != want {
			t.Errorf("TmuxKey(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "F0", "F13", "F01", "C-1", "C-ab", "M-", "M- ", "Enterr", "a", ":", "C-", "f1x"} {
		if got, err := TmuxKey(bad); err == nil {
			t.Errorf("TmuxKey(%q) = %q, want an error", bad, got)
		}
	}
}

func FuzzTmuxKey(f *testing.F) {
	for _, s := range []string{"Enter", "C-c", "F5", "M-x", "zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := TmuxKey(s)
		if err != nil {
			return
		}
		if k2, err := TmuxKey(k); err != nil || k2 != k {
			t.Fatalf("TmuxKey not idempotent: %q -> %q -> %q, %v", s, k, k2, err)
		}
	})
}

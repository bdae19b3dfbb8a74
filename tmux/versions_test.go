package tmux

import (
	"testing"

	"github.com/panectl/panectl/tmux/imsg"
)

func TestFeatureTable(t *testing.T) {
	for i, f := range features {
		if f.maj != 3 || f.min < 2 || f.source == "" {
			t.Errorf("feature %d: %d.%d %q: want a release from 3.2 on and its source", i, f.maj, f.min, f.source)
		}
	}
	for _, tc := range []struct {
		v    string
		f    feature
		want bool
	}{
		{"tmux 3.2a", featRemainOnExitFormat, false}, {"tmux 3.3a", featRemainOnExitFormat, true},
		{"tmux 3.5a", featOutputVis, true}, {"tmux 3.5a", featNoOutputVis, false}, {"tmux 3.6b", featNoOutputVis, true},
		{"tmux 3.6b", featLiveHistoryLimit, false}, {"tmux 3.7c", featLiveHistoryLimit, true},
		{"tmux next-3.8", featPasteVis, true}, {"tmux master", featPasteVis, true}, {"tmux 4.0", featTabCells, true},
	} {
		if got := has(tc.v, tc.f); got != tc.want {
			t.Errorf("has(%q, %d) = %v, want %v", tc.v, tc.f, got, tc.want)
		}
	}
}

func TestTrimDeadLine(t *testing.T) {
	versions.Store("/test/tmux-3.2a", "tmux 3.2a")
	versions.Store("/test/tmux-3.3a", "tmux 3.3a")
	old, cur := &Client{Bin: "/test/tmux-3.2a"}, &Client{Bin: "/test/tmux-3.3a"}
	const dead = "Pane is dead (status 7, Wed Dec  2 13:15:27 2026)"
	for in, want := range map[string]string{
		"bye\n" + dead + "\n\n":                   "bye\n\n\n",
		"bye\nPane is dead (signal TERM, x)\n":    "bye\n\n",
		"bye\n\x1b[0m" + dead + "\x1b[0m   \n":    "bye\n\n",
		dead + "\nlast words\n":                   dead + "\nlast words\n", // not the last line
		"bye\nPane is dead (or so I say)\n":       "bye\nPane is dead (or so I say)\n",
		"bye\nsays: Pane is dead (status 1, x)\n": "bye\nsays: Pane is dead (status 1, x)\n",
	} {
		if got := old.TrimDeadLine(in); got != want {
			t.Errorf("3.2a: TrimDeadLine(%q) = %q, want %q", in, got, want)
		}
		if got := cur.TrimDeadLine(in); got != in {
			t.Errorf("3.3a: TrimDeadLine(%q) = %q, want it unchanged", in, got)
		}
	}
}

// The attach mode and header layout of each version (the captures of
// tmux/imsg pin the layouts' bytes).
func TestModeFor(t *testing.T) {
	for v, want := range map[string]attachMode{
		"tmux 3.2": attachProto, "tmux 3.3a": attachProto, "tmux 3.5a": attachProto, "tmux 3.6b": attachProto,
		"tmux 3.7": attachPlain, "tmux 3.7c": attachPlain, "tmux 4.0": attachPlain, "tmux next-3.8": attachPlain,
		"tmux master": attachLocked, "tmux next-3.6": attachLocked, "tmux openbsd-7.5": attachLocked,
		"tmux 3.6-rc": attachLocked, "": attachLocked, "tmux 3.1c": attachLocked,
	} {
		if got := modeFor(v); got != want {
			t.Errorf("modeFor(%q) = %v, want %v", v, got, want)
		}
	}
	for v, want := range map[string]imsg.Layout{
		"tmux 3.2": imsg.LayoutOld, "tmux 3.5a": imsg.LayoutOld, "tmux 3.6": imsg.LayoutNew, "tmux 3.7c": imsg.LayoutNew,
	} {
		if got := layoutFor(v); got != want {
			t.Errorf("layoutFor(%q) = %v, want %v", v, got, want)
		}
	}
}

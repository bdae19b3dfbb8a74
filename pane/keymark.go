package pane

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/panectl/panectl/tmux"
)

// keyMarkOption holds the last key panectl sent to a pane: when, and a
// fingerprint of the screen just before it. A wait tells by it whether
// a frame was drawn before the program reacted to the key.
const keyMarkOption = "@panectl_key"

// KeyMark is the last key sent to a pane and the screen it was sent to.
type KeyMark struct {
	At     time.Time // when the key was sent; zero when none is known
	Screen uint64    // FNV-1a 64 of the screen before it (Fingerprint)
}

// Fingerprint hashes what a screen shows: its size, alternate screen and
// rows, not the cursor (as Screen.Same compares).
func Fingerprint(s Screen) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%dx%d %t\n", s.Info.Width, s.Info.Height, s.Info.AlternateOn)
	h.Write([]byte(strings.Join(s.Rows, "\n")))
	return h.Sum64()
}

// MarkKey records that a key is sent now to pane id, whose screen was
// before. Call it just before sending. The commands with run in the same
// tmux call (a cursor's Token).
func MarkKey(ctx context.Context, c *tmux.Client, id string, before Screen, with ...tmux.Command) error {
	v := fmt.Sprintf("%d-%x", time.Now().UnixMilli(), Fingerprint(before)) // a plain token
	return c.SetPaneOption(ctx, id, keyMarkOption, v, with...)
}

// LoadKeyMark reads the pane's last key mark; a zero KeyMark when there
// is none or it cannot be parsed.
func LoadKeyMark(ctx context.Context, c *tmux.Client, id string) (KeyMark, error) {
	v, err := c.PaneOption(ctx, id, keyMarkOption)
	if err != nil {
		return KeyMark{}, err
	}
	var ms int64
	var sum uint64
	if _, err := fmt.Sscanf(v, "%d-%x", &ms, &sum); err != nil {
		return KeyMark{}, nil
	}
	return KeyMark{At: time.UnixMilli(ms), Screen: sum}, nil
}

// Before reports whether s is the screen the key was sent to: a frame
// the program drew before it reacted to the key.
func (m KeyMark) Before(s Screen) bool {
	return !m.At.IsZero() && Fingerprint(s) == m.Screen
}

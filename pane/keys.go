package pane

import (
	"fmt"
	"strings"
)

// namedKeys maps the key names panectl accepts (case-insensitive) to tmux's
// names (tmux(1), KEY BINDINGS).
var namedKeys = map[string]string{
	"enter": "Enter", "escape": "Escape", "esc": "Escape", "tab": "Tab", "btab": "BTab",
	"backspace": "BSpace", "bspace": "BSpace", "up": "Up", "down": "Down", "left": "Left", "right": "Right",
	"home": "Home", "end": "End", "pageup": "PPage", "ppage": "PPage", "pagedown": "NPage", "npage": "NPage",
	"delete": "DC", "dc": "DC", "insert": "IC", "ic": "IC", "space": "Space",
}

// KeyNames lists the accepted key names, for help and errors.
const KeyNames = "Enter, Escape, Tab, BTab, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Delete, Insert, F1..F12, C-a..C-z, M-<char>, Space"

// TmuxKey validates a key name and returns tmux's name for it. It accepts
// the named keys above and F1..F12. It accepts C-a..C-z, Ctrl with a
// letter, and M-x, Meta with one printable ASCII character. Anything else
// is an error naming the key.
func TmuxKey(name string) (string, error) {
	if k, ok := namedKeys[strings.ToLower(name)]; ok {
		return k, nil
	}
	lower := strings.ToLower(name)
	if len(lower) >= 2 && lower[0] == 'f' {
		var n int
		if _, err := fmt.Sscanf(lower[1:], "%d", &n); err == nil && fmt.Sprint(n) == lower[1:] && n >= 1 && n <= 12 {
			return fmt.Sprintf("F%d", n), nil
		}
	}
	if len(name) == 3 && (name[:2] == "C-" || name[:2] == "c-") {
		c := name[2] | 0x20
		if c >= 'a' && c <= 'z' {
			return "C-" + string(c), nil
		}
	}
	if len(name) == 3 && (name[:2] == "M-" || name[:2] == "m-") && name[2] > ' ' && name[2] < 0x7f {
		return "M-" + name[2:], nil
	}
	return "", fmt.Errorf("unknown key %q; valid keys: %s (to type text, use send-text)", name, KeyNames)
}

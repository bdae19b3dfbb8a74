package cmd

import (
	"strings"
	"testing"
)

// A line quoted in a message is cut, saying how much was cut.
func TestCutLines(t *testing.T) {
	long := strings.Repeat("é", 1<<19) // 1 MiB
	got := cutLines([]string{"short", long})
	if got[0] != "short" || len(got[1]) > maxQuoted+40 || !strings.HasSuffix(got[1], "... (1048376 more bytes)") {
		t.Errorf("cutLines: %q, %d bytes", got[0], len(got[1]))
	}
}

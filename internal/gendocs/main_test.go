package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/panectl/panectl/cmd"
)

// The pages cover every command (section 1) and every help topic (section 7),
// with the topic text kept line by line.
func TestWriteManPages(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600") // Jan 2026
	dir := t.TempDir()
	root := cmd.NewRootCmd(cmd.NewFactory())
	root.InitDefaultCompletionCmd()
	root.Version = "1.2.3"
	if err := writeManPages(root, dir); err != nil {
		t.Fatal(err)
	}
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" {
			continue
		}
		name := "panectl-" + c.Name() + ".1"
		if c.IsAdditionalHelpTopicCommand() {
			name = "panectl-" + c.Name() + ".7"
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("no page for %q: %v", c.Name(), err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "panectl-exit-codes.7"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{`.TH "PANECTL-EXIT-CODES" "7" "Jan 2026" "panectl 1.2.3"`, "\n  124  timed out\n", "panectl(1)"} {
		if !strings.Contains(page, want) {
			t.Errorf("panectl-exit-codes.7 lacks %q:\n%s", want, page)
		}
	}
}

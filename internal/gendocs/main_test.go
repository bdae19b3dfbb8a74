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
	var names []string
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" || c.IsAdditionalHelpTopicCommand() {
			continue
		}
		names = append(names, "panectl-"+c.Name()+".1")
	}
	for _, topic := range cmd.Topics() {
		names = append(names, "panectl-"+topic.Name+".7")
	}
	for _, name := range names {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("no page %s: %v", name, err)
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

// docs/help is the help topics as Markdown, generated from cmd/help.
func TestTopicsMarkdownFresh(t *testing.T) {
	dir := t.TempDir()
	if err := writeTopicsMarkdown(dir); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	have, _ := filepath.Glob("../../docs/help/*.md")
	if len(have) != len(want) {
		t.Errorf("docs/help has %d pages, the topics %d: run go run ./internal/gendocs -topics docs/help", len(have), len(want))
	}
	for _, file := range want {
		w, _ := os.ReadFile(file)
		h, err := os.ReadFile(filepath.Join("../../docs/help", filepath.Base(file)))
		if err != nil || string(h) != string(w) {
			t.Errorf("docs/help/%s is not up to date: run go run ./internal/gendocs -topics docs/help", filepath.Base(file))
		}
	}
}

// -markdown writes a page per command and per topic.
func TestWriteMarkdown(t *testing.T) {
	dir := t.TempDir()
	root := cmd.NewRootCmd(cmd.NewFactory())
	if err := writeMarkdown(root, dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"panectl.md", "panectl_run.md", "panectl_task_wait.md", "run.md", "exit-codes.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("no page %s: %v", name, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "panectl_run.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "See: panectl help run") {
		t.Errorf("panectl_run.md lacks the pointer to help run:\n%s", b)
	}
}

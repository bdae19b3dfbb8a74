package cmd

import (
	"bytes"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Help a person reads: every --help fits in 40 lines, and the README in 150.
const (
	maxHelpLines   = 40
	maxReadmeLines = 150
)

// helpOf runs `panectl ARGS... --help` and returns what it printed.
func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	root := NewRootCmd(NewFactory())
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append(args, "--help"))
	if err := root.Execute(); err != nil {
		t.Fatalf("panectl %s --help: %v", strings.Join(args, " "), err)
	}
	return out.String()
}

func TestHelpAtMost40Lines(t *testing.T) {
	root := NewRootCmd(NewFactory())
	root.InitDefaultCompletionCmd()
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		if c.Hidden || c.IsAdditionalHelpTopicCommand() {
			return
		}
		path := strings.Fields(c.CommandPath())[1:]
		help := helpOf(t, path...)
		n++
		if lines := strings.Count(help, "\n"); lines > maxHelpLines {
			t.Errorf("panectl %s --help is %d lines, over %d: move the prose to a help topic (cmd/help)",
				strings.Join(path, " "), lines, maxHelpLines)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if n < 20 {
		t.Fatalf("checked only %d commands", n)
	}
}

func TestReadmeAtMost150Lines(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if lines := bytes.Count(b, []byte("\n")); lines > maxReadmeLines {
		t.Errorf("README.md is %d lines, over %d: the manual goes in help topics (cmd/help)", lines, maxReadmeLines)
	}
}

// Examples come before usage, so a reader sees them first.
func TestHelpExamplesFirst(t *testing.T) {
	help := helpOf(t, "run")
	ex, usage := strings.Index(help, "\nExamples:\n"), strings.Index(help, "\nUsage:\n")
	if ex < 0 || usage < 0 || ex > usage {
		t.Errorf("run --help: Examples at %d, Usage at %d; want examples first:\n%s", ex, usage, help)
	}
}

// Every topic has a file, every file a topic, and every "panectl help X"
// in a command's help or a topic names a topic or a command.
func TestHelpTopicsComplete(t *testing.T) {
	files, _ := fs.Glob(topicFiles, "help/*.txt")
	named := map[string]bool{"tmux-versions": true}
	for _, t := range topics {
		named[t.name] = true
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt")
		if !named[name] {
			t.Errorf("cmd/%s is not in the topics list (cmd/help.go)", f)
		}
	}
	if len(files)+1 != len(topics) {
		t.Errorf("%d topic files for %d topics (tmux-versions is generated)", len(files), len(topics))
	}
	root := NewRootCmd(NewFactory())
	var texts []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		texts = append(texts, c.Long)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, tp := range Topics() {
		texts = append(texts, tp.Text)
	}
	ref := regexp.MustCompile(`panectl help ([a-z][a-z-]*[a-z])`)
	for _, text := range texts {
		for _, m := range ref.FindAllStringSubmatch(text, -1) {
			if c, _, err := root.Find([]string{m[1]}); !named[m[1]] && (err != nil || c == root) {
				t.Errorf("%q names no topic or command", m[0])
			}
		}
	}
}

// `panectl help run` prints the manual topic, `run --help` the command's
// summary that points to it.
func TestHelpTopicSharesCommandName(t *testing.T) {
	var out bytes.Buffer
	root := NewRootCmd(NewFactory())
	root.SetOut(&out)
	root.SetArgs([]string{"help", "run"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if out.String() != topicText("run") {
		t.Errorf("help run does not print the run topic:\n%s", out.String())
	}
	if help := helpOf(t, "run"); !strings.Contains(help, "See: panectl help run") {
		t.Errorf("run --help does not point to help run:\n%s", help)
	}
}

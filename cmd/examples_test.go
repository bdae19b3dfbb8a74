package cmd_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/panectl/panectl/schema"
)

// callExample is `panectl call TOOL '{...}'` in documentation; stdin
// examples are `echo '{...}' | panectl call TOOL -`.
var (
	callExample  = regexp.MustCompile(`panectl call (\w+) '([^']*)'`)
	stdinExample = regexp.MustCompile(`echo '([^']*)' \| panectl call (\w+) -`)
)

// docFiles are the documents a person reads: the README, docs/, and the
// help topics (cmd/help, also in docs/help).
func docFiles() []string {
	files := []string{"../README.md"}
	for _, glob := range []string{"../docs/*.md", "help/*.txt"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	return files
}

// TestDocExamplesValidate: the JSON input of every `panectl call` example
// in the README, docs/ and the help topics validates against its tool's
// input schema.
func TestDocExamplesValidate(t *testing.T) {
	n := 0
	for _, file := range docFiles() {
		b, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		// a shell variable spliced into the JSON ('"$C"') stands for a
		// string value
		text := strings.ReplaceAll(string(b), `'"$C"'`, "C")
		var examples [][2]string
		for _, m := range callExample.FindAllStringSubmatch(text, -1) {
			examples = append(examples, [2]string{m[1], m[2]})
		}
		for _, m := range stdinExample.FindAllStringSubmatch(text, -1) {
			examples = append(examples, [2]string{m[2], m[1]})
		}
		for _, ex := range examples {
			n++
			tool, ok := schema.Lookup(ex[0])
			if !ok {
				t.Errorf("%s: example calls unknown tool %s", file, ex[0])
				continue
			}
			if err := schema.ValidateInput(tool, []byte(ex[1])); err != nil {
				t.Errorf("%s: example %s %s: %v", file, ex[0], ex[1], err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no panectl call examples found in README.md, docs/ or cmd/help/")
	}
}

// TestDocExamplesPassCursor: a documented `call wait_for_text` that follows
// a `call send_text` in the same code block passes the cursor send_text
// returned (without it the wait starts after a fast command's output).
func TestDocExamplesPassCursor(t *testing.T) {
	n := 0
	for _, file := range docFiles() {
		n += checkPassCursor(t, file)
	}
	if n == 0 {
		t.Fatal("no call send_text / call wait_for_text example found in README.md or docs/")
	}
}

// checkPassCursor checks one file's code blocks and counts the waits.
func checkPassCursor(t *testing.T, file string) int {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, block := range strings.Split(string(b), "```") {
		if i%2 == 0 {
			continue // prose between code blocks
		}
		sent := false
		for _, line := range strings.Split(block, "\n") {
			switch {
			case strings.Contains(line, "call send_text"):
				sent = true
			case sent && strings.Contains(line, "call wait_for_text"):
				n++
				if !strings.Contains(line, `"cursor":`) {
					t.Errorf("%s: wait_for_text after send_text passes no cursor: %s", file, line)
				}
			}
		}
	}
	return n
}

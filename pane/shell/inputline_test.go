package shell

import (
	"testing"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/tmux"
)

func TestInputLinePending(t *testing.T) {
	cases := []struct {
		row             string
		x               int
		pending, prompt string
		want            string
	}{
		{"$ ", 2, "", "", ""},
		{"$", 2, "", "", ""},
		{"user@host:~/src$ ", 17, "", "", ""},
		{"$ garbage", 9, "", "", "garbage"},
		{"$ garbage", 9, "garbage", "", "garbage"},
		{"bash-5.2# echo a > b", 20, "", "", "echo a > b"},
		{"root@vm /t/h12# ", 16, "", "", ""},
		{"vm% ls -la", 10, "", "", "ls -la"},
		{"$ echo hi                       12:01:02", 9, "", "", "echo hi"},
		{"$ git sta", 5, "", "", "git sta"}, // the cursor moved left into the text
		// the learned prompt wins over the heuristic
		{"➜  h12 git:(main) ", 18, "", "➜  h12 git:(main) ", ""},
		{"➜  h12 git:(main) make", 22, "", "➜  h12 git:(main) ", "make"},
		{"➜  h12 git:(main) ", 18, "", "", ""}, // no prompt ending: taken as a prompt
		// pending text typed by panectl that ends like a prompt
		{"$ cat >", 7, "cat >", "", "cat >"},
		{"$ ", 2, "ignored since", "", ""},
	}
	for _, c := range cases {
		l := InputLineOf(pane.Screen{Rows: []string{c.row}, Info: tmux.PaneInfo{CursorX: c.x, CursorY: 0}})
		if got := l.Pending(c.pending, c.prompt); got != c.want {
			t.Errorf("%q at %d (pending %q, prompt %q): got %q, want %q", c.row, c.x, c.pending, c.prompt, got, c.want)
		}
	}
}

func FuzzInputLinePending(f *testing.F) {
	f.Add("$ garbage", 9, "garbage", "$ ")
	f.Add("➜  h12 git:(main) ", 18, "", "➜  h12 ")
	f.Add("中文❯ x", 3, "", "")
	f.Fuzz(func(t *testing.T, row string, x int, pending, prompt string) {
		if x < 0 || x > 1000 {
			return
		}
		l := InputLineOf(pane.Screen{Rows: []string{row}, Info: tmux.PaneInfo{CursorX: x}})
		got := l.Pending(pending, prompt)
		if len(got) > len(row)+len(pending)+1 {
			t.Errorf("Pending made up text: %q from row %q", got, row)
		}
		_ = l.Prompted()
	})
}

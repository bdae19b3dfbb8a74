package tmux_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/tmux"
)

// Text typed through a kept control client (set-buffer) arrives byte for
// byte, whatever tmux's parser would make of it unquoted: quotes, newlines,
// backslashes, $ and ~, formats, separators, directives, comments.
func TestTypingThroughKeptClientIsLiteral(t *testing.T) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	p := s.NewPane([2]int{80, 24}, "cat")
	c := *s.Client
	c.KeepControl(time.Minute)
	defer c.Close()
	sub, err := c.Subscribe(ctx, p, func(tmux.ControlEvent) {})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	const buf = "panectl-0123456789abcdef"
	for _, text := range []string{
		"plain", "it's", "'", "''", "a\nb", "\n", "'\n'\n", "ends with \\", `back\slash \n "dq" \"`,
		"$HOME ${HOME} ~ ~root", "#{pane_id} #(id) ##", "a ; b ;", "{ }", "}", "%if 1", "#comment",
		"-", "--", "-a", "tab\there", "ünïcödé ✓ 日本", "  spaced  ", "x\\\ny",
	} {
		if _, ok, err := tmux.ViaKept(ctx, &c, tmux.Command{"set-buffer", "-b", buf, "--", text}); !ok || err != nil {
			t.Fatalf("set-buffer %q through the kept client: ok=%v err=%v", text, ok, err)
		}
		size := ""
		for _, l := range strings.Split(s.Tmux("list-buffers", "-F", "#{buffer_name} #{buffer_size}"), "\n") {
			if n, ok := strings.CutPrefix(l, buf+" "); ok {
				size = n
			}
		}
		got, err := s.Client.Run(ctx, "show-buffer", "-b", buf)
		if err != nil {
			t.Fatal(err)
		}
		if size != strconv.Itoa(len(text)) || got != text {
			t.Errorf("typed %q, the buffer holds %q (%s bytes)", text, got, size)
		}
	}
	// What tmux's parser cannot take in a line goes by a tmux process.
	for _, text := range []string{"nul\x00byte", "bad \xff utf-8"} {
		if _, ok, _ := tmux.ViaKept(ctx, &c, tmux.Command{"set-buffer", "-b", buf, "--", text}); ok {
			t.Errorf("%q went through the kept client", text)
		}
	}
	// Typing a pane: the whole list in one line, the text pasted as it is.
	if err := c.SendText(ctx, p.ID, "one 'two'\nthree", false); err != nil {
		t.Fatal(err)
	}
	for i := 0; !strings.Contains(s.Tmux("capture-pane", "-p", "-t", p.ID), "one 'two'\nthree"); i++ {
		if i > 250 {
			t.Fatalf("the pasted text never showed: %q", s.Tmux("capture-pane", "-p", "-t", p.ID))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if out := s.Tmux("list-buffers", "-F", "#{buffer_name}"); strings.Contains(out, "panectl-") && !strings.Contains(out, buf) {
		t.Errorf("a paste buffer was left: %q", out)
	}
}

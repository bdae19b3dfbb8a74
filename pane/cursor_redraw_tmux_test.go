package pane_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/pane"
)

// An inline TUI (Claude Code, Gemini CLI, Qwen Code) keeps a bottom region
// (composer, hints) that it redraws, and inserts each turn's lines above it
// (cursor up, erase below, the lines, the region again): history grows,
// the region stays at the bottom. A cursor taken before the insert reads
// the inserted lines and the redrawn region, nothing twice, no reset (tester
// D3). The boxed footer's rows before the cursor's row are all frame
// characters, found again elsewhere (the redrawn box).
func TestReadInlineRedrawAboveBottomRegion(t *testing.T) {
	boxed := `printf '────────────────────────\r\n❯ \r\n────────────────────────\r\n  ? for shortcuts\033[2A\r\033[2C'`
	for name, footer := range map[string]string{
		"rule":  `printf '────────\r\n❯ \r\n  ? hint\033[1A\r\033[2C'`,
		"boxed": boxed,
		// history at its limit (24): tmux trims the oldest rows (24 -> 23) as the lines
		// are inserted
		"boxed trimmed": boxed,
	} {
		t.Run(name, func(t *testing.T) {
			up := `\033[1A`
			script := `stty -echo; footer() { ` + footer + `; }
i=0; while [ $i -lt 30 ]; do printf 'filler %d\r\n' $i; i=$((i+1)); done; footer
read x
for i in 0 1 2; do printf '\r` + up + `\033[J'; printf 'NEW line %d\r\n' $i; footer; done
read x; sleep 600`
			s := tmuxtest.New(t)
			ctx := context.Background()
			if name == "boxed trimmed" {
				s.Tmux("set-option", "-g", "history-limit", "24")
			}
			p := s.NewPane([2]int{40, 10}, "sh", "-c", script)
			waitText(t, s, p.ID, "filler 29")
			waitText(t, s, p.ID, "? ")
			cur, before, err := pane.Now(ctx, s.Client, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			s.Tmux("send-keys", "-t", p.ID, "Enter")
			waitText(t, s, p.ID, "NEW line 2")
			h := s.Tmux("display-message", "-p", "-t", p.ID, "#{history_size}")
			t.Logf("history %d -> %s", before.HistorySize, h)
			r, err := pane.Read(ctx, s.Client, p.ID, cur, pane.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			if name == "boxed trimmed" && h != "23" {
				t.Fatalf("history_size %s: not trimmed as planned", h)
			}
			if name == "rule" {
				want = []string{"NEW line 0", "NEW line 1", "NEW line 2", "────────", "❯", "  ? hint"}
			} else {
				want = []string{"NEW line 0", "NEW line 1", "NEW line 2", "────────────────────────", "❯", "────────────────────────", "  ? for shortcuts"}
			}
			if !reflect.DeepEqual(r.Lines, want) || r.Reset || r.LinesDropped != 0 {
				t.Errorf("lines %q reset %v dropped %d note %q; want %q", r.Lines, r.Reset, r.LinesDropped, r.Note, want)
			}
			// Read again from the new cursor: nothing new.
			again, err := pane.Read(ctx, s.Client, p.ID, r.Cursor, pane.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(again.Lines) != 0 || again.Reset {
				t.Errorf("from the new cursor: %q reset %v", again.Lines, again.Reset)
			}
		})
	}
}

// On the alternate screen, a new row whose text was already on the screen
// (an agent answering the same thing twice) is new: rows are old by their
// place in the sequence of rows, not by their text (tester D6). Also when
// the screen scrolled its first rows away.
func TestReadAlternateRepeatedRows(t *testing.T) {
	for name, second := range map[string]string{
		"grows":    `› first\r\n• OK done.\r\nWorked\r\n› second\r\n• OK done.\r\nWorked\r\n› Ask\r\n`,
		"scrolled": `• OK done.\r\nWorked\r\n› second\r\n• OK done.\r\nWorked\r\n› Ask\r\n`,
	} {
		t.Run(name, func(t *testing.T) {
			script := `stty -echo; printf '\033[?1049h\033[H\033[2J› first\r\n• OK done.\r\nWorked\r\n› Ask\r\n'
read x
printf '\033[H\033[2J` + second + `'
read x; sleep 600`
			s := tmuxtest.New(t)
			ctx := context.Background()
			p := s.NewPane([2]int{40, 10}, "sh", "-c", script)
			waitText(t, s, p.ID, "› Ask")
			cur, _, err := pane.Now(ctx, s.Client, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			s.Tmux("send-keys", "-t", p.ID, "Enter")
			waitText(t, s, p.ID, "› second")
			r, err := pane.Read(ctx, s.Client, p.ID, cur, pane.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"› second", "• OK done.", "Worked"}
			if !reflect.DeepEqual(r.Lines, want) {
				t.Errorf("lines %q; want %q", r.Lines, want)
			}
		})
	}
}

// A transcript scrolled in place on the alternate screen, as Qwen Code
// draws it: a scrollbar thumb `█` at the end of the last rows, in a border.
// Rows that the thumb leaves or reaches, or that a spinner redraws, are not
// new: only the text that was not shown is.
func TestReadAlternateRedecoratedRows(t *testing.T) {
	script := `stty -echo; printf '\033[?1049h\033[H\033[2J│ Answer to round 1\r\n│ Answer to round 2\033[2;40H█\r\n⠋ Thinking\r\n› Ask\r\n'
read x
printf '\033[H\033[2J│ Answer to round 1\033[1;40H█\r\n│ Answer to round 2\033[2;40H█\r\n│ Answer to round 3\033[3;40H█\r\n⠙ Thinking\r\n› Ask\r\n'
read x; sleep 600`
	s := tmuxtest.New(t)
	ctx := context.Background()
	p := s.NewPane([2]int{40, 10}, "sh", "-c", script)
	waitText(t, s, p.ID, "› Ask")
	cur, _, err := pane.Now(ctx, s.Client, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Tmux("send-keys", "-t", p.ID, "Enter")
	waitText(t, s, p.ID, "round 3")
	r, err := pane.Read(ctx, s.Client, p.ID, cur, pane.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lines) != 1 || !strings.HasPrefix(r.Lines[0], "│ Answer to round 3") {
		t.Errorf("lines %q; want only the row of round 3", r.Lines)
	}
}

// An inline agent cleared its screen and history (Gemini CLI's /clear),
// then inserts a turn above its composer. The cursor's rows recur, so its
// place is uncertain. The lines it saw are marked (Seen), wherever they
// were redrawn; the turn's lines are not, though one repeats an old answer.
func TestReadUncertainMarksSeenLines(t *testing.T) {
	bottom := `───\r\n> \r\nfooter`
	script := `stty -echo; printf '\033[H\033[2J\033[3Jhead\r\nAnswer 1\r\n` + bottom + `'
read x
printf '\r\033[2A\033[JAsk\r\nAnswer 1\r\n` + bottom + `'
read x; sleep 600`
	s := tmuxtest.New(t)
	ctx := context.Background()
	p := s.NewPane([2]int{40, 10}, "sh", "-c", script)
	waitText(t, s, p.ID, "footer")
	cur, _, err := pane.Now(ctx, s.Client, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Tmux("send-keys", "-t", p.ID, "Enter")
	waitText(t, s, p.ID, "Ask")
	r, err := pane.Read(ctx, s.Client, p.ID, cur, pane.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var fresh []string
	for i, l := range r.Lines {
		if i >= r.Fresh && (i >= len(r.Seen) || !r.Seen[i]) {
			fresh = append(fresh, l)
		}
	}
	if want := []string{"Ask", "Answer 1"}; !r.Uncertain || !reflect.DeepEqual(fresh, want) {
		t.Errorf("uncertain %v, lines %q, seen %v: new %q; want uncertain, new %q", r.Uncertain, r.Lines, r.Seen, fresh, want)
	}
}

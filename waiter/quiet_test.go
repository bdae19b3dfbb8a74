package waiter

import (
	"testing"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

func screenOf(rows ...string) pane.Screen {
	return pane.Screen{Rows: rows, Info: tmux.PaneInfo{Width: 80, Height: 24}}
}

func TestQuietClock(t *testing.T) {
	t0 := time.Unix(1000, 0)
	q := &quietClock{quiet: 600 * time.Millisecond}
	q.observe(screenOf("a"), t0)
	if got := q.remaining(t0.Add(100 * time.Millisecond)); got != 500*time.Millisecond {
		t.Fatalf("remaining = %v", got)
	}
	// identical content with the cursor elsewhere: not a change
	s := screenOf("a")
	s.Info.CursorX = 3
	if q.observe(s, t0.Add(200*time.Millisecond)) {
		t.Fatal("a cursor move restarted the quiet window")
	}
	if q.last.Info.CursorX != 3 {
		t.Fatal("the newest cursor is not kept")
	}
	// real change: the window restarts
	if !q.observe(screenOf("a", "b"), t0.Add(300*time.Millisecond)) {
		t.Fatal("a new row is a change")
	}
	if got := q.remaining(t0.Add(900 * time.Millisecond)); got != 0 {
		t.Fatalf("remaining = %v, want 0", got)
	}
}

func TestQuietClockFollowUps(t *testing.T) {
	t0 := time.Unix(1000, 0)
	q := &quietClock{quiet: time.Second}
	q.observe(screenOf("a"), t0)
	var got []time.Duration
	for i := 0; i < 6; i++ {
		got = append(got, q.next(t0))
	}
	want := []time.Duration{25, 50, 100, 200, 1000, 1000}
	for i := range want {
		if got[i] != want[i]*time.Millisecond {
			t.Fatalf("follow-ups %v, want %v ms", got, want)
		}
	}
	q.observe(screenOf("b"), t0)
	if d := q.next(t0); d != 25*time.Millisecond {
		t.Fatalf("after a change the first follow-up is %v", d)
	}
}

func TestTurnJudge(t *testing.T) {
	t0 := time.Unix(1000, 0)
	quiet := 600 * time.Millisecond
	input := recognize.Result{State: recognize.AwaitingInput, NeedsQuiet: true}
	approval := recognize.Result{State: recognize.AwaitingApproval}
	busy := recognize.Result{State: recognize.Busy}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }

	// input: the screen and the state unchanged for the quiet window
	j := &turnJudge{quiet: quiet}
	if out, wait := j.judge(input, ms(100), 0, t0); out != "" || wait != quiet {
		t.Fatalf("input at first sight: %q %v", out, wait)
	}
	if out, wait := j.judge(input, ms(700), 0, t0.Add(ms(500))); out != "" || wait != ms(100) {
		t.Fatalf("input seen for 500ms on a screen quiet for 700ms: %q %v", out, wait)
	}
	if out, _ := j.judge(input, quiet, 0, t0.Add(quiet)); out != schema.OutcomeTurnEnded {
		t.Fatalf("input after quiet: %q", out)
	}
	// a title flip (busy spinner gone) on an unchanged screen restarts the wait
	j = &turnJudge{quiet: quiet}
	j.judge(busy, time.Minute, 0, t0)
	if out, _ := j.judge(input, time.Minute, 0, t0.Add(ms(10))); out != "" {
		t.Fatalf("input right after busy on a long-quiet screen: %q", out)
	}

	// approval: seen without a break for ApprovalSettle, however busy the
	// rest of the screen (quietFor 0: a spinner elsewhere)
	j = &turnJudge{quiet: quiet}
	if out, wait := j.judge(approval, 0, 0, t0); out != "" || wait != ApprovalSettle {
		t.Fatalf("approval at first sight: %q %v", out, wait)
	}
	if out, _ := j.judge(approval, 0, 0, t0.Add(confirmGap)); out != "" {
		t.Fatalf("approval reported before the settle window: %q", out)
	}
	if out, _ := j.judge(approval, 0, 0, t0.Add(ApprovalSettle)); out != schema.OutcomeTurnEnded {
		t.Fatalf("approval after the settle window with a spinner elsewhere: %q", out)
	}
	// the old frame of a dialog the program is about to close (a key was
	// just pressed): replaced by busy within the settle window, never reported
	j = &turnJudge{quiet: quiet}
	j.judge(approval, 0, 0, t0)
	if out, _ := j.judge(busy, 0, 0, t0.Add(ms(50))); out != "" {
		t.Fatalf("busy right after the old frame: %q", out)
	}
	if out, _ := j.judge(busy, 0, 0, t0.Add(ms(50)+confirmGap)); out != schema.OutcomeBusy {
		t.Fatalf("busy confirmed after the old frame: %q", out)
	}

	// the frame a key was sent to (stale) never answers while it may still
	// be the old one; the dialog drawn after the key settles anew
	j = &turnJudge{quiet: quiet}
	if out, wait := j.judge(approval, time.Minute, ms(1500), t0); out != "" || wait != ms(1500) {
		t.Fatalf("the frame a key was sent to: %q %v", out, wait)
	}
	if out, _ := j.judge(approval, time.Minute, ms(500), t0.Add(time.Second)); out != "" {
		t.Fatalf("the frame a key was sent to, past the settle window: %q", out)
	}
	if out, wait := j.judge(approval, 0, 0, t0.Add(ms(1100))); out != "" || wait != ApprovalSettle {
		t.Fatalf("a dialog drawn after the key at first sight: %q %v", out, wait)
	}
	if out, _ := j.judge(approval, 0, 0, t0.Add(ms(1100)+ApprovalSettle)); out != schema.OutcomeTurnEnded {
		t.Fatalf("a dialog drawn after the key, settled: %q", out)
	}

	j = &turnJudge{quiet: quiet}
	j.judge(busy, 0, 0, t0)
	if out, _ := j.judge(busy, 0, 0, t0.Add(confirmGap)); out != schema.OutcomeBusy {
		t.Fatalf("busy confirmed: %q", out)
	}
	// a state change resets the confirmation
	j = &turnJudge{quiet: quiet}
	j.judge(busy, 0, 0, t0)
	j.judge(input, 0, 0, t0.Add(ms(30)))
	if out, _ := j.judge(busy, 0, 0, t0.Add(ms(60))); out != "" {
		t.Fatalf("busy after a flip needs its own confirmation: %q", out)
	}

	j = &turnJudge{quiet: quiet, waitThroughBusy: true}
	j.judge(busy, 0, 0, t0)
	if out, _ := j.judge(busy, time.Minute, 0, t0.Add(time.Minute)); out != "" {
		t.Fatalf("wait-through-busy returned %q", out)
	}
}

// TestTurnJudgeStates: with states, a settled state not asked for is
// waited through, and one asked for ends the wait as it would alone.
func TestTurnJudgeStates(t *testing.T) {
	t0 := time.Unix(1000, 0)
	quiet := 600 * time.Millisecond
	input := recognize.Result{State: recognize.AwaitingInput, NeedsQuiet: true}
	approval := recognize.Result{State: recognize.AwaitingApproval}
	busy := recognize.Result{State: recognize.Busy}

	j := &turnJudge{quiet: quiet, states: []recognize.State{recognize.AwaitingApproval}}
	j.judge(busy, 0, 0, t0)
	if out, _ := j.judge(busy, 0, 0, t0.Add(confirmGap)); out != "" {
		t.Fatalf("busy confirmed, not asked for: %q", out)
	}
	j.judge(input, 0, 0, t0.Add(time.Second))
	if out, wait := j.judge(input, time.Minute, 0, t0.Add(time.Minute)); out != "" || wait != quiet {
		t.Fatalf("input settled, not asked for: %q %v", out, wait)
	}
	j.judge(approval, 0, 0, t0.Add(2*time.Minute))
	if out, _ := j.judge(approval, 0, 0, t0.Add(2*time.Minute+ApprovalSettle)); out != schema.OutcomeTurnEnded {
		t.Fatalf("approval settled, asked for: %q", out)
	}

	// states win over wait-through-busy
	j = &turnJudge{quiet: quiet, waitThroughBusy: true, states: []recognize.State{recognize.Busy}}
	j.judge(busy, 0, 0, t0)
	if out, _ := j.judge(busy, 0, 0, t0.Add(confirmGap)); out != schema.OutcomeBusy {
		t.Fatalf("busy confirmed, asked for: %q", out)
	}
}

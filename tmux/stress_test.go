package tmux_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter"
)

// tmux 3.3a to 3.6b segfault when a notification reaches a control client
// that has sent MSG_IDENTIFY_FLAGS but not yet MSG_IDENTIFY_DONE (doc.go).
// These tests run panectl's real waits the way agents do, many at once, on
// sessions that are created and killed meanwhile, with and without a third
// party that churns sessions and windows, and check that the server
// survives every round and no client stays attached.
//
// PANECTL_STRESS_ATTACH=plain runs them with the old pattern (`tmux -C`,
// no lock), which crashes this machine's tmux 3.3a; PANECTL_STRESS_ROUNDS
// sets the number of rounds (default 3).

const stressWaits = 15

func TestConcurrentWaitsNeverCrashServer(t *testing.T) {
	if m := os.Getenv("PANECTL_STRESS_ATTACH"); m != "" {
		defer tmux.ForceAttach(m)()
	}
	rounds := 3
	if n, err := fmt.Sscan(os.Getenv("PANECTL_STRESS_ROUNDS"), &rounds); n != 1 || err != nil {
		rounds = 3
	}
	t.Run("waits", func(t *testing.T) { stress(t, rounds, false, true) })
	t.Run("waits+third-party", func(t *testing.T) { stress(t, rounds, true, true) })
}

// The fallback (`tmux -C` under the socket lock) keeps panectl's own
// attaches, detaches and session changes from crashing the server; it
// cannot stop a third party's (doc.go), so it runs without one, and
// without panes that exit on their own: a session that closes by itself
// notifies the clients outside the lock just as a third party's change
// does (a crash seen here on a loaded machine, where a `tmux -C` client
// takes longer to identify).
func TestConcurrentWaitsNeverCrashServerLockedFallback(t *testing.T) {
	if os.Getenv("PANECTL_STRESS_ATTACH") != "" {
		t.Skip("PANECTL_STRESS_ATTACH chooses the pattern for TestConcurrentWaitsNeverCrashServer")
	}
	defer tmux.ForceAttach("locked")()
	stress(t, 2, false, false)
}

// stress runs rounds of stressWaits concurrent waits; thirdParty adds a
// churn of sessions behind panectl's back; with selfExits every third
// pane exits by itself during its wait (else every session change is
// panectl's own).
func stress(t *testing.T, rounds int, thirdParty, selfExits bool) {
	s := tmuxtest.New(t)
	ctx := context.Background()
	pid := s.Tmux("display-message", "-p", "#{pid}")
	alive := func() bool {
		out, err := s.TryTmux("display-message", "-p", "#{pid}")
		return err == nil && out == pid
	}
	stop := make(chan struct{})
	var churned atomic.Int64
	var tp sync.WaitGroup
	if thirdParty {
		tp.Add(1)
		go func() {
			defer tp.Done()
			churn(s, stop, &churned)
		}()
	}
	defer func() {
		close(stop)
		tp.Wait()
	}()
	match, err := waiter.NewMatcher("pattern", []string{"ready"}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	none, err := waiter.NewMatcher("stop pattern", nil, false, false) // as cmd passes it
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for round := 1; round <= rounds; round++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		var failures []string
		for i := range stressWaits {
			wg.Add(1)
			go func() {
				defer wg.Done()
				fail := func(format string, a ...any) {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("wait %d: ", i)+fmt.Sprintf(format, a...))
					mu.Unlock()
				}
				// a new session per wait, created while the other waits
				// attach and detach; its pane prints a line every 0.1 s,
				// or (every third wait) exits without a match, so its
				// session is destroyed while the wait is attached
				command := fmt.Sprintf("while :; do echo ready-%d-%d; sleep 0.1; done", round, i)
				exits := selfExits && i%3 == 2
				if exits {
					// long enough to be looked up after it is made, on a
					// loaded machine too (NewPane reports a pane gone by
					// then as exited at once)
					command = "echo starting; sleep 2"
				}
				p, err := s.Client.NewPane(ctx, tmux.NewOptions{Width: 80, Height: 24, Command: []string{command}})
				if err != nil {
					fail("new session: %v", err)
					return
				}
				wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
				defer cancel()
				res, err := waiter.WaitForText(wctx, s.Client, waiter.TextOptions{PaneID: p.ID, Match: match, Stop: none, Timeout: 15 * time.Second, Pane: p})
				switch {
				case err != nil:
					fail("%v", err)
				case exits && res.Outcome != schema.OutcomeExited:
					fail("outcome %s (%s), want exited", res.Outcome, res.Note)
				case !exits && res.Outcome != schema.OutcomeMatched:
					fail("outcome %s (%s)", res.Outcome, res.Note)
				case !exits && res.Note != "":
					// the wait polled: its control client did not attach
					fail("note %q", res.Note)
				}
				// the session closes with its pane
				if err := s.Client.KillPane(ctx, p.ID); err != nil && !errors.Is(err, tmux.ErrPaneNotFound) {
					fail("kill: %v", err)
				}
			}()
		}
		wg.Wait()
		if !alive() {
			t.Fatalf("round %d: the tmux server crashed (server %s gone; %d third-party commands ran); waits: %s",
				round, pid, churned.Load(), strings.Join(failures, "; "))
		}
		if len(failures) > 0 {
			t.Fatalf("round %d: %d of %d waits failed: %s", round, len(failures), stressWaits, strings.Join(failures, "; "))
		}
		if c := s.Clients(); len(c) != 0 {
			t.Fatalf("round %d: clients left attached: %q", round, c)
		}
	}
	t.Logf("%d rounds of %d concurrent waits in %v, %d third-party commands", rounds, stressWaits, time.Since(start).Round(time.Millisecond), churned.Load())
}

// churn is a third party that ignores panectl's lock: it creates, changes
// and kills sessions, windows and panes, each change a notification to
// every control client, until stop closes.
func churn(s *tmuxtest.Server, stop <-chan struct{}, n *atomic.Int64) {
	for i := 0; ; i++ {
		name := fmt.Sprintf("churn%d", i)
		for _, args := range [][]string{
			{"new-session", "-d", "-s", name, "sleep 600"},
			{"new-window", "-t", name + ":", "sleep 600"}, // no -d: the current window changes
			{"select-window", "-t", name + ":0"},
			{"split-window", "-t", name + ":0", "sleep 600"}, // the active pane changes
			{"select-pane", "-t", name + ":0.0"},
			{"copy-mode", "-t", name + ":0.0"},
			{"send-keys", "-t", name + ":0.0", "-X", "cancel"},
			{"rename-session", "-t", name, name + "x"},
			{"kill-session", "-t", name + "x"},
		} {
			select {
			case <-stop:
				return
			default:
			}
			_, _ = s.TryTmux(args...)
			n.Add(1)
		}
	}
}

package waiter

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestSeveral: the first wait to return decides and the others are
// cancelled; with all, each runs to its end; an error ends them all. The
// waits here end on a channel, so no clock is involved.
func TestSeveral(t *testing.T) {
	// pane 1 decides; 0 and 2 wait until cancelled
	rs, decided, err := Several(context.Background(), 3, false, 0, "x", func(ctx context.Context, i int) (string, error) {
		if i == 1 {
			return "one", nil
		}
		<-ctx.Done()
		return "", ctx.Err()
	})
	if err != nil || decided != 1 || rs[1] != "one" {
		t.Fatalf("any: %q %d %v", rs, decided, err)
	}

	// all: every result, in pane order, whatever order they end in (0
	// ends after 2)
	release := make(chan struct{})
	rs, decided, err = Several(context.Background(), 3, true, 0, "x", func(ctx context.Context, i int) (string, error) {
		if i == 0 {
			<-release
		}
		if i == 2 {
			close(release)
		}
		return string(rune('a' + i)), nil
	})
	if err != nil || decided != -1 || !slices.Equal(rs, []string{"a", "b", "c"}) {
		t.Fatalf("all: %q %d %v", rs, decided, err)
	}

	// an error ends the rest, even with all
	boom := errors.New("boom")
	_, _, err = Several(context.Background(), 2, true, 0, "x", func(ctx context.Context, i int) (string, error) {
		if i == 0 {
			return "", boom
		}
		<-ctx.Done()
		return "", ctx.Err()
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error: %v", err)
	}
}

package waiter

import (
	"context"
	"time"
)

// Several runs one wait per pane at once, wait(ctx, i) for pane i of n (SPEC.md section 13). Without
// all, the first wait to return decides, and the others' contexts are cancelled. With all, each
// wait runs to its end. Several returns only once every wait has returned, so none is left
// watching a pane. It gives the results in pane order, and the index of the deciding wait (-1 with
// all). The first error ends every wait and is returned. The waits report no progress of their
// own; ctx's call reports what (for timeout) instead.
func Several[R any](ctx context.Context, n int, all bool, timeout time.Duration, what string,
	wait func(ctx context.Context, i int) (R, error)) (results []R, decided int, err error) {
	defer Waiting(ctx, "", timeout, what)()
	ctx, cancel := context.WithCancel(context.WithValue(ctx, progressKey{}, (*progress)(nil)))
	defer cancel()
	type end struct {
		i   int
		r   R
		err error
	}
	ends := make(chan end, n)
	for i := range n {
		go func() {
			r, err := wait(ctx, i)
			ends <- end{i, r, err}
		}()
	}
	results, decided = make([]R, n), -1
	over := false // an error or the deciding wait came: the rest were cancelled
	for range n {
		e := <-ends
		switch {
		case over:
		case e.err != nil:
			err, over = e.err, true
			cancel()
		case !all:
			results[e.i], decided, over = e.r, e.i, true
			cancel()
		default:
			results[e.i] = e.r
		}
	}
	return results, decided, err
}

//go:build !e2e

package cmd_test

import "testing"

// e2e is false in plain go test, which leaves the slow suites out. Those
// are the files tagged e2e, the shells but bash, and slowScripts.
const e2e = false

// TestSlowSuites says, as a skip that go test -v and -json show, that
// this run left the slow suites out.
func TestSlowSuites(t *testing.T) {
	t.Skip("the slow end-to-end suites run with -tags e2e (scripts/test.sh sets it)")
}

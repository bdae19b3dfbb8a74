//go:build !e2e

package cmd_test

// e2e is false in plain go test, which leaves the slow suites out. Those
// are the files tagged e2e, the shells but bash, and slowScripts.
const e2e = false

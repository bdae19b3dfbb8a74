//go:build e2e

package cmd_test

// e2e is true with -tags e2e (scripts/test.sh): every end-to-end test
// and script runs, on every shell.
const e2e = true

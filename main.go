// Command panectl automates real tmux panes: exact typing, cursor-based capture,
// waits that discount their own echo, turn-state recognition, shell commands
// with exact exit codes, JSON Schemas, an MCP server and an ACP bridge.
//
// Start-up is every command's cost. Go runs the init of each linked
// package, so nothing runs at init that a command does not use:
//
//   - a pattern or table of ours is built on first use (sync.OnceValue);
//   - a library whose init is heavy is linked only for a reason, named in
//     heavyInits (startup_test.go);
//   - work for one command (completion, the MCP server) waits for it.
//
// TestStartupInits checks `panectl version` under GODEBUG=inittrace=1, and
// TestNoPatternsAtInit finds patterns compiled at package level.
package main

import (
	"os"

	"github.com/panectl/panectl/cmd"
)

func main() { os.Exit(cmd.Main()) }

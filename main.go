// Command panectl automates real tmux panes: exact typing, cursor-based capture,
// waits that discount their own echo, turn-state recognition, shell commands
// with exact exit codes, JSON Schemas, an MCP server and an ACP bridge.
package main

import (
	"os"

	"github.com/panectl/panectl/cmd"
)

func main() { os.Exit(cmd.Main()) }

// Package cmd holds panectl's Cobra commands: flags fill each tool's input type,
// one call goes into the packages below, and errors map to exit codes in one place.
package cmd

// Main runs panectl and returns the process exit code.
func Main() int { return 0 }

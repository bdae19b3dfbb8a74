// Package remote runs panectl on another host over the user's own OpenSSH.
//
// The local side (Run) starts ssh with a private ControlPath, so calls to
// one host share one connection. The remote command line is a fixed word
// list: panectl's path and "remote-exec". The call itself (argv, a few
// environment variables, the terminal flags) travels as one JSON line on
// ssh's stdin, then stdin data, end of input and signals as JSON frames.
// The remote side (Serve) answers with frames: hello, stdout and stderr
// bytes, and the exit code. So no user text meets a remote shell, and
// ssh's own failures (exit 255, no exit frame) are never taken for the
// command's status.
//
// Install copies this binary to a per-user directory on a host of the
// same OS and architecture. Every call to that copy checks its version and
// its sha256 against the caller's (SelfSHA256, cached by file identity).
// Dial keeps a call open as a stream, for panectl mcp --host.
package remote

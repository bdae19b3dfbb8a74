package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/panectl/panectl/pane/acp"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/waiter"
	"github.com/spf13/cobra"
)

const watchHelp = `Stream a pane's state as JSON Lines until the pane's process exits.

--format acp prints ACP v2 (Agent Client Protocol) JSON-RPC notifications, one
per line: {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":S,
"update":U}} where U is
  - first a terminal_update with the full state: terminalId (--terminal-id,
    default the pane id), command (the foreground command), cwd, size
    {cols, rows} and output {data}: base64 of the retained history and the
    screen as bytes a terminal of that size replays (capture-pane -e rows
    joined with CR LF, then an SGR reset and the cursor position; on the
    alternate screen the normal screen, then CSI ?1049h and the alternate
    rows);
  - terminal_output_chunk {data}: base64 of new output bytes as the pane's
    program wrote them (a chunk may end inside a UTF-8 character or an
    escape sequence);
  - terminal_update patches with only what changed: cwd, size, command, and
    output (a new snapshot that replaces all output, sent when tmux dropped
    output to keep up, or on every change when control mode is unavailable);
  - last a terminal_update with exitStatus: {exitCode: N}, {signal: "SIGTERM"},
    or {} when the pane was killed and no status exists. Then watch exits 0.
--session-id defaults to the pane's tmux session id ($N).

--format events prints the same stream as panectl's own events, one JSON
object per line with a "type" and the "pane_id":
  {"type":"snapshot","data":B64,"command":C,"cwd":D,"cols":N,"rows":N}  (first)
  {"type":"output","data":B64}       new output bytes (base64)
  {"type":"cwd","cwd":D}             the working directory changed
  {"type":"size","cols":N,"rows":N}  the pane was resized
  {"type":"command","command":C}     the foreground command changed
  {"type":"snapshot","data":B64}     output replaced (see above)
  {"type":"exit","exit_code":N} or {"type":"exit","signal":"SIGTERM"} (last)

The exit status is read from the dead pane: when remain-on-exit is not on for
the pane, watch sets it (and an empty remain-on-exit-format) on the pane while
it runs; afterwards a pane that died is killed, as it would have closed by
itself, and otherwise the pane's own settings are put back. The putting back
is done by a tmux client watch starts at the beginning (tmux source-file -
reading from a pipe only watch holds), so it happens however watch ends, even
when killed with SIGKILL.

--timeout N bounds the watch (exit 124). --timeout 0 means what it means for
every wait: look once (the first update, and the exit update when the process
has already exited), then exit 124 if it has not. Without --timeout the watch
lasts until the exit.
Ctrl-C (SIGINT/SIGTERM) ends it with exit 130, the control client detached.
watch is not a tool of call or mcp: it streams.`

func newWatchCmd(f *Factory) *cobra.Command {
	var in schema.WatchInput
	cmd := &cobra.Command{
		Use:   "watch PANE --format acp|events",
		Short: "Stream a pane as ACP terminal updates or panectl events (JSON Lines) until it exits",
		Long:  watchHelp,
		Example: `  panectl watch %1 --format acp --session-id sess_1
  panectl watch %1 --format events --timeout 60 | jq -c 'select(.type != "output")'`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID = args[0]
			return runWatch(c.Context(), f, in)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&in.Format, "format", "", "acp or events (required)")
	fl.StringVar(&in.SessionID, "session-id", "", "ACP sessionId (default: the pane's session id)")
	fl.StringVar(&in.TerminalID, "terminal-id", "", "ACP terminalId (default: the pane id)")
	fl.VarP(timeoutFlag{&in.Timeout}, "timeout", "t", "stop after this many seconds (exit 124); 0: look once; default: until the pane's process exits")
	return cmd
}

// runWatch streams the pane to stdout. It returns after the exit update
// (nil), or with the context's error (timeout: 124, interrupt: 130).
func runWatch(ctx context.Context, f *Factory, in schema.WatchInput) error {
	if in.Format != "acp" && in.Format != "events" {
		return usageErrorf("--format must be acp or events, got %q", in.Format)
	}
	f.KeepControl = true // its reads go through its control client
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return err
	}
	// A timeout is clamped to [0, 3600] like every wait's (SPEC 2).
	once := in.Timeout != nil && effectiveTimeout(in.Timeout) == 0
	var deadline time.Time
	if in.Timeout != nil && !once {
		timeout := effectiveTimeout(in.Timeout)
		deadline = time.Now().Add(seconds(timeout))
		var cancel context.CancelFunc
		ctx, cancel = opContext(ctx, timeout, 0)
		defer cancel()
	}
	session := in.SessionID
	if session == "" {
		session = p.SessionID
	}
	enc := json.NewEncoder(f.IO.Out)
	enc.SetEscapeHTML(false)
	emit := func(u acp.SessionUpdate) error {
		if in.Format == "acp" {
			return enc.Encode(acp.NewACPNotification(session, u))
		}
		for _, e := range acp.WatchEvents(p.ID, u) {
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		return nil
	}
	res, err := waiter.WatchTerminal(ctx, c, p, waiter.TerminalOptions{TerminalID: in.TerminalID, Emit: emit, Once: once, Deadline: deadline})
	if res.Note != "" {
		fmt.Fprintf(f.IO.ErrOut, "note: %s\n", res.Note)
	}
	if errors.Is(err, context.DeadlineExceeded) || (err == nil && !res.Exited) {
		fmt.Fprintf(f.IO.ErrOut, "timeout: the pane's process did not exit within %gs\n", *in.Timeout)
		return &exitError{ExitTimeout, "timed out"}
	}
	return err
}

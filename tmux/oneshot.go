package tmux

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/panectl/panectl/tmux/imsg"
)

// runOwn runs a read-only command list through panectl's own client,
// attached to no session, instead of a tmux process. The server runs the
// list as it runs a `tmux -C LIST` client's: each command's output in a
// %begin ... %end block (%error for a failure, which ends the list), then it
// ends the client, as every unattached client after its command
// (server_client_command_done). A tmux process costs about 2 ms here to
// start and end; this costs one socket round trip.
//
// ok is false where it cannot run the list: a tmux that needs `tmux -C`
// (attachMode), a command that is not readOnly, a list longer than one
// message, a refusal or a stream that did not end as it should. The caller then starts a process, which runs the list exactly as
// before: every command here is read-only, so running it twice is harmless.
func (c *Client) runOwn(ctx context.Context, cmds []Command) (out string, ok bool, err error) {
	if c.attachMode() != attachProto {
		return "", false, nil
	}
	for _, cmd := range cmds {
		if !readOnly(cmd) {
			return "", false, nil // it may change something: a process does it
		}
	}
	started := time.Now()
	callCtx, cancel := context.WithTimeout(ctx, DefaultCallTimeout)
	defer cancel()
	deadline, _ := callCtx.Deadline()
	argv := CommandList(cmds).argv()
	silent := func() (string, bool, error) { // (a process would wait as long again)
		atomic.StoreInt32(&c.silent, 1)
		return "", true, &NotRespondingError{Socket: c.Server.Socket, Command: commandName(argv), After: time.Since(started).Round(time.Millisecond)}
	}
	pc, stdin, stream, err := imsg.Dial(callCtx, c.Server.Socket, c.Bin, argv, layoutFor(c.version()), deadline)
	switch {
	case errors.Is(err, imsg.ErrNoServer):
		return "", true, &NoServerError{Socket: c.Server.Socket, Stderr: "no server running on " + c.Server.Socket, From: c.Server.From}
	case err != nil && ctx.Err() == context.Canceled:
		return "", true, ctx.Err()
	case err != nil && callCtx.Err() != nil:
		return silent()
	case err != nil:
		return "", false, nil // refused, or could not connect: tmux's own words come from a process
	}
	// The client ends by itself; Kill only cuts the exit handshake short
	// once the answer is read (the client has identified: harmless).
	defer pc.Kill()
	defer stdin.Close()
	stop := context.AfterFunc(callCtx, pc.Kill)
	defer stop()
	outs, failure, complete := readBlocks(stream, len(cmds))
	switch {
	case ctx.Err() == context.Canceled:
		return "", true, ctx.Err()
	case callCtx.Err() != nil:
		return silent()
	case !complete:
		return "", false, nil
	}
	atomic.StoreInt32(&c.silent, 0)
	if failure != "" {
		te := &Error{Args: append([]string{"-S", c.Server.Socket}, argv...), ExitCode: 1, Stderr: failure, kind: classify(failure)}
		if te.kind == ErrNoServer {
			return "", true, &NoServerError{Socket: c.Server.Socket, Stderr: failure, From: c.Server.From}
		}
		return "", true, te
	}
	return strings.Join(outs, ""), true, nil
}

// readBlocks reads a one-shot client's stream until n command blocks, or a
// failed one, have come. Lines outside blocks (notifications) are skipped.
// failure is a failed block's message; complete is false when the stream
// ended first, or broke a bound of Control.read.
func readBlocks(r io.Reader, n int) (outs []string, failure string, complete bool) {
	br := bufio.NewReaderSize(r, 16<<10)
	var buf, block []byte
	open := "" // "TIME NUMBER" of the open block
	for len(outs) < n {
		line, err := readLine(br, &buf, MaxControlLine)
		if err != nil {
			return nil, "", false
		}
		if open == "" {
			name, rest, _ := bytes.Cut(line, []byte(" "))
			if f := strings.Fields(string(rest)); string(name) == "%begin" && len(f) == 3 {
				open, block = f[0]+" "+f[1], block[:0]
			}
			continue
		}
		if id, failed, ok := blockEnd(line); ok && id == open {
			if failed {
				return nil, strings.TrimSpace(string(block)), true
			}
			outs = append(outs, string(block))
			open = ""
			continue
		}
		if len(block)+len(line) >= MaxControlBlock {
			return nil, "", false
		}
		block = append(append(block, line...), '\n')
	}
	return outs, "", true
}

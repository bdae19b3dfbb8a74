package tmux

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/panectl/panectl/tmux/imsg"
)

// runOwn runs a read-only command list through panectl's own client,
// attached to no session, instead of a tmux process. The server runs the
// list as it runs a `tmux -C LIST` client's: each command's output, and each
// hook's, in a %begin ... %end block (%error for a failure, which ends the
// list), then it ends the client, as every unattached client after its
// command (server_client_command_done). A tmux process costs about 2 ms here
// to start and end; this costs one socket round trip.
//
// ok is false where it cannot run the list: a tmux that needs `tmux -C`
// (attachMode), a command that is not readOnly, a list longer than one
// message, no server (a process says so in tmux's words), a server whose
// binary cannot be checked, a refusal, or a stream readBlocks does not
// trust. The caller then starts a process, which runs the list exactly as
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
	pc, stdin, stream, err := imsg.Dial(callCtx, c.Server.Socket, c.Bin, argv, layoutFor(c.version()), deadline, true)
	switch {
	case err != nil && ctx.Err() == context.Canceled:
		return "", true, ctx.Err()
	case err != nil && callCtx.Err() != nil:
		return silent()
	case err != nil:
		return "", false, nil // no server, refused, or could not connect: tmux's own words come from a process
	}
	defer pc.Kill()
	defer stdin.Close()
	stop := context.AfterFunc(callCtx, pc.Kill)
	defer stop()
	out, blocks, failure, trusted := readBlocks(stream)
	switch {
	case ctx.Err() == context.Canceled:
		return "", true, ctx.Err()
	case callCtx.Err() != nil:
		return silent()
	case !trusted || failure == "" && blocks < len(cmds):
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
	return out, true, nil
}

// readBlocks reads a one-shot client's stream to its end and returns the
// output of its blocks, joined, how many there were, and the first failed
// block's message. A command's output is copied raw between its guard lines,
// so a pane can print a line that looks like one ("%end TIME NUMBER FLAGS",
// with a guessed number): such a stream is not trusted. tmux writes only
// notifications (lines that start with "%") between blocks, a %begin's
// number is above the last, and the stream ends between blocks. A forged
// %end leaves the rest of the output, and the real %end, between blocks; a
// forged %begin repeats a number or leaves a block open at the end. trusted
// is false for those, and for a stream past a bound of Control.read. The
// output is copied once on its way (a wait reads up to 1 MiB of pane options).
func readBlocks(r io.Reader) (out string, blocks int, failure string, trusted bool) {
	br := bufio.NewReaderSize(r, 16<<10)
	var buf, all []byte
	open, last, start := "", -1, 0 // "TIME NUMBER" of the open block; the last block's number; where its output starts
	for {
		line, err := readLine(br, &buf, MaxControlLine)
		switch {
		case errors.Is(err, io.EOF):
			return string(all), blocks, failure, open == ""
		case err != nil:
			return "", 0, "", false
		}
		if open != "" {
			if id, failed, ok := blockEnd(line); ok && id == open {
				if failed {
					if failure == "" {
						failure = strings.TrimSpace(string(all[start:]))
					}
					all = all[:start]
				} else {
					blocks++
				}
				open = ""
				continue
			}
			if len(all)-start+len(line) >= MaxControlBlock {
				return "", 0, "", false
			}
			all = append(append(all, line...), '\n')
			continue
		}
		name, rest, _ := bytes.Cut(line, []byte(" "))
		f := strings.Fields(string(rest))
		switch {
		case len(line) == 0 || line[0] != '%' || string(name) == "%end" || string(name) == "%error":
			return "", 0, "", false // output between blocks: a guard line was forged
		case string(name) == "%begin":
			n, err := -1, error(nil)
			if len(f) == 3 {
				n, err = strconv.Atoi(f[1])
			}
			if err != nil || n <= last {
				return "", 0, "", false // not tmux's, or a number seen before
			}
			open, last, start = f[0]+" "+f[1], n, len(all)
		}
	}
}

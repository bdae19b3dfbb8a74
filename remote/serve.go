package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// RunFunc runs one call's command in this process and returns its exit
// code. Its stdin, stdout and stderr are the caller's, through frames.
type RunFunc func(ctx context.Context, call Call, stdin io.Reader, stdout, stderr io.Writer) int

// Exit codes Serve returns on its own: panectl's failure and interrupt.
const (
	exitFailure     = 1
	exitInterrupted = 130
)

// Serve is the remote side of a call (panectl remote-exec): it reads the
// header from in, runs it with run, and writes frames to out. A signal
// frame, or in ending without an end-of-input frame (the caller or the
// connection went away), cancels the command's context; after grace it
// exits 130 regardless. It returns the exit code it sent.
func Serve(ctx context.Context, in io.Reader, out io.Writer, version string, grace time.Duration, run RunFunc) int {
	fr, fw := newFrameReader(in), newFrameWriter(out)
	var call Call
	err := fr.next(&call)
	if err == nil && len(call.Args) == 0 {
		err = errors.New("no arguments")
	}
	if err != nil {
		return finish(fw, exitFailure, fmt.Sprintf("panectl remote-exec: bad call on stdin: %v (it is run by panectl -H, not by hand)\n", err))
	}
	if err := fw.send(frame{Hello: version}); err != nil {
		return exitFailure
	}
	if call.Version != version {
		return finish(fw, exitFailure, fmt.Sprintf("panectl: this host runs panectl %s, the caller is %s: run `panectl remote install HOST` there\n", version, call.Version))
	}
	if call.SHA256 != "" {
		if own, err := SelfSHA256(); err != nil || own != call.SHA256 {
			if err != nil {
				own = err.Error()
			}
			return finish(fw, exitFailure, fmt.Sprintf("panectl: the installed panectl %s on this host is not the caller's build (sha256 %s, want %s): run `panectl remote install HOST` again\n", version, own, call.SHA256))
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stdin, pw := io.Pipe()
	chunks := make(chan []byte, 64)
	go func() {
		for b := range chunks {
			if _, err := pw.Write(b); err != nil {
				break
			}
		}
		pw.Close()
	}()
	go readFrames(fr, chunks, cancel)
	done := make(chan int, 1)
	go func() { done <- run(ctx, call, stdin, streamWriter{w: fw}, streamWriter{w: fw, err: true}) }()
	select {
	case code := <-done:
		return finish(fw, code, "")
	case <-ctx.Done():
	}
	select {
	case code := <-done:
		return finish(fw, code, "")
	case <-time.After(grace):
		return finish(fw, exitInterrupted, "panectl: interrupted\n")
	}
}

// readFrames hands stdin data to chunks and cancels on a signal frame or
// when the caller's stream ends without an end-of-input frame.
func readFrames(fr *frameReader, chunks chan<- []byte, cancel context.CancelFunc) {
	open := true
	for {
		var f frame
		if err := fr.next(&f); err != nil {
			cancel() // the caller is gone
			break
		}
		switch {
		case f.Signal != "":
			cancel()
		case f.EOF && open:
			close(chunks)
			open = false
		case len(f.Stdin) > 0 && open:
			chunks <- f.Stdin
		}
	}
	if open {
		close(chunks)
	}
}

// finish sends msg on stderr (when not empty) and the exit frame.
func finish(fw *frameWriter, code int, msg string) int {
	if msg != "" {
		_ = fw.send(frame{Stderr: []byte(msg)})
	}
	_ = fw.send(frame{Exit: &code})
	return code
}

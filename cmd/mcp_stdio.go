package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/panectl/panectl/schema"
)

// The official Go SDK's stdio transport (mcp.IOTransport, go-sdk v1.8.0)
// ends the whole session on the first line that is not valid JSON: its
// reader stops at a decode error (modelcontextprotocol/go-sdk issue #1209;
// the fix, PR #1210, is not in a release yet). JSON-RPC 2.0 wants a Parse
// error (-32700) answer with a null id and the session to go on. Until the
// SDK does that, mcpStdio sits in front of it: it reads stdin line by line,
// answers a line that is not JSON itself, and hands every other line to the
// SDK unchanged. Remove it when a go-sdk release carries PR #1210.
//
// The same reader also ends the session on a line that is JSON but not one
// JSON-RPC 2.0 message it can decode (`{}`, `null`, `42`, a message without
// "jsonrpc":"2.0") and on any batch once the protocol is 2025-06-18 or later
// (go-sdk v1.8.0 mcp/transport.go, ioConn.Read and readBatch). The filter
// answers those with an Invalid Request error (-32600) itself: every batch
// (MCP 2025-06-18 dropped batching, and panectl serves only one message a
// line), and every object that jsonrpc.DecodeMessage refuses or that is
// neither a request nor a response.

// maxMCPLine bounds one inbound line, as `call` bounds its input (the SDK
// would take 16 MiB): a longer line is answered with -32700 and skipped,
// never buffered whole.
const maxMCPLine = schema.MaxCallInput

// maxCallsInFlight bounds the tool calls running at once. One more is
// answered with an error at once, never queued.
const maxCallsInFlight = 8

// mcpStdio is the transport of `panectl mcp`: the SDK's IOTransport over a
// filtered stdin, and an stdout shared (one message per Write, under a
// lock) between the SDK and the filter's own answers.
//
// At the end of stdin the SDK would end the session at once and drop the
// requests still running. So the filter notes the id of each request it
// passes, the writer strikes it off when the SDK answers it, and stdin's
// end reaches the SDK only once every request has its answer.
func mcpStdio(in io.Reader, out io.Writer) *mcp.IOTransport {
	w := &lockedWriter{w: out}
	open := newPending()
	pr, pw := io.Pipe()
	go func() {
		err := filterJSONLines(in, open.noting(pw), w, maxMCPLine, open.admit)
		if err == nil {
			open.wait()
		}
		pw.CloseWithError(err)
	}()
	return &mcp.IOTransport{Reader: pr, Writer: nopWriteCloser{open.striking(w)}}
}

// pending holds the ids of the requests passed to the SDK and not yet
// answered, and of those the client cancelled.
//
// MCP says a receiver should not answer a cancelled request, but the SDK
// (go-sdk v1.8.0) writes the handler's result whatever it returns
// (modelcontextprotocol/go-sdk issue #1235). So the writer withholds the
// answer to a request cancelled while it ran. Remove that part when a
// go-sdk release fixes #1235.
type pending struct {
	mu        sync.Mutex
	done      *sync.Cond
	ids       map[string]int
	cancelled map[string]bool
}

func newPending() *pending {
	p := &pending{ids: map[string]int{}, cancelled: map[string]bool{}}
	p.done = sync.NewCond(&p.mu)
	return p
}

// message is what pending reads of one JSON-RPC line.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// add counts a request in (delta 1) or its response out (delta -1). A
// request the client cancels gets no response, so its cancellation strikes
// it off too, and marks it cancelled.
func (p *pending) add(line []byte, delta int) {
	var m message
	if json.Unmarshal(line, &m) != nil {
		return
	}
	id, cancel := m.ID, false
	switch {
	case delta > 0 && m.Method == "notifications/cancelled":
		id, delta, cancel = m.Params.RequestID, -1, true
	case (delta > 0) != (m.Method != ""): // a request in, a response out
		return
	}
	if len(id) == 0 || string(id) == "null" {
		return
	}
	key := string(id)
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, open := p.ids[key]; !open && delta < 0 {
		return // answered already, or never passed
	}
	if cancel {
		p.cancelled[key] = true
	}
	if p.ids[key] += delta; p.ids[key] <= 0 {
		delete(p.ids, key)
		p.done.Broadcast()
	}
}

// withhold reports whether a response out answers a cancelled request,
// and forgets that request.
func (p *pending) withhold(line []byte) bool {
	p.mu.Lock()
	n := len(p.cancelled)
	p.mu.Unlock()
	if n == 0 {
		return false // the common case reads nothing
	}
	var m message
	if json.Unmarshal(line, &m) != nil || m.Method != "" || len(m.ID) == 0 {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cancelled[string(m.ID)] {
		delete(p.cancelled, string(m.ID))
		return true
	}
	return false
}

// admit refuses a request that would cost far more than it could be
// worth (schema.CheckShape: a string past 1 MiB, deep nesting), and a tool
// call past maxCallsInFlight.
func (p *pending) admit(line []byte) error {
	if err := schema.CheckShape(line); err != nil {
		return err
	}
	var m message
	if json.Unmarshal(line, &m) != nil || m.Method != "tools/call" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.ids) >= maxCallsInFlight {
		// -32000, a server error: the call was well formed
		return &admitError{-32000, fmt.Sprintf("Server busy: %d tool calls are running already, the most panectl takes at once: wait for one to end", maxCallsInFlight)}
	}
	return nil
}

// wait returns once every request passed has been answered.
func (p *pending) wait() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.ids) > 0 {
		p.done.Wait()
	}
}

// noting passes each line to w and notes a request's id.
func (p *pending) noting(w io.Writer) io.Writer {
	return writerFunc(func(b []byte) (int, error) {
		p.add(b, 1)
		return w.Write(b)
	})
}

// striking passes each message to w and strikes off a response's id. It
// drops the answer to a cancelled request.
func (p *pending) striking(w io.Writer) io.Writer {
	return writerFunc(func(b []byte) (int, error) {
		if p.withhold(b) {
			return len(b), nil
		}
		n, err := w.Write(b)
		p.add(b, -1)
		return n, err
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// lockedWriter serialises Writes, so a filter answer never lands inside
// a message the SDK is writing.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// filterJSONLines copies the lines of in that are JSON-RPC 2.0 messages to
// pass (each with its newline) and skips blank lines. It answers on answer
// a line that is not JSON with a Parse error (code -32700, id null), and a
// JSON line that is not one message with an Invalid Request error (code
// -32600, with the line's id when it has one). It returns nil at the end of
// in, or the first error reading in or writing pass.
func filterJSONLines(in io.Reader, pass, answer io.Writer, max int, admit func([]byte) error) error {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readBoundedLine(br, max)
		if len(line) > 0 || tooLong {
			trimmed := bytes.TrimSpace(line)
			switch {
			case tooLong:
				parseError(answer, fmt.Sprintf("the line is longer than %d bytes", max))
			case len(trimmed) == 0:
			case !json.Valid(trimmed):
				parseError(answer, "the line is not valid JSON")
			default:
				if err := admitted(admit, trimmed); err != nil {
					errorResponse(answer, trimmed, err.code, err.Error())
				} else if why := invalidMessage(trimmed); why != "" {
					invalidRequest(answer, trimmed, why)
				} else if _, werr := pass.Write(append(trimmed, '\n')); werr != nil {
					return werr
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// admitError is a request refused before the SDK sees it, with its
// JSON-RPC error code.
type admitError struct {
	code int
	msg  string
}

func (e *admitError) Error() string { return e.msg }

func admitted(admit func([]byte) error, line []byte) *admitError {
	if admit == nil {
		return nil
	}
	err := admit(line)
	if err == nil {
		return nil
	}
	if ae, ok := err.(*admitError); ok {
		return ae
	}
	return &admitError{-32602, "Invalid params: " + err.Error()}
}

// readBoundedLine reads one line (without its newline). A line longer than
// max is read to its end and dropped: tooLong, no bytes.
func readBoundedLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == nil {
			line = bytes.TrimSuffix(line, []byte("\n"))
		}
		return line, tooLong, err
	}
}

// invalidMessage says why line, a JSON value, is not one JSON-RPC 2.0
// message for the SDK ("" when it is one).
func invalidMessage(line []byte) string {
	if line[0] == '[' {
		return "batches are not supported: send one message a line"
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return err.Error()
	}
	var m struct{ Method, Result, Error json.RawMessage }
	if err := json.Unmarshal(line, &m); err != nil {
		return err.Error()
	}
	if m.Method == nil && m.Result == nil && m.Error == nil {
		return "a message has a method (a request or notification), or a result or an error (a response)"
	}
	return ""
}

// invalidRequest writes a JSON-RPC 2.0 Invalid Request response to line.
func invalidRequest(w io.Writer, line []byte, detail string) {
	errorResponse(w, line, -32600, "Invalid Request: "+detail)
}

// errorResponse writes a JSON-RPC 2.0 error response to line, with its id
// when that is a string or a number (else null).
func errorResponse(w io.Writer, line []byte, code int, message string) {
	var m struct{ ID json.RawMessage }
	var id any
	if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 && strings.ContainsRune(`"-0123456789`, rune(m.ID[0])) {
		id = m.ID // as sent: a number keeps its digits
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": message},
	})
	_, _ = w.Write(append(b, '\n'))
}

// parseError writes a JSON-RPC 2.0 Parse error response (id null: the
// request's id could not be read).
func parseError(w io.Writer, detail string) {
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": -32700, "message": "Parse error: " + detail},
	})
	_, _ = w.Write(append(b, '\n'))
}

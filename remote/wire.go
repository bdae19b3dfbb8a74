package remote

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// Call is the header of one remote call: the first line on ssh's stdin.
type Call struct {
	// Version is the caller's panectl version; a remote of another
	// version refuses the call.
	Version string `json:"version"`
	// SHA256, when set, is the sha256 the remote binary must have: the
	// caller's own, when it runs the copy remote install made of it.
	SHA256 string   `json:"sha256,omitempty"`
	Args   []string `json:"args"`
	// Env holds the few variables that shape output (NO_COLOR, TERM).
	Env map[string]string `json:"env,omitempty"`
	// OutTTY, ErrTTY and ErrColor are the caller's terminal facts.
	OutTTY   bool `json:"out_tty,omitempty"`
	ErrTTY   bool `json:"err_tty,omitempty"`
	ErrColor bool `json:"err_color,omitempty"`
}

// frame is one message after the header, in either direction.
type frame struct {
	Hello  string `json:"hello,omitempty"` // the remote's version, first
	Stdin  []byte `json:"in,omitempty"`
	EOF    bool   `json:"eof,omitempty"` // the caller's stdin ended
	Signal string `json:"signal,omitempty"`
	Stdout []byte `json:"out,omitempty"`
	Stderr []byte `json:"err,omitempty"`
	Exit   *int   `json:"exit,omitempty"`
}

// maxFrame bounds one decoded line: a chunk of maxChunk bytes in base64,
// or a header of maxArgs bytes.
const (
	maxChunk = 32 << 10
	maxArgs  = 4 << 20
	maxFrame = maxArgs + 1024
)

// frameWriter writes frames; it is safe for concurrent use.
type frameWriter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func newFrameWriter(w io.Writer) *frameWriter {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &frameWriter{enc: enc}
}

func (w *frameWriter) send(v any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.enc.Encode(v)
}

// streamWriter turns writes into frames of one stream (stdout or stderr).
type streamWriter struct {
	w   *frameWriter
	err bool
}

func (s streamWriter) Write(p []byte) (int, error) {
	for off := 0; off < len(p); off += maxChunk {
		chunk := p[off:min(off+maxChunk, len(p))]
		f := frame{Stdout: chunk}
		if s.err {
			f = frame{Stderr: chunk}
		}
		if err := s.w.send(f); err != nil {
			return off, err
		}
	}
	return len(p), nil
}

// frameReader decodes frames, one JSON object a line, each bounded.
type frameReader struct{ sc *bufio.Scanner }

func newFrameReader(r io.Reader) *frameReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxFrame)
	return &frameReader{sc: sc}
}

// next decodes the next line into v; io.EOF when the stream ended.
func (r *frameReader) next(v any) error {
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			return err
		}
		return io.EOF
	}
	if err := json.Unmarshal(r.sc.Bytes(), v); err != nil {
		return fmt.Errorf("malformed frame: %w", err)
	}
	return nil
}

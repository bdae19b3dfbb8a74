package tmux

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// endless is a reader that never ends: first head, then fill forever.
type endless struct {
	head []byte
	fill []byte
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(e.head) > 0 {
			c := copy(p[n:], e.head)
			e.head, n = e.head[c:], n+c
			continue
		}
		n += copy(p[n:], e.fill)
	}
	return n, nil
}

// bareControl is a Control with no tmux behind it: what it writes goes to
// /dev/null.
func bareControl(t testing.TB) *Control {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { null.Close() })
	return &Control{ready: make(chan struct{}), done: make(chan struct{}), readEnd: make(chan struct{}),
		panes: map[string]*paneInterest{}, born: time.Now(), stallCh: make(chan struct{}), owner: &Client{}, stdin: null}
}

// A peer that sends an endless line, or a block that never ends, is left
// once past the bounds, with the reason: its bytes are never all kept.
func TestControlReadBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		in   io.Reader
		want string
	}{
		{"endless line", &endless{fill: []byte("x")}, "a line longer than 4 MiB"},
		{"endless block", &endless{head: []byte("%begin 1 2 1\n"), fill: []byte(strings.Repeat("y", 99) + "\n")}, "output longer than 16 MiB"},
	} {
		k := bareControl(t)
		done := make(chan struct{})
		go func() { k.read(c.in); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second): // far past any machine's time to read 16 MiB
			t.Fatalf("%s: the reader did not give up", c.name)
		}
		if !strings.Contains(k.Reason(), c.want) {
			t.Errorf("%s: reason %q, want %q", c.name, k.Reason(), c.want)
		}
	}
}

// FuzzControlRead: any bytes from the server end the reader at EOF,
// without a panic.
func FuzzControlRead(f *testing.F) {
	f.Add([]byte("%begin 1 2 1\nhello\n%end 1 2 1\n%output %1 a\\015\\012\n%session-changed $1 s\n%exit\n"))
	f.Add([]byte("%extended-output %3 12 : data\n%pause %3\n%begin 9 9\n%error 9 9 0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		k := bareControl(t)
		k.read(bytes.NewReader(b))
	})
}

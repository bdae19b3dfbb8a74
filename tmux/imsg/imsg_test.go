package imsg

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
)

// capture is one testdata/imsg-*.txt file: what a real `tmux -C` client
// sent its server (tmux/imsg/testdata/imsgcapture made them).
type capture struct {
	version string
	pid     int32
	reads   []captureRead
}

type captureRead struct {
	fds  []string // which of the client's pipes came with the read: "stdin", "stdout"
	data []byte
}

func loadCapture(t *testing.T, path string) capture {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c capture
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		word, rest, _ := strings.Cut(line, " ")
		switch {
		case strings.HasPrefix(line, "#"):
		case word == "version":
			c.version = rest
		case word == "pid":
			n, err := strconv.Atoi(rest)
			if err != nil {
				t.Fatal(err)
			}
			c.pid = int32(n)
		case word == "read":
			f := strings.Fields(rest) // N fds LIST
			var r captureRead
			if f[2] != "-" {
				r.fds = strings.Split(f[2], ",")
			}
			c.reads = append(c.reads, r)
		default:
			b, err := hex.DecodeString(line)
			if err != nil || len(c.reads) == 0 {
				t.Fatalf("%s: bad line %q", path, line)
			}
			r := &c.reads[len(c.reads)-1]
			r.data = append(r.data, b...)
		}
	}
	if c.version == "" || c.pid == 0 || len(c.reads) == 0 {
		t.Fatalf("%s: incomplete capture", path)
	}
	return c
}

// capturedMsg is one message of a capture, with the pipe its fd was.
type capturedMsg struct {
	h    Header
	raw  []byte
	data []byte
	fd   string
}

// split cuts a capture into messages; a read's fd belongs to its message
// that says it carries one.
func (c capture) split(t *testing.T, l Layout) []capturedMsg {
	t.Helper()
	var msgs []capturedMsg
	for _, r := range c.reads {
		b := r.data
		fds := r.fds
		for len(b) > 0 {
			h, err := l.ParseHeader(b)
			if err != nil || h.Len > len(b) {
				t.Fatalf("%s: message split across reads or bad header at %x: %v", c.version, b, err)
			}
			m := capturedMsg{h: h, raw: b[:h.Len], data: b[HeaderSize:h.Len]}
			if h.HasFD {
				if len(fds) == 0 {
					t.Fatalf("%s: message %d says it carries an fd, its read has none", c.version, h.Type)
				}
				m.fd, fds = fds[0], fds[1:]
			}
			msgs = append(msgs, m)
			b = b[h.Len:]
		}
		if len(fds) != 0 {
			t.Fatalf("%s: a read brought fds %v no message claims", c.version, fds)
		}
	}
	return msgs
}

// The wire format of both header layouts against what tmux's own client
// sent (3.3a: the old layout; 3.6b: the new one): every captured message
// re-encodes to the same bytes, the two pipes travel with STDIN and
// STDOUT, and panectl's attach chunk is exactly the captured identify and
// command messages (same values) without ENVIRON, the fd messages going
// first.
func TestImsgWireFormatMatchesTmuxClient(t *testing.T) {
	argv := []string{"attach-session", "-t", "$0", "-r", "-E", "-f", "ignore-size,read-only,pause-after=1"}
	for _, tc := range []struct {
		file    string
		version string
		layout  Layout
	}{
		{"testdata/imsg-3.3a.txt", "tmux 3.3a", LayoutOld},
		{"testdata/imsg-3.6b.txt", "tmux 3.6b", LayoutNew},
	} {
		t.Run(tc.version, func(t *testing.T) {
			c := loadCapture(t, tc.file)
			if c.version != tc.version {
				t.Fatalf("capture of %q, want %q", c.version, tc.version)
			}
			msgs := c.split(t, tc.layout)
			var rest []byte
			var fdMsgs [][]byte
			for _, m := range msgs {
				if m.h.PeerID != ProtocolVersion || m.h.PID != imsgPID {
					t.Errorf("message %d: peerid %d pid %#x, want %d and %#x", m.h.Type, m.h.PeerID, m.h.PID, ProtocolVersion, imsgPID)
				}
				if got := tc.layout.Append(nil, m.h.Type, m.h.HasFD, m.data); !bytes.Equal(got, m.raw) {
					t.Errorf("message %d encodes as\n%x\ntmux sent\n%x", m.h.Type, got, m.raw)
				}
				switch m.h.Type {
				case MsgIdentifyStdin, MsgIdentifyStdout:
					want := map[uint32]string{MsgIdentifyStdin: "stdin", MsgIdentifyStdout: "stdout"}[m.h.Type]
					if m.fd != want || len(m.data) != 0 {
						t.Errorf("message %d came with fd %q and %d data bytes, want the %s pipe and none", m.h.Type, m.fd, len(m.data), want)
					}
					fdMsgs = append(fdMsgs, m.raw)
				case MsgIdentifyEnviron:
				default:
					if m.h.HasFD {
						t.Errorf("message %d carries an fd", m.h.Type)
					}
					rest = append(rest, m.raw...)
				}
			}
			if len(fdMsgs) != 2 {
				t.Fatalf("%d fd messages, want STDIN and STDOUT", len(fdMsgs))
			}
			for i, typ := range []uint32{MsgIdentifyStdin, MsgIdentifyStdout} {
				if got := tc.layout.Append(nil, typ, true, nil); !bytes.Equal(got, fdMsgs[i]) {
					t.Errorf("fd message %d is %x, tmux sent %x", typ, got, fdMsgs[i])
				}
			}
			chunk, err := tc.layout.AttachChunk(Identity{Flags: ControlClientFlags, Term: "xterm-256color", CWD: "/", PID: c.pid}, argv)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(chunk, rest) {
				t.Errorf("attach chunk\n%x\ntmux sent (without fds and environment)\n%x", chunk, rest)
			}
		})
	}
}

func TestImsgHeaderLayouts(t *testing.T) {
	for _, l := range []Layout{LayoutOld, LayoutNew} {
		for _, fd := range []bool{false, true} {
			b := l.Append(nil, MsgCommand, fd, []byte("abc"))
			h, err := l.ParseHeader(b)
			if err != nil || h.Type != MsgCommand || h.Len != HeaderSize+3 || h.HasFD != fd || h.PeerID != ProtocolVersion {
				t.Errorf("%v fd=%v: %+v %v", l, fd, h, err)
			}
		}
		if _, err := l.ParseHeader(make([]byte, 10)); err == nil {
			t.Errorf("%v: short header accepted", l)
		}
		bad := l.Append(nil, MsgExit, false, nil)
		if l == LayoutNew {
			binary.NativeEndian.PutUint32(bad[4:], maxImsgSize+1)
		} else {
			binary.NativeEndian.PutUint16(bad[4:], 8)
		}
		if _, err := l.ParseHeader(bad); err == nil {
			t.Errorf("%v: bad length accepted", l)
		}
	}
	// The same fd-carrying header read with the other layout: the old one
	// reads the new fd mark as a length over tmux's limit, the new one
	// reads the old fd flag into the length. Neither is taken for a
	// message carrying an fd, which is why the layout must follow the
	// server's version.
	if h, err := LayoutNew.ParseHeader(LayoutOld.Append(nil, MsgIdentifyStdin, true, nil)); err == nil {
		t.Errorf("an old-layout fd message parses in the new layout: %+v", h)
	}
	if h, err := LayoutOld.ParseHeader(LayoutNew.Append(nil, MsgIdentifyStdin, true, nil)); err == nil && h.HasFD {
		t.Errorf("a new-layout fd message parses as carrying an fd in the old layout: %+v", h)
	}
}

func TestAttachChunkBounds(t *testing.T) {
	if _, err := LayoutOld.AttachChunk(Identity{}, []string{"a\x00b"}); err == nil {
		t.Error("a NUL in an argument was accepted")
	}
	if _, err := LayoutOld.AttachChunk(Identity{}, []string{strings.Repeat("x", maxImsgSize)}); err == nil {
		t.Error("a command longer than MAX_IMSGSIZE was accepted")
	}
	b, err := LayoutNew.AttachChunk(Identity{Flags: ControlClientFlags}, []string{"a", "bc"})
	if err != nil {
		t.Fatal(err)
	}
	// the command is last: int32 argc, then NUL-terminated arguments
	if !bytes.HasSuffix(b, []byte{2, 0, 0, 0, 'a', 0, 'b', 'c', 0}) {
		t.Errorf("command message: %x", b)
	}
}

func TestExitMessage(t *testing.T) {
	for in, want := range map[string]string{
		"":                             "",
		"\x00\x00\x00\x00":             "",
		"\x01\x00\x00\x00no such\x00":  "no such",
		"\x00\x00\x00\x00unterminated": "unterminated",
	} {
		if got := ExitMessage([]byte(in)); got != want {
			t.Errorf("ExitMessage(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParseHeader: any bytes from a server give a header whose length is
// within imsg's bounds, or an error; what Append writes reads back.
func FuzzParseHeader(f *testing.F) {
	f.Add([]byte{}, uint32(MsgExit), []byte("\x00\x00\x00\x00bye\x00"))
	f.Add(bytes.Repeat([]byte{0xff}, 32), uint32(MsgCommand), []byte(nil))
	f.Fuzz(func(t *testing.T, raw []byte, typ uint32, data []byte) {
		if len(data) > maxImsgSize-HeaderSize {
			data = data[:maxImsgSize-HeaderSize]
		}
		for _, l := range []Layout{LayoutOld, LayoutNew} {
			if h, err := l.ParseHeader(raw); err == nil && (h.Len < HeaderSize || h.Len > maxImsgSize) {
				t.Fatalf("%v: length %d accepted", l, h.Len)
			}
			if l == LayoutOld && len(data) > 0xffff-HeaderSize {
				continue
			}
			b := l.Append(nil, typ, false, data)
			h, err := l.ParseHeader(b)
			if err != nil || h.Type != typ || h.Len != len(b) || !bytes.Equal(b[HeaderSize:], data) {
				t.Fatalf("%v: round trip of type %d with %d bytes: %+v, %v", l, typ, len(data), h, err)
			}
		}
		_ = ExitMessage(raw)
	})
}

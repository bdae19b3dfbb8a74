// Package imsg is panectl's own control client for tmux 3.2 to 3.6. It
// speaks tmux's client protocol as far as that client needs it: imsg
// headers, the identify and attach messages, the exit handshake, and the
// client itself (Dial). It follows tmux-protocol.h and compat/imsg.h of tmux
// 3.2 to 3.7. It starts no tmux process.
//
// The package exists because tmux 3.3a to 3.6b segfault when a control
// client is half identified. `tmux -C` sends its identify messages in
// several writes. Two of them carry file descriptors, and a read of the
// socket stops after one. So the server handles the messages over several
// turns of its event loop. After MSG_IDENTIFY_FLAGS the client has
// CLIENT_CONTROL, but only MSG_IDENTIFY_DONE creates its control state. A
// notification in between reaches control_write with no state. The server
// dies with every session on it. A client that disconnects in between
// crashes it in control_stop. tmux 3.7 fixes both (commits e5a2a25 and
// 31c93c4).
//
// Dial sends the two file descriptors first. Every other identify message,
// DONE and attach-session then go in ONE write. The server handles them in
// one turn, so the half-identified state never exists. The messages are
// those tmux's own client sends, byte for byte. testdata holds captures of
// 3.3a and 3.6b.
//
// A client and the server exchange imsg messages over the server's Unix
// socket. Each is a 16-byte header in host byte order, then the data. File
// descriptors travel as SCM_RIGHTS beside the message whose header says it
// carries one.
//
// The whole package is a workaround. Remove it when MinVersion reaches 3.7.
// docs/architecture.md tells the full story.
package imsg

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// Layout is the imsg header layout a tmux version uses.
type Layout int

const (
	// LayoutOld (tmux < 3.6): u32 type, u16 len, u16 flags (1: carries
	// an fd), u32 peerid, u32 pid.
	LayoutOld Layout = iota
	// LayoutNew (tmux >= 3.6, OpenBSD's newer imsg): u32 type, u32 len
	// with the high bit set when the message carries an fd, u32 peerid,
	// u32 pid.
	LayoutNew
)

func (l Layout) String() string {
	if l == LayoutNew {
		return "imsg header of tmux 3.6 and later"
	}
	return "imsg header of tmux 3.5 and earlier"
}

const (
	HeaderSize = 16
	// maxImsgSize is the largest message, header included (MAX_IMSGSIZE).
	maxImsgSize = 16384
	// ProtocolVersion goes in every header's peerid (PROTOCOL_VERSION; 8
	// since tmux 1.9, still 8 in 3.7).
	ProtocolVersion = 8
	// imsgPID is the header's pid field as tmux's own client fills it
	// (proc_send passes -1).
	imsgPID      = 0xffffffff
	imsgOldHasFD = 1          // IMSGF_HASFD, flags of the old layout
	imsgFDMark   = 0x80000000 // IMSG_FD_MARK, in len of the new layout
)

// Message types (enum msgtype in tmux-protocol.h; the values have not
// changed from tmux 3.2 to 3.7).
const (
	MsgVersion = 12

	MsgIdentifyFlags     = 100
	MsgIdentifyTerm      = 101
	MsgIdentifyTTYName   = 102
	MsgIdentifyStdin     = 104
	MsgIdentifyEnviron   = 105
	MsgIdentifyDone      = 106
	MsgIdentifyClientPID = 107
	MsgIdentifyCWD       = 108
	MsgIdentifyFeatures  = 109
	MsgIdentifyStdout    = 110
	MsgIdentifyLongFlags = 111

	MsgCommand    = 200
	MsgDetach     = 201
	MsgDetachKill = 202
	MsgExit       = 203
	MsgExited     = 204
	MsgExiting    = 205
	MsgShutdown   = 210
	MsgFlags      = 218
)

// Client flags (CLIENT_* in tmux.h) that panectl's control client sends.
const (
	clientControl     = 0x2000
	clientUTF8        = 0x10000
	clientStartServer = 0x10000000
)

// ControlClientFlags are the flags `tmux -C attach-session` sends in a
// UTF-8 locale: control mode, UTF-8, and "start a server" (attach-session
// may start one; the flag only matters to the client, which decides
// whether to start a server; panectl's never does). UTF-8 is always on:
// otherwise tmux would replace non-ASCII text in command output.
const ControlClientFlags = clientControl | clientUTF8 | clientStartServer

// Append appends one message in layout l. It panics on data too long for
// one message: callers bound it first (AttachChunk).
func (l Layout) Append(b []byte, typ uint32, hasFD bool, data []byte) []byte {
	n := HeaderSize + len(data)
	if n > maxImsgSize {
		panic(fmt.Sprintf("tmux: imsg %d of %d bytes", typ, n))
	}
	ne := binary.NativeEndian
	b = ne.AppendUint32(b, typ)
	if l == LayoutNew {
		ln := uint32(n)
		if hasFD {
			ln |= imsgFDMark
		}
		b = ne.AppendUint32(b, ln)
	} else {
		var flags uint16
		if hasFD {
			flags = imsgOldHasFD
		}
		b = ne.AppendUint16(b, uint16(n))
		b = ne.AppendUint16(b, flags)
	}
	b = ne.AppendUint32(b, ProtocolVersion)
	b = ne.AppendUint32(b, imsgPID)
	return append(b, data...)
}

// Header is a decoded message header.
type Header struct {
	Type   uint32
	Len    int // header included
	HasFD  bool
	PeerID uint32
	PID    uint32
}

var ErrShort = errors.New("tmux: short imsg header")

// ParseHeader decodes the header at the start of b. A length outside
// [HeaderSize, maxImsgSize] is an error (tmux drops such a peer).
func (l Layout) ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderSize {
		return Header{}, ErrShort
	}
	ne := binary.NativeEndian
	h := Header{Type: ne.Uint32(b[0:4]), PeerID: ne.Uint32(b[8:12]), PID: ne.Uint32(b[12:16])}
	if l == LayoutNew {
		ln := ne.Uint32(b[4:8])
		h.HasFD = ln&imsgFDMark != 0
		h.Len = int(ln &^ imsgFDMark)
	} else {
		h.Len = int(ne.Uint16(b[4:6]))
		h.HasFD = ne.Uint16(b[6:8])&imsgOldHasFD != 0
	}
	if h.Len < HeaderSize || h.Len > maxImsgSize {
		return h, fmt.Errorf("tmux: imsg %d with length %d", h.Type, h.Len)
	}
	return h, nil
}

// Identity is what a client tells the server about itself (the
// MSG_IDENTIFY_* messages other than the two file descriptors).
type Identity struct {
	Flags    uint64 // CLIENT_* flags
	Term     string // $TERM ("" becomes "unknown" in tmux)
	TTYName  string // the client's tty; "" for a pipe
	CWD      string // working directory
	Features int32  // terminal features (-T); 0
	PID      int32  // the client's process id
}

func cString(s string) []byte { return append([]byte(s), 0) }

// AttachChunk is everything a control client sends after its two file
// descriptors, in one buffer: FLAGS (LONGFLAGS in the new layout, as tmux
// 3.5 and later send), LONGFLAGS, TERM, FEATURES, TTYNAME,
// CWD, CLIENTPID, DONE and the command (MSG_COMMAND: int32 argc, then each
// argument NUL-terminated). No ENVIRON: the client's environment only
// matters to attach-session without -E and to commands that create
// sessions, and panectl's client sends neither. Strings must not hold NUL;
// each message must fit MAX_IMSGSIZE.
func (l Layout) AttachChunk(id Identity, argv []string) ([]byte, error) {
	for _, s := range append([]string{id.Term, id.TTYName, id.CWD}, argv...) {
		if strings.IndexByte(s, 0) >= 0 {
			return nil, fmt.Errorf("tmux: %q holds a NUL byte", s)
		}
	}
	cmd := binary.NativeEndian.AppendUint32(nil, uint32(len(argv)))
	for _, a := range argv {
		cmd = append(cmd, cString(a)...)
	}
	for _, s := range [][]byte{cString(id.Term), cString(id.CWD), cmd} {
		if HeaderSize+len(s) > maxImsgSize {
			return nil, fmt.Errorf("tmux: a client message of %d bytes is longer than tmux accepts (%d)", HeaderSize+len(s), maxImsgSize)
		}
	}
	ne := binary.NativeEndian
	var b []byte
	if l == LayoutNew {
		// tmux 3.5 and later send LONGFLAGS twice where older clients
		// sent the 32-bit FLAGS first; every server since 3.2 takes both
		b = l.Append(b, MsgIdentifyLongFlags, false, ne.AppendUint64(nil, id.Flags))
	} else {
		b = l.Append(b, MsgIdentifyFlags, false, ne.AppendUint32(nil, uint32(id.Flags)))
	}
	b = l.Append(b, MsgIdentifyLongFlags, false, ne.AppendUint64(nil, id.Flags))
	b = l.Append(b, MsgIdentifyTerm, false, cString(id.Term))
	b = l.Append(b, MsgIdentifyFeatures, false, ne.AppendUint32(nil, uint32(id.Features)))
	b = l.Append(b, MsgIdentifyTTYName, false, cString(id.TTYName))
	b = l.Append(b, MsgIdentifyCWD, false, cString(id.CWD))
	b = l.Append(b, MsgIdentifyClientPID, false, ne.AppendUint32(nil, uint32(id.PID)))
	b = l.Append(b, MsgIdentifyDone, false, nil)
	b = l.Append(b, MsgCommand, false, cmd)
	return b, nil
}

// ExitMessage decodes MSG_EXIT's data (int32 exit status, then an optional
// NUL-terminated message) into the message, "" when there is none.
func ExitMessage(data []byte) string {
	if len(data) <= 4 {
		return ""
	}
	m := data[4:]
	if i := strings.IndexByte(string(m), 0); i >= 0 {
		m = m[:i]
	}
	return string(m)
}

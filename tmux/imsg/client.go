package imsg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Client is a control-mode client that panectl runs itself, speaking
// tmux's client protocol over the server's socket instead of starting
// `tmux -C` (the package doc says why). The server reads commands from one
// pipe and writes the control stream to another, exactly as for `tmux -C`.
// The socket carries the identify messages, the first command and, later,
// the exit handshake.
type Client struct {
	conn     *net.UnixConn
	layout   Layout
	out      *os.File      // panectl's end of the pipe tmux writes the control stream to
	sockDone chan struct{} // closed when serve has returned and closed the socket

	mu       sync.Mutex
	exit     string // "%exit ..." line tmux's own client would print, "" until known
	refused  bool   // the server refused the protocol (MSG_VERSION)
	exitSeen bool   // the server sent an exit message (MSG_EXIT, MSG_DETACH, ...)
}

// ErrRefused: the server did not take panectl's own client (a protocol or
// binary mismatch); the caller falls back to `tmux -C` under the lock.
var ErrRefused = errors.New("the tmux server refused panectl's control client")

// ErrNoServer: no server listens on the socket.
var ErrNoServer = errors.New("no server")

// ErrUnavailable: the client could not be started (a pipe, the socket,
// the attach could not be sent).
var ErrUnavailable = errors.New("control client unavailable")

// Dial attaches panectl's own client to the server on socket, started
// from binary bin. The identify messages
// that carry the two pipes go first, each in its own sendmsg; then every
// other identify message, MSG_IDENTIFY_DONE and the attach-session command
// go in ONE write, so the server reads and handles them in one turn of its
// event loop: it never holds a control client that has CLIENT_CONTROL but
// no control state (the crash of tmux 3.3a to 3.6b). Every socket operation
// of the handshake is bounded by deadline. It returns ErrRefused when the
// server's binary is not the one whose version chose layout. It returns
// the client, the pipe to write commands to, and the control stream (with
// the %exit line tmux's client would print at its end). With verified, a
// server whose binary cannot be checked (its pid is not visible, no /proc)
// is refused too.
func Dial(ctx context.Context, socket, bin string, argv []string, layout Layout, deadline time.Time, verified bool) (*Client, *os.File, io.Reader, error) {
	d := net.Dialer{Deadline: deadline}
	nc, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, nil, ctx.Err()
		}
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
			return nil, nil, nil, ErrNoServer
		}
		return nil, nil, nil, fmt.Errorf("%w: connecting to %s: %v", ErrUnavailable, socket, err)
	}
	conn := nc.(*net.UnixConn)
	fail := func(err error) (*Client, *os.File, io.Reader, error) {
		conn.Close()
		return nil, nil, nil, err
	}
	if same, known := sameServerBinary(conn, bin); known && !same {
		// The running server is another tmux than c.Bin (upgraded since
		// it started, or started from another install): its header
		// layout is unknown. Nothing was sent, so closing is harmless.
		return fail(fmt.Errorf("%w: the server was not started from %s", ErrRefused, bin))
	} else if !known && verified {
		return fail(fmt.Errorf("%w: the server's binary cannot be checked against %s", ErrRefused, bin))
	}
	if err := conn.SetDeadline(deadline); err != nil {
		return fail(fmt.Errorf("%w: %v", ErrUnavailable, err))
	}
	// ctx ending cuts the handshake short like the deadline
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	// inR/outW go to the server; os.Pipe makes them close-on-exec, so no
	// tmux process started meanwhile holds them open.
	inR, inW, err := os.Pipe()
	if err != nil {
		return fail(fmt.Errorf("%w: %v", ErrUnavailable, err))
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return fail(fmt.Errorf("%w: %v", ErrUnavailable, err))
	}
	sendFD := func(typ uint32, f *os.File) error {
		msg := layout.Append(nil, typ, true, nil)
		n, _, err := conn.WriteMsgUnix(msg, syscall.UnixRights(int(f.Fd())), nil)
		if err == nil && n != len(msg) {
			err = io.ErrShortWrite
		}
		return err
	}
	err = sendFD(MsgIdentifyStdin, inR)
	if err == nil {
		err = sendFD(MsgIdentifyStdout, outW)
	}
	// The server holds its own copies now; panectl's must go, or the
	// output pipe never reaches EOF.
	inR.Close()
	outW.Close()
	var chunk []byte
	if err == nil {
		chunk, err = layout.AttachChunk(Identity{
			Flags: ControlClientFlags, Term: os.Getenv("TERM"), CWD: clientCWD(), PID: int32(os.Getpid()),
		}, argv)
	}
	if err == nil {
		// A few hundred bytes into a new connection's empty send buffer:
		// one segment, taken whole.
		var n int
		n, err = conn.Write(chunk)
		if err == nil && n != len(chunk) {
			err = io.ErrShortWrite
		}
	}
	if !stop() && err == nil {
		err = ctx.Err() // (dropping a client that has identified is harmless)
	}
	if err != nil {
		// Before the chunk the server has a client without CLIENT_CONTROL,
		// after it one that has identified: dropping either is harmless.
		inW.Close()
		outR.Close()
		if ctx.Err() != nil {
			return fail(ctx.Err())
		}
		return fail(fmt.Errorf("%w: sending the attach to %s: %v", ErrUnavailable, socket, err))
	}
	_ = conn.SetDeadline(time.Time{}) // serve waits as long as the client lives
	pc := &Client{conn: conn, layout: layout, out: outR, sockDone: make(chan struct{})}
	go pc.serve()
	return pc, inW, io.MultiReader(outR, pc.exitLine()), nil
}

// Finish waits until the client is over and closes its end of the stream.
func (pc *Client) Finish() {
	<-pc.sockDone
	pc.out.Close()
}

// clientCWD is the working directory tmux's client would send: the current
// one, else $HOME, else "/".
func clientCWD() string {
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	return "/"
}

// serve reads the server's messages until the client is over, answering
// exit requests as tmux's client does (MSG_EXITING, then the server sends
// MSG_EXITED), and records the %exit line tmux's client would print.
func (pc *Client) serve() {
	defer close(pc.sockDone)
	defer pc.conn.Close()
	var buf []byte
	rd := make([]byte, 4096)
	for {
		n, err := pc.conn.Read(rd)
		buf = append(buf, rd[:n]...)
		for len(buf) >= HeaderSize {
			h, herr := pc.layout.ParseHeader(buf)
			if herr != nil {
				pc.setExit("%exit lost server")
				return
			}
			if len(buf) < h.Len {
				break
			}
			data := buf[HeaderSize:h.Len]
			switch h.Type {
			case MsgVersion:
				pc.mu.Lock()
				pc.refused = true
				pc.mu.Unlock()
				pc.setExit(fmt.Sprintf("%%exit protocol version mismatch (client %d, server %d)", ProtocolVersion, h.PeerID&0xff))
				return
			case MsgExit:
				line := "%exit"
				if m := ExitMessage(data); m != "" {
					line += " " + m
				}
				pc.exited(line)
			case MsgShutdown:
				pc.exited("%exit server exited")
			case MsgDetach, MsgDetachKill:
				name := string(data)
				if i := len(name) - 1; i >= 0 && name[i] == 0 {
					name = name[:i]
				}
				pc.exited("%exit detached (from session " + name + ")")
			case MsgExited:
				return
			}
			// MSG_FLAGS (the attach's -f flags) and MSG_READY need no
			// answer; MSG_READ_OPEN/MSG_WRITE_OPEN only follow commands
			// that read or write client files, which panectl never sends.
			buf = buf[h.Len:]
		}
		if err != nil {
			pc.setExit("%exit lost server")
			return
		}
	}
}

// exited records an exit message and answers it with MSG_EXITING.
func (pc *Client) exited(line string) {
	pc.mu.Lock()
	pc.exitSeen = true
	pc.mu.Unlock()
	pc.setExit(line)
	_ = pc.conn.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = pc.conn.Write(pc.layout.Append(nil, MsgExiting, false, nil))
}

func (pc *Client) setExit(line string) {
	pc.mu.Lock()
	if pc.exit == "" {
		pc.exit = line
	}
	pc.mu.Unlock()
}

// exitLine is read after the control stream's EOF: the %exit line tmux's
// own client prints as it ends, so the reader sees the same stream from
// both kinds of client. The server closes the stream when it drops the
// client, so serve has (nearly) finished by then; it waits at most a second.
func (pc *Client) exitLine() io.Reader {
	return &lazyReader{make: func() io.Reader {
		select {
		case <-pc.sockDone:
		case <-time.After(time.Second):
		}
		pc.mu.Lock()
		defer pc.mu.Unlock()
		if pc.exit == "" {
			return strings.NewReader("")
		}
		return strings.NewReader(pc.exit + "\n")
	}}
}

// lazyReader reads from the reader make returns on the first Read.
type lazyReader struct {
	make func() io.Reader
	r    io.Reader
}

func (l *lazyReader) Read(p []byte) (int, error) {
	if l.r == nil {
		l.r = l.make()
	}
	return l.r.Read(p)
}

// RefusedAttach reports whether the server refused this client before
// attaching it: it answered MSG_VERSION, or it dropped the connection
// without an exit message or a line of output.
func (pc *Client) RefusedAttach(sawLine bool) bool {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.refused || (!pc.exitSeen && !sawLine)
}

// Kill ends the client at once: the server sees the socket close (safe: the
// client finished identifying in one write) and the reader its pipe close.
func (pc *Client) Kill() {
	pc.conn.Close()
	pc.out.Close()
}

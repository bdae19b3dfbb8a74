package tmux

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

	"github.com/panectl/panectl/tmux/imsg"
)

// protoClient is a control-mode client that panectl runs itself, speaking
// tmux's client protocol over the server's socket instead of starting
// `tmux -C` (doc.go says why). The server reads commands from one pipe and
// writes the control stream to another, exactly as for `tmux -C`; the
// socket carries the identify messages, the first command and, later, the
// exit handshake.
type protoClient struct {
	conn     *net.UnixConn
	layout   imsg.Layout
	out      *os.File      // panectl's end of the pipe tmux writes the control stream to
	sockDone chan struct{} // closed when serve has returned and closed the socket

	mu       sync.Mutex
	exit     string // "%exit ..." line tmux's own client would print, "" until known
	refused  bool   // the server refused the protocol (MSG_VERSION)
	exitSeen bool   // the server sent an exit message (MSG_EXIT, MSG_DETACH, ...)
}

// errRefused: the server did not take panectl's own client (a protocol or
// binary mismatch); the caller falls back to `tmux -C` under the lock.
var errRefused = errors.New("the tmux server refused panectl's control client")

// controlProto attaches with panectl's own client. The identify messages
// that carry the two pipes go first, each in its own sendmsg; then every
// other identify message, MSG_IDENTIFY_DONE and the attach-session command
// go in ONE write, so the server reads and handles them in one turn of its
// event loop: it never holds a control client that has CLIENT_CONTROL but
// no control state (the crash of tmux 3.3a to 3.6b). Every socket operation
// of the handshake is bounded by deadline. It returns errRefused when the
// server's binary is not the one whose version chose layout.
func (c *Client) controlProto(ctx context.Context, k *Control, argv []string, layout imsg.Layout, deadline time.Time) error {
	d := net.Dialer{Deadline: deadline}
	nc, err := d.DialContext(ctx, "unix", c.Server.Socket)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
			return &NoServerError{Socket: c.Server.Socket, Stderr: "no server running on " + c.Server.Socket}
		}
		return fmt.Errorf("%w: connecting to %s: %v", ErrControlUnavailable, c.Server.Socket, err)
	}
	conn := nc.(*net.UnixConn)
	fail := func(err error) error {
		conn.Close()
		return err
	}
	if same, known := sameServerBinary(conn, c.Bin); known && !same {
		// The running server is another tmux than c.Bin (upgraded since
		// it started, or started from another install): its header
		// layout is unknown. Nothing was sent, so closing is harmless.
		return fail(fmt.Errorf("%w: the server was not started from %s", errRefused, c.Bin))
	}
	if err := conn.SetDeadline(deadline); err != nil {
		return fail(fmt.Errorf("%w: %v", ErrControlUnavailable, err))
	}
	// ctx ending cuts the handshake short like the deadline
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	// inR/outW go to the server; os.Pipe makes them close-on-exec, so no
	// tmux process started meanwhile holds them open.
	inR, inW, err := os.Pipe()
	if err != nil {
		return fail(fmt.Errorf("%w: %v", ErrControlUnavailable, err))
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return fail(fmt.Errorf("%w: %v", ErrControlUnavailable, err))
	}
	sendFD := func(typ uint32, f *os.File) error {
		msg := layout.Append(nil, typ, true, nil)
		n, _, err := conn.WriteMsgUnix(msg, syscall.UnixRights(int(f.Fd())), nil)
		if err == nil && n != len(msg) {
			err = io.ErrShortWrite
		}
		return err
	}
	err = sendFD(imsg.MsgIdentifyStdin, inR)
	if err == nil {
		err = sendFD(imsg.MsgIdentifyStdout, outW)
	}
	// The server holds its own copies now; panectl's must go, or the
	// output pipe never reaches EOF.
	inR.Close()
	outW.Close()
	var chunk []byte
	if err == nil {
		chunk, err = layout.AttachChunk(imsg.Identity{
			Flags: imsg.ControlClientFlags, Term: os.Getenv("TERM"), CWD: clientCWD(), PID: int32(os.Getpid()),
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
		return fail(fmt.Errorf("%w: sending the attach to %s: %v", ErrControlUnavailable, c.Server.Socket, err))
	}
	_ = conn.SetDeadline(time.Time{}) // serve waits as long as the client lives
	pc := &protoClient{conn: conn, layout: layout, out: outR, sockDone: make(chan struct{})}
	go pc.serve()
	k.stdin = inW
	k.end = pc
	k.startReader(io.MultiReader(outR, pc.exitLine()), func() {
		<-pc.sockDone
		outR.Close()
	})
	return nil
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
func (pc *protoClient) serve() {
	defer close(pc.sockDone)
	defer pc.conn.Close()
	var buf []byte
	rd := make([]byte, 4096)
	for {
		n, err := pc.conn.Read(rd)
		buf = append(buf, rd[:n]...)
		for len(buf) >= imsg.HeaderSize {
			h, herr := pc.layout.ParseHeader(buf)
			if herr != nil {
				pc.setExit("%exit lost server")
				return
			}
			if len(buf) < h.Len {
				break
			}
			data := buf[imsg.HeaderSize:h.Len]
			switch h.Type {
			case imsg.MsgVersion:
				pc.mu.Lock()
				pc.refused = true
				pc.mu.Unlock()
				pc.setExit(fmt.Sprintf("%%exit protocol version mismatch (client %d, server %d)", imsg.ProtocolVersion, h.PeerID&0xff))
				return
			case imsg.MsgExit:
				line := "%exit"
				if m := imsg.ExitMessage(data); m != "" {
					line += " " + m
				}
				pc.exited(line)
			case imsg.MsgShutdown:
				pc.exited("%exit server exited")
			case imsg.MsgDetach, imsg.MsgDetachKill:
				name := string(data)
				if i := len(name) - 1; i >= 0 && name[i] == 0 {
					name = name[:i]
				}
				pc.exited("%exit detached (from session " + name + ")")
			case imsg.MsgExited:
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
func (pc *protoClient) exited(line string) {
	pc.mu.Lock()
	pc.exitSeen = true
	pc.mu.Unlock()
	pc.setExit(line)
	_ = pc.conn.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = pc.conn.Write(pc.layout.Append(nil, imsg.MsgExiting, false, nil))
}

func (pc *protoClient) setExit(line string) {
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
func (pc *protoClient) exitLine() io.Reader {
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

// refusedAttach reports whether the server refused this client before
// attaching it: it answered MSG_VERSION, or it dropped the connection
// without an exit message or a line of output.
func (pc *protoClient) refusedAttach(sawLine bool) bool {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.refused || (!pc.exitSeen && !sawLine)
}

// kill ends the client at once: the server sees the socket close (safe: the
// client finished identifying in one write) and the reader its pipe close.
func (pc *protoClient) kill() {
	pc.conn.Close()
	pc.out.Close()
}

// failure is "": no tmux process runs for this client (tmux's messages
// come in the control stream).
func (pc *protoClient) failure() string { return "" }

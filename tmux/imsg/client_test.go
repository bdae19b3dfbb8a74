package imsg

import (
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// socketPair returns two connected Unix stream sockets: panectl's end and
// the server's.
func socketPair(t *testing.T) (*net.UnixConn, *net.UnixConn) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	conns := make([]*net.UnixConn, 2)
	for i, fd := range fds {
		f := os.NewFile(uintptr(fd), "socketpair")
		c, err := net.FileConn(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c.(*net.UnixConn)
		t.Cleanup(func() { c.Close() })
	}
	return conns[0], conns[1]
}

// The exit handshake of panectl's own client, as the server drives it
// (server-client.c): every exit request is answered with MSG_EXITING, the
// %exit line is the one tmux's client prints, and a refusal (MSG_VERSION,
// or the connection dropped with neither an exit message nor output) is
// told apart from an ended client.
func TestProtoClientExitHandshake(t *testing.T) {
	type step struct {
		typ  uint32
		data string
	}
	for _, tc := range []struct {
		name      string
		steps     []step // sent by the "server", in pieces
		answers   int    // MSG_EXITING replies expected
		exit      string
		refused   bool
		closeLast bool // the server closes the socket after the steps
	}{
		{"exit with message", []step{{MsgFlags, "\x00\x20\x01\x10\x00\x00\x00\x00"}, {MsgExit, "\x01\x00\x00\x00no sessions\x00"}, {MsgExited, ""}}, 1, "%exit no sessions", false, false},
		{"exit (session closed)", []step{{MsgExit, "\x00\x00\x00\x00"}, {MsgExited, ""}}, 1, "%exit", false, false},
		{"detach", []step{{MsgDetach, "$3\x00"}}, 1, "%exit detached (from session $3)", false, true},
		{"shutdown", []step{{MsgShutdown, ""}}, 1, "%exit server exited", false, true},
		{"version mismatch", []step{{MsgVersion, ""}}, 0, "%exit protocol version mismatch (client 8, server 8)", true, false},
		{"dropped", nil, 0, "%exit lost server", true, true},
	} {
		for _, layout := range []Layout{LayoutOld, LayoutNew} {
			t.Run(tc.name+"/"+layout.String(), func(t *testing.T) {
				mine, server := socketPair(t)
				pr, pw, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer pr.Close()
				pc := &Client{conn: mine, layout: layout, out: pr, sockDone: make(chan struct{})}
				go pc.serve()
				var all []byte
				for _, s := range tc.steps {
					all = layout.Append(all, s.typ, false, []byte(s.data))
				}
				// in pieces that cut headers and data, as a stream may
				for len(all) > 0 {
					n := min(len(all), 7)
					if _, err := server.Write(all[:n]); err != nil {
						t.Fatal(err)
					}
					all = all[n:]
					time.Sleep(time.Millisecond)
				}
				if tc.closeLast {
					// after the answers, as the server does
					readAnswers(t, server, layout, tc.answers)
					server.Close()
				}
				select {
				case <-pc.sockDone:
				case <-time.After(10 * time.Second):
					t.Fatal("serve did not end")
				}
				if !tc.closeLast {
					readAnswers(t, server, layout, tc.answers)
				}
				pw.Close() // the server closes the control stream
				line, _ := io.ReadAll(io.MultiReader(pr, pc.exitLine()))
				if got := strings.TrimSuffix(string(line), "\n"); got != tc.exit {
					t.Errorf("exit line %q, want %q", got, tc.exit)
				}
				if got := pc.RefusedAttach(false); got != tc.refused {
					t.Errorf("refused = %v, want %v", got, tc.refused)
				}
				if pc.RefusedAttach(true) && tc.name == "dropped" {
					t.Error("a client that had output counts as refused")
				}
			})
		}
	}
}

// readAnswers reads n MSG_EXITING messages from the server's end.
func readAnswers(t *testing.T, server *net.UnixConn, layout Layout, n int) {
	t.Helper()
	_ = server.SetReadDeadline(time.Now().Add(10 * time.Second))
	for range n {
		b := make([]byte, HeaderSize)
		if _, err := io.ReadFull(server, b); err != nil {
			t.Fatal(err)
		}
		h, err := layout.ParseHeader(b)
		if err != nil || h.Type != MsgExiting || h.Len != HeaderSize || h.HasFD {
			t.Fatalf("answer %+v %v, want MSG_EXITING", h, err)
		}
	}
}

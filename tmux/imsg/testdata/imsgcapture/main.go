// Command imsgcapture records what a real `tmux -C` client sends to its
// server, file descriptors included, for the wire-format tests of
// panectl's control client (tmux/imsg_test.go). It listens on a Unix socket
// of its own (no tmux server runs), starts
//
//	TMUX -S SOCKET -C attach-session -t $0 -r -E -f ignore-size,read-only,pause-after=1
//
// in / with the environment TERM=xterm-256color LANG=C.UTF-8 and pipes for
// stdin and stdout, and records every recvmsg until MSG_COMMAND has come:
// its bytes, and which of the client's pipes each passed descriptor is.
// Then it closes the connection (the client exits: "lost server").
//
//	go run ./tmux/imsg/testdata/imsgcapture -tmux /usr/bin/tmux -old > tmux/imsg/testdata/imsg-3.3a.txt
//
// -old says the client uses the imsg header of tmux < 3.6 (to find message
// boundaries); omit it for tmux 3.6 and later.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	bin := flag.String("tmux", "tmux", "tmux binary")
	old := flag.Bool("old", false, "the client uses the imsg header of tmux < 3.6")
	flag.Parse()
	if err := run(*bin, *old); err != nil {
		fmt.Fprintln(os.Stderr, "imsgcapture:", err)
		os.Exit(1)
	}
}

func run(bin string, old bool) error {
	dir, err := os.MkdirTemp("", "imsgcap")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "s")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		return err
	}
	defer l.Close()
	version, err := exec.Command(bin, "-V").Output()
	if err != nil {
		return err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	args := []string{"-S", sock, "-C", "attach-session", "-t", "$0", "-r", "-E", "-f", "ignore-size,read-only,pause-after=1"}
	cmd := exec.Command(bin, args...)
	cmd.Dir = "/"
	cmd.Env = []string{"TERM=xterm-256color", "LANG=C.UTF-8"}
	cmd.Stdin, cmd.Stdout = inR, outW
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	inR.Close()
	outW.Close()
	defer inW.Close()
	defer outR.Close()
	pipes := map[[2]uint64]string{}
	for name, f := range map[string]*os.File{"stdin": inW, "stdout": outR} {
		var st unix.Stat_t
		if err := unix.Fstat(int(f.Fd()), &st); err != nil {
			return err
		}
		// the other end of a pipe has the same inode
		pipes[[2]uint64{uint64(st.Dev), st.Ino}] = name
	}

	_ = l.SetDeadline(time.Now().Add(10 * time.Second))
	c, err := l.AcceptUnix()
	if err != nil {
		return fmt.Errorf("accept: %v (client stderr %q)", err, stderr.String())
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	shown := strings.Join(append([]string{"tmux"}, args...), " ")
	shown = strings.Replace(shown, sock, "SOCKET", 1)
	fmt.Printf("# What `%s` (%s) sends to its server, captured by\n", shown, strings.TrimSpace(string(version)))
	fmt.Printf("# tmux/imsg/testdata/imsgcapture (see its doc comment for how to rerun it): cwd /,\n")
	fmt.Printf("# environment TERM=xterm-256color LANG=C.UTF-8, stdin and stdout pipes, client pid %d.\n", cmd.Process.Pid)
	fmt.Printf("# One \"read N fds ...\" line per recvmsg on the server's side of the socket, then its bytes in hex.\n")
	fmt.Printf("version %s\npid %d\n", strings.TrimSpace(string(version)), cmd.Process.Pid)
	var pending []byte
	for n := 1; ; n++ {
		buf := make([]byte, 65536)
		oob := make([]byte, unix.CmsgSpace(4*4))
		nb, noob, _, _, err := c.ReadMsgUnix(buf, oob)
		if err != nil {
			return fmt.Errorf("read: %v (client stderr %q)", err, stderr.String())
		}
		var fds []string
		if noob > 0 {
			msgs, err := unix.ParseSocketControlMessage(oob[:noob])
			if err != nil {
				return err
			}
			for _, m := range msgs {
				rights, err := unix.ParseUnixRights(&m)
				if err != nil {
					return err
				}
				for _, fd := range rights {
					var st unix.Stat_t
					name := "unknown"
					if unix.Fstat(fd, &st) == nil {
						if p, ok := pipes[[2]uint64{uint64(st.Dev), st.Ino}]; ok {
							name = p
						}
					}
					fds = append(fds, name)
					unix.Close(fd)
				}
			}
		}
		if len(fds) == 0 {
			fds = []string{"-"}
		}
		fmt.Printf("read %d fds %s\n", n, strings.Join(fds, ","))
		for i := 0; i < nb; i += 32 {
			fmt.Println(hex.EncodeToString(buf[i:min(nb, i+32)]))
		}
		pending = append(pending, buf[:nb]...)
		// walk whole messages; stop after MSG_COMMAND (200)
		for len(pending) >= 16 {
			typ := binary.NativeEndian.Uint32(pending[0:4])
			var ln int
			if old {
				ln = int(binary.NativeEndian.Uint16(pending[4:6]))
			} else {
				ln = int(binary.NativeEndian.Uint32(pending[4:8]) &^ 0x80000000)
			}
			if ln < 16 || len(pending) < ln {
				break
			}
			pending = pending[ln:]
			if typ == 200 {
				return nil
			}
		}
	}
}

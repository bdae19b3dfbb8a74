package tmux

import (
	"io"
	"os"
	"os/exec"
)

// A tmux client hands its standard streams to the server (MSG_IDENTIFY_STDIN,
// MSG_IDENTIFY_STDOUT), which keeps its copies until done with the client. So
// reading a client's pipe to the end waits on the server, forever if it is
// stopped or hung. On a loaded machine os/exec's copying goroutine may also run
// late, and cmd.WaitDelay cuts the output short. Unlinked temporary files
// instead need no copying or waiting, and hold whatever was written.

// streams are a tmux process's stdin (optional), stdout and stderr.
type streams struct {
	in, out, err *os.File
}

// attach gives cmd unlinked temporary files as streams, stdin holding stdin if
// not nil. close removes them.
func attachStreams(cmd *exec.Cmd, stdin []byte) (*streams, error) {
	s := &streams{}
	var err error
	if s.out, err = tempFile(); err != nil {
		return nil, err
	}
	if s.err, err = tempFile(); err != nil {
		s.close()
		return nil, err
	}
	if stdin != nil {
		if s.in, err = tempFile(); err == nil {
			if _, err = s.in.Write(stdin); err == nil {
				_, err = s.in.Seek(0, io.SeekStart)
			}
		}
		if err != nil {
			s.close()
			return nil, err
		}
		cmd.Stdin = s.in
	}
	cmd.Stdout, cmd.Stderr = s.out, s.err
	return s, nil
}

// read returns what the process wrote on f.
func read(f *os.File) string {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(f)
	return string(b)
}

func (s *streams) close() {
	for _, f := range []*os.File{s.in, s.out, s.err} {
		if f != nil {
			f.Close()
		}
	}
}

// tempFile is an unlinked temporary file, gone once closed.
func tempFile() (*os.File, error) {
	f, err := os.CreateTemp("", "panectl-tmux-")
	if err != nil {
		return nil, err
	}
	_ = os.Remove(f.Name())
	return f, nil
}

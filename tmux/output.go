package tmux

import (
	"io"
	"os"
	"os/exec"
)

// A tmux client hands its standard streams to the server (MSG_IDENTIFY_STDIN
// and MSG_IDENTIFY_STDOUT carry the file descriptors), and the server keeps
// its copies until it has dealt with the client. With pipes, reading a
// client's output to the end therefore waits on the server: forever when it
// is stopped or hung, and, when a copying goroutine of os/exec is not
// scheduled in time on a loaded machine, cut short by cmd.WaitDelay with
// the output not yet read. panectl gives tmux processes unlinked temporary
// files instead: nothing to copy while the process runs, nothing to wait
// for after it exits, and whatever it wrote is in the file.

// streams are the files a tmux process gets as stdin (optional), stdout and
// stderr.
type streams struct {
	in, out, err *os.File
}

// attach gives cmd unlinked temporary files as its standard streams, stdin
// holding stdin when it is not nil. close removes them.
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

// tempFile is an unlinked temporary file (it is gone once closed).
func tempFile() (*os.File, error) {
	f, err := os.CreateTemp("", "panectl-tmux-")
	if err != nil {
		return nil, err
	}
	_ = os.Remove(f.Name())
	return f, nil
}

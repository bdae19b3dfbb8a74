package proc

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestParseSyscall(t *testing.T) {
	if syscallName(0) == "" {
		t.Skip("no system call table on this platform")
	}
	if name, tty := parseSyscall(os.Getpid(), "running"); name != "running" || tty {
		t.Fatalf("running: got %q %v", name, tty)
	}
	if name, _ := parseSyscall(os.Getpid(), "-1 0x7ffd 0x7f00"); name != "" {
		t.Fatalf("-1: got %q, want unknown", name)
	}
	if name, _ := parseSyscall(os.Getpid(), ""); name != "" {
		t.Fatalf("empty: got %q", name)
	}
	// a read of a pipe is not a read of the terminal
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	var nr int
	for n := 0; n < 512; n++ {
		if syscallName(n) == "read" {
			nr = n
			break
		}
	}
	line := strings.Join([]string{itoaTest(nr), "0x" + hexTest(int(r.Fd())), "0x0", "0x10"}, " ")
	if name, tty := parseSyscall(os.Getpid(), line); name != "read" || tty {
		t.Fatalf("read of a pipe: got %q %v, want read, not the terminal", name, tty)
	}
}

func itoaTest(n int) string { return strconv.Itoa(n) }
func hexTest(n int) string  { return strconv.FormatInt(int64(n), 16) }

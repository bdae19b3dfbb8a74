package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// served runs Serve on the frames in input with run, and returns the
// exit code and the frames it sent.
func served(t *testing.T, input io.Reader, run RunFunc) (int, []frame) {
	t.Helper()
	var out strings.Builder
	code := Serve(context.Background(), input, &out, "v1", time.Minute, run)
	var frames []frame
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var f frame
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("bad frame %q: %v", line, err)
		}
		frames = append(frames, f)
	}
	return code, frames
}

func lines(v ...any) string {
	var b strings.Builder
	for _, x := range v {
		j, _ := json.Marshal(x)
		b.Write(append(j, '\n'))
	}
	return b.String()
}

func TestServeRunsTheCallWithItsStdin(t *testing.T) {
	in := lines(Call{Version: "v1", Args: []string{"send-text", "--stdin"}}, frame{Stdin: []byte("typed")}, frame{EOF: true})
	code, frames := served(t, strings.NewReader(in), func(_ context.Context, call Call, stdin io.Reader, stdout, stderr io.Writer) int {
		b, _ := io.ReadAll(stdin)
		io.WriteString(stdout, strings.Join(call.Args, " ")+":"+string(b))
		io.WriteString(stderr, "note")
		return 3
	})
	if code != 3 || len(frames) != 4 || frames[0].Hello != "v1" || string(frames[1].Stdout) != "send-text --stdin:typed" ||
		string(frames[2].Stderr) != "note" || frames[3].Exit == nil || *frames[3].Exit != 3 {
		t.Errorf("exit %d, frames %+v", code, frames)
	}
}

// The caller going away (its stream ends without an end-of-input frame)
// cancels the command, as a signal frame does.
func TestServeCancelsWhenTheCallerGoes(t *testing.T) {
	for name, rest := range map[string]string{"eof": "", "signal": lines(frame{Signal: "INT"})} {
		pr, pw := io.Pipe()
		go func() {
			io.WriteString(pw, lines(Call{Version: "v1", Args: []string{"wait-for-text"}})+rest)
			if name == "eof" {
				pw.Close()
			}
		}()
		code, frames := served(t, pr, func(ctx context.Context, _ Call, _ io.Reader, _, _ io.Writer) int {
			<-ctx.Done()
			return exitInterrupted
		})
		if code != exitInterrupted || *frames[len(frames)-1].Exit != exitInterrupted {
			t.Errorf("%s: exit %d, frames %+v", name, code, frames)
		}
	}
}

func TestServeRefusesAnotherVersion(t *testing.T) {
	code, frames := served(t, strings.NewReader(lines(Call{Version: "v0", Args: []string{"list"}})), func(context.Context, Call, io.Reader, io.Writer, io.Writer) int {
		t.Error("ran a call of another version")
		return 0
	})
	if code != exitFailure || !strings.Contains(string(frames[1].Stderr), "panectl remote install") {
		t.Errorf("exit %d, frames %+v", code, frames)
	}
}

// FuzzServe: whatever arrives on stdin, Serve answers with frames and an
// exit code, and never panics.
func FuzzServe(f *testing.F) {
	f.Add(lines(Call{Version: "v1", Args: []string{"list"}}, frame{Stdin: []byte("x")}, frame{EOF: true}))
	f.Add(lines(Call{Version: "v1", Args: []string{"list"}}, frame{Signal: "INT"}))
	f.Add("{\"version\":\"v1\"}\n")
	f.Add("not json\n")
	f.Fuzz(func(t *testing.T, in string) {
		var out strings.Builder
		code := Serve(context.Background(), strings.NewReader(in), &out, "v1", time.Millisecond,
			func(ctx context.Context, _ Call, stdin io.Reader, stdout, _ io.Writer) int {
				b, _ := io.ReadAll(stdin)
				stdout.Write(b)
				return 0
			})
		if !strings.Contains(out.String(), fmt.Sprintf(`{"exit":%d}`, code)) {
			t.Errorf("exit %d without its frame: %q", code, out.String())
		}
	})
}

// Output larger than one frame arrives whole, in frames of at most
// maxChunk bytes.
func TestServeSplitsLargeOutput(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 5000) // 80,000 bytes
	in := lines(Call{Version: "v1", Args: []string{"capture"}}, frame{EOF: true})
	_, frames := served(t, strings.NewReader(in), func(_ context.Context, _ Call, _ io.Reader, stdout, _ io.Writer) int {
		io.WriteString(stdout, big)
		return 0
	})
	var got strings.Builder
	for _, f := range frames {
		if len(f.Stdout) > maxChunk {
			t.Errorf("a frame of %d bytes, over %d", len(f.Stdout), maxChunk)
		}
		got.Write(f.Stdout)
	}
	if got.String() != big {
		t.Errorf("got %d bytes back, want the %d written", got.Len(), len(big))
	}
}

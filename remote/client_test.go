package remote

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// An ssh that ends before the remote answered (here: the remote shell
// found no panectl, 127) is an *Error saying what to do, every time:
// Run never waits for an answer that cannot come.
func TestRunWithoutRemotePanectl(t *testing.T) {
	env := map[string]string{"PANECTL_SSH": "sh -c 'echo panectl: not found >&2; exit 127'", "XDG_RUNTIME_DIR": t.TempDir()}
	s, err := NewSSH(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		code, err := s.Run(context.Background(), Target{Host: "box"}, Call{Version: "v1", Args: []string{"list"}},
			strings.NewReader(""), io.Discard, io.Discard)
		var e *Error
		if code != exitFailure || !errors.As(err, &e) || !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "panectl remote install box") {
			t.Fatalf("exit %d, %v; want 1 and how to install", code, err)
		}
	}
}

func TestNewSSHSplitsPanectlSSH(t *testing.T) {
	env := map[string]string{"PANECTL_SSH": `ssh -F "$CONF/my config" -o 'ProxyJump=a b'`, "CONF": "/etc/x", "XDG_RUNTIME_DIR": t.TempDir()}
	s, err := NewSSH(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ssh", "-F", "/etc/x/my config", "-o", "ProxyJump=a b"}; strings.Join(s.Command, "|") != strings.Join(want, "|") {
		t.Errorf("PANECTL_SSH split as %q, want %q", s.Command, want)
	}
	env["PANECTL_SSH"] = "ssh 'unclosed"
	if _, err := NewSSH(func(k string) string { return env[k] }); err == nil {
		t.Error("an unclosed quote in PANECTL_SSH was accepted")
	}
}

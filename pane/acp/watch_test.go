package acp

import "testing"

func TestScreenCaptureBytes(t *testing.T) {
	got := string(ScreenCapture{Rows: "h1\n\x1b[31mr1\n\n", CursorX: 2, CursorY: 1}.Bytes())
	want := "h1\r\n\x1b[31mr1\r\n\x1b[0m\x1b[2;3H"
	if got != want {
		t.Errorf("normal: %q, want %q", got, want)
	}
	got = string(ScreenCapture{Rows: "n1\n", Alternate: true, AltRows: "a1\na2\n", SavedY: 0, CursorX: 0, CursorY: 1}.Bytes())
	want = "n1\x1b[0m\x1b[1;1H\x1b[?1049h\x1b[Ha1\r\na2\x1b[0m\x1b[2;1H"
	if got != want {
		t.Errorf("alternate: %q, want %q", got, want)
	}
}

func TestSignalName(t *testing.T) {
	for n, want := range map[int]string{15: "SIGTERM", 9: "SIGKILL", 2: "SIGINT", 99: "SIG99"} {
		if got := SignalName(n); got != want {
			t.Errorf("SignalName(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestWatchEventsFromUpdates(t *testing.T) {
	full := NewTerminalUpdate("%1", "bash", "/home", TerminalSize{Cols: 80, Rows: 24}, []byte("x"))
	ev := WatchEvents("%1", full)
	if len(ev) != 1 || ev[0].Type != EventSnapshot || *ev[0].Cwd != "/home" || ev[0].Cols != 80 || string(*ev[0].Data) != "x" {
		t.Errorf("snapshot: %+v", ev)
	}
	ev = WatchEvents("%1", TerminalUpdate{TerminalID: "%1", Cwd: Some("/tmp"), Size: Some(TerminalSize{Cols: 10, Rows: 5}), ExitStatus: Some(ExitStatusCode(3))})
	if len(ev) != 3 || ev[0].Type != EventCwd || ev[1].Type != EventSize || ev[2].Type != EventExit || *ev[2].ExitCode != 3 {
		t.Errorf("patch: %+v", ev)
	}
	ev = WatchEvents("%1", NewOutputChunk("%1", []byte("ab")))
	if len(ev) != 1 || ev[0].Type != EventOutput || string(*ev[0].Data) != "ab" {
		t.Errorf("chunk: %+v", ev)
	}
}

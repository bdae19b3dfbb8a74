package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func mustMeta(t testing.TB, values map[string]any) ACPMeta {
	t.Helper()
	m, err := NewACPMeta(values)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// watchStream is the stream `panectl watch --format acp` would print for a
// pane: full state, chunks, patches, and the exit update last.
func watchStream(t testing.TB) []ACPNotification {
	const id = "%3"
	first := NewTerminalUpdate(id, "bash", "/home/u", TerminalSize{Cols: 80, Rows: 24}, []byte("$ "))
	first.Meta = Some(mustMeta(t, map[string]any{"panectl/pane": map[string]any{"id": id, "session": "$1"}, "panectl/title": "bash"}))
	first.Capabilities = Some(TerminalCapabilities{Cancel: &TerminalCancelCapabilities{}})
	chunk2 := NewOutputChunk(id, []byte("\x1b[1mbold\x1b[0m\r\n"))
	chunk2.Meta = mustMeta(t, map[string]any{"panectl/seq": 2})
	updates := []SessionUpdate{
		first,
		NewOutputChunk(id, []byte("ls\r\n")),
		chunk2,
		TerminalUpdate{TerminalID: id, Cwd: Some("/tmp")},
		TerminalUpdate{TerminalID: id, Size: Some(TerminalSize{Cols: 120, Rows: 40})},
		TerminalUpdate{TerminalID: id, Meta: Some(mustMeta(t, map[string]any{"panectl/title": "vim", "panectl/pane": map[string]any{"id": id}}))},
		TerminalUpdate{TerminalID: id, Command: Some("vim"), Meta: Some(mustMeta(t, map[string]any{"panectl/title": nil}))},
		TerminalUpdate{TerminalID: id, Output: Some(TerminalOutput{Data: Base64Bytes("redrawn\n")})},
		NewOutputChunk(id, []byte("bye\n")),
		TerminalUpdate{TerminalID: id, Command: Null[string](), ExitStatus: Some(ExitStatusCode(0)), Capabilities: Null[TerminalCapabilities]()},
	}
	out := make([]ACPNotification, len(updates))
	for i, u := range updates {
		out[i] = NewACPNotification("sess-1", u)
	}
	return out
}

func watchStreamFinal() *TerminalState {
	return &TerminalState{
		TerminalID: "%3",
		Cwd:        ptr("/tmp"),
		Size:       &TerminalSize{Cols: 120, Rows: 40},
		ExitStatus: &TerminalExitStatus{ExitCode: ptr(int64(0))},
		Output:     []byte("redrawn\nbye\n"),
		Meta:       ACPMeta{"panectl/pane": json.RawMessage(`{"id":"%3"}`)},
	}
}

// sampleNotifications covers every field in every state the types can
// marshal: the watch stream plus nulls, signals, metadata on every object.
func sampleNotifications(t testing.TB) []ACPNotification {
	const id = "%1"
	meta := mustMeta(t, map[string]any{"k": []any{1, "two", nil}})
	n := watchStream(t)
	for _, u := range []SessionUpdate{
		TerminalUpdate{TerminalID: id},
		TerminalUpdate{TerminalID: id, Command: Null[string](), Cwd: Null[string](), Output: Null[TerminalOutput](),
			ExitStatus: Null[TerminalExitStatus](), Size: Null[TerminalSize](), Capabilities: Null[TerminalCapabilities](), Meta: Null[ACPMeta]()},
		TerminalUpdate{TerminalID: id, Command: Some(""), Output: Some(TerminalOutput{Data: Base64Bytes{}})},
		TerminalUpdate{TerminalID: id, ExitStatus: Some(ExitStatusSignal("SIGKILL"))},
		TerminalUpdate{TerminalID: id, ExitStatus: Some(TerminalExitStatus{})},
		TerminalUpdate{TerminalID: id, ExitStatus: Some(TerminalExitStatus{ExitCode: ptr(int64(-1073741510)), Signal: ptr("SIGSEGV"), Meta: meta})},
		TerminalUpdate{TerminalID: id, Size: Some(TerminalSize{Cols: 65535, Rows: 1, Meta: meta}),
			Output:       Some(TerminalOutput{Data: Base64Bytes{0, 0xff, 0xfe, '\n'}, Meta: meta}),
			Capabilities: Some(TerminalCapabilities{Cancel: &TerminalCancelCapabilities{Meta: meta}, Meta: meta})},
		TerminalUpdate{TerminalID: id, Capabilities: Some(TerminalCapabilities{})},
		TerminalUpdate{TerminalID: id, Meta: Some(ACPMeta{})},
		TerminalUpdate{TerminalID: id, Meta: Some(mustMeta(t, map[string]any{"gone": nil, "obj": map[string]any{"a": nil}}))},
		NewOutputChunk(id, nil),
		TerminalOutputChunk{TerminalID: id, Data: Base64Bytes("x"), Meta: meta},
	} {
		n = append(n, NewACPNotification("s", u))
	}
	withParamsMeta := NewACPNotification("s", NewOutputChunk(id, []byte("y")))
	withParamsMeta.Params.Meta = meta
	return append(n, withParamsMeta)
}

func TestWatchStreamAppliesToFinalState(t *testing.T) {
	want := watchStreamFinal()

	// In memory.
	s := &TerminalState{}
	for i, n := range watchStream(t) {
		if err := s.Apply(n.Params.Update); err != nil {
			t.Fatalf("update %d: %v", i, err)
		}
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("in memory:\n got %s\nwant %s", dumpState(s), dumpState(want))
	}

	// Through the wire: one JSON line each, decoded by a consumer.
	var lines bytes.Buffer
	enc := json.NewEncoder(&lines)
	for _, n := range watchStream(t) {
		if err := enc.Encode(n); err != nil {
			t.Fatal(err)
		}
	}
	s = &TerminalState{}
	for i, line := range strings.Split(strings.TrimSuffix(lines.String(), "\n"), "\n") {
		n, err := DecodeACPNotification([]byte(line))
		if err != nil {
			t.Fatalf("line %d %s: %v", i, line, err)
		}
		if err := s.Apply(n.Params.Update); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("through JSON lines:\n got %s\nwant %s", dumpState(s), dumpState(want))
	}
}

// Marshal then decode gives back the same Go value, null and omitted kept apart.
func TestACPNotificationRoundTrip(t *testing.T) {
	for i, n := range sampleNotifications(t) {
		b, err := json.Marshal(n)
		if err != nil {
			t.Fatalf("notification %d: marshal: %v", i, err)
		}
		back, err := DecodeACPNotification(b)
		if err != nil {
			t.Fatalf("notification %d: decode %s: %v", i, b, err)
		}
		if !reflect.DeepEqual(back, n) {
			t.Errorf("notification %d: round trip of %s\n got %#v\nwant %#v", i, b, back, n)
		}
		again, err := json.Marshal(back)
		if err != nil || !bytes.Equal(again, b) {
			t.Errorf("notification %d: re-marshal = %s, %v; want %s", i, again, err, b)
		}
	}
}

// The wire form, pinned: key names, the discriminator, base64, null vs omitted.
func TestACPNotificationWireForm(t *testing.T) {
	tests := []struct {
		name string
		n    ACPNotification
		want string
	}{
		{"full state",
			NewACPNotification("s", NewTerminalUpdate("%1", "bash", "/h", TerminalSize{Cols: 80, Rows: 24}, []byte("hi\n"))),
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"%1","command":"bash","cwd":"/h","output":{"data":"aGkK"},"size":{"cols":80,"rows":24}}}}`},
		{"patch with null and exit",
			NewACPNotification("s", TerminalUpdate{TerminalID: "%1", Cwd: Null[string](), ExitStatus: Some(ExitStatusCode(2)), Meta: Some(ACPMeta{"t": json.RawMessage(`null`)})}),
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"%1","cwd":null,"exitStatus":{"exitCode":2},"_meta":{"t":null}}}}`},
		{"chunk",
			NewACPNotification("s", NewOutputChunk("%1", []byte{0xff, 0})),
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"%1","data":"/wA="}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.n)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
		})
	}
}

// Decoding a wire line and marshalling it again keeps every null and every
// omission of the patch fields (the equivalent-null members normalise to omitted).
func TestDecodeKeepsNullVersusOmitted(t *testing.T) {
	in := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"%1","command":null,"output":null,"exitStatus":{"exitCode":null,"signal":"SIGINT"},"_meta":{"a":null,"b":{"c":null}}},"_meta":null}}`
	want := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"%1","command":null,"output":null,"exitStatus":{"signal":"SIGINT"},"_meta":{"a":null,"b":{"c":null}}}}}`
	n, err := DecodeACPNotification([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	u := n.Params.Update.(TerminalUpdate)
	if !u.Command.IsNull() || !u.Output.IsNull() || !u.Cwd.IsZero() || !u.Size.IsZero() || !u.Capabilities.IsZero() {
		t.Errorf("states: command=%v output=%v cwd=%v size=%v capabilities=%v", u.Command, u.Output, u.Cwd, u.Size, u.Capabilities)
	}
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestDecodeUnknownSessionUpdateIsKept(t *testing.T) {
	in := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`
	n, err := DecodeACPNotification([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	u, ok := n.Params.Update.(UnknownSessionUpdate)
	if !ok || u.Kind != "agent_message_chunk" {
		t.Fatalf("update = %#v, want UnknownSessionUpdate", n.Params.Update)
	}
	b, err := json.Marshal(n)
	if err != nil || string(b) != in {
		t.Errorf("re-marshal = %s, %v; want %s", b, err, in)
	}
}

func TestDecodeACPNotificationErrors(t *testing.T) {
	env := func(update string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":` + update + `}}`
	}
	tests := []struct{ name, in string }{
		{"not JSON", `{`},
		{"array", `[]`},
		{"null", `null`},
		{"no jsonrpc", `{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"t"}}}`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"t"}}}`},
		{"other method", `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`},
		{"no params", `{"jsonrpc":"2.0","method":"session/update"}`},
		{"null params", `{"jsonrpc":"2.0","method":"session/update","params":null}`},
		{"no sessionId", `{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"terminal_update","terminalId":"t"}}}`},
		{"sessionId number", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":1,"update":{"sessionUpdate":"terminal_update","terminalId":"t"}}}`},
		{"no update", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}`},
		{"null update", env(`null`)},
		{"update without sessionUpdate", env(`{"terminalId":"t"}`)},
		{"update not an object", env(`"terminal_update"`)},
		{"params _meta not an object", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"t"},"_meta":[1]}}`},
		{"terminal_update without terminalId", env(`{"sessionUpdate":"terminal_update","cwd":"/"}`)},
		{"terminal_update null terminalId", env(`{"sessionUpdate":"terminal_update","terminalId":null}`)},
		{"terminal_update numeric terminalId", env(`{"sessionUpdate":"terminal_update","terminalId":1}`)},
		{"command not a string", env(`{"sessionUpdate":"terminal_update","terminalId":"t","command":5}`)},
		{"cwd not a string", env(`{"sessionUpdate":"terminal_update","terminalId":"t","cwd":{}}`)},
		{"size without rows", env(`{"sessionUpdate":"terminal_update","terminalId":"t","size":{"cols":80}}`)},
		{"size cols 0", env(`{"sessionUpdate":"terminal_update","terminalId":"t","size":{"cols":0,"rows":24}}`)},
		{"size cols too big", env(`{"sessionUpdate":"terminal_update","terminalId":"t","size":{"cols":65536,"rows":24}}`)},
		{"size negative", env(`{"sessionUpdate":"terminal_update","terminalId":"t","size":{"cols":-1,"rows":24}}`)},
		{"size fractional", env(`{"sessionUpdate":"terminal_update","terminalId":"t","size":{"cols":1.5,"rows":24}}`)},
		{"output without data", env(`{"sessionUpdate":"terminal_update","terminalId":"t","output":{}}`)},
		{"output data null", env(`{"sessionUpdate":"terminal_update","terminalId":"t","output":{"data":null}}`)},
		{"output data not base64", env(`{"sessionUpdate":"terminal_update","terminalId":"t","output":{"data":"not base64!"}}`)},
		{"exitCode not an integer", env(`{"sessionUpdate":"terminal_update","terminalId":"t","exitStatus":{"exitCode":"1"}}`)},
		{"signal not a string", env(`{"sessionUpdate":"terminal_update","terminalId":"t","exitStatus":{"signal":9}}`)},
		{"_meta not an object", env(`{"sessionUpdate":"terminal_update","terminalId":"t","_meta":"x"}`)},
		{"chunk without data", env(`{"sessionUpdate":"terminal_output_chunk","terminalId":"t"}`)},
		{"chunk null data", env(`{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":null}`)},
		{"chunk bad base64", env(`{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"@@@"}`)},
		{"chunk unpadded base64", env(`{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"eA"}`)},
		{"chunk without terminalId", env(`{"sessionUpdate":"terminal_output_chunk","data":""}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := DecodeACPNotification([]byte(tt.in))
			if !errors.Is(err, ErrACPDecode) {
				t.Errorf("DecodeACPNotification(%s) = %#v, %v; want an error wrapping ErrACPDecode", tt.in, n, err)
			}
		})
	}
}

// Decoding a variant directly checks the discriminator when it is present.
func TestVariantUnmarshalChecksKind(t *testing.T) {
	var u TerminalUpdate
	if err := json.Unmarshal([]byte(`{"sessionUpdate":"terminal_output_chunk","terminalId":"t"}`), &u); !errors.Is(err, ErrACPDecode) {
		t.Errorf("TerminalUpdate from a chunk: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"terminalId":"t","cwd":"/"}`), &u); err != nil || u.TerminalID != "t" {
		t.Errorf("bare TerminalUpdate: %+v, %v", u, err)
	}
	var c TerminalOutputChunk
	if err := json.Unmarshal([]byte(`{"sessionUpdate":"terminal_update","terminalId":"t","data":""}`), &c); !errors.Is(err, ErrACPDecode) {
		t.Errorf("TerminalOutputChunk from an update: %v", err)
	}
}

func TestMarshalRefusesInvalid(t *testing.T) {
	if b, err := json.Marshal(ACPNotification{JSONRPC: "2.0", Method: MethodSessionUpdate}); err == nil {
		t.Errorf("marshal with nil Update = %s, want error", b)
	}
	if b, err := json.Marshal(TerminalUpdate{TerminalID: "t", Meta: Some[ACPMeta](nil)}); err == nil {
		t.Errorf("marshal of Some(nil ACPMeta) = %s, want error", b)
	}
	if b, err := json.Marshal(TerminalOutputChunk{TerminalID: "t"}); err != nil || !strings.Contains(string(b), `"data":""`) {
		t.Errorf("nil chunk data = %s, %v; want \"data\":\"\"", b, err)
	}
}

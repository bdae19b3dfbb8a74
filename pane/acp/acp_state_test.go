package acp

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// wireUpdate decodes one update object as it appears under params.update.
func wireUpdate(t *testing.T, js string) SessionUpdate {
	t.Helper()
	u, err := decodeSessionUpdate([]byte(js))
	if err != nil {
		t.Fatalf("decode %s: %v", js, err)
	}
	return u
}

// baseState is a terminal with every field known, to patch in the tests.
func baseState() *TerminalState {
	return &TerminalState{
		TerminalID:   "%1",
		Command:      ptr("bash"),
		Cwd:          ptr("/home/u"),
		Size:         &TerminalSize{Cols: 80, Rows: 24, Meta: ACPMeta{"m": json.RawMessage(`1`)}},
		Capabilities: &TerminalCapabilities{Cancel: &TerminalCancelCapabilities{}},
		Output:       []byte("hello\n"),
		Meta: ACPMeta{
			"keep":   json.RawMessage(`"k"`),
			"nested": json.RawMessage(`{"a":1,"b":{"c":2}}`),
		},
	}
}

// with returns baseState changed by f: the expected state of a test.
func with(f func(s *TerminalState)) *TerminalState {
	s := baseState()
	f(s)
	return s
}

func TestTerminalStateApply(t *testing.T) {
	tests := []struct {
		name   string
		start  *TerminalState
		update string // the update object, as on the wire
		want   *TerminalState
	}{
		// Omitted = unchanged, for every field at once.
		{"only terminalId leaves everything", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1"}`, baseState()},

		// command
		{"command value replaces", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","command":"vim"}`,
			with(func(s *TerminalState) { s.Command = ptr("vim") })},
		{"command null clears", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","command":null}`,
			with(func(s *TerminalState) { s.Command = nil })},
		{"command empty string is a value", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","command":""}`,
			with(func(s *TerminalState) { s.Command = ptr("") })},

		// cwd
		{"cwd value replaces", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","cwd":"/tmp"}`,
			with(func(s *TerminalState) { s.Cwd = ptr("/tmp") })},
		{"cwd null clears", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","cwd":null}`,
			with(func(s *TerminalState) { s.Cwd = nil })},

		// size: replaced whole, its nested _meta is not merged
		{"size value replaces whole object", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","size":{"cols":120,"rows":40}}`,
			with(func(s *TerminalState) { s.Size = &TerminalSize{Cols: 120, Rows: 40} })},
		{"size null clears", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","size":null}`,
			with(func(s *TerminalState) { s.Size = nil })},

		// output snapshot
		{"output snapshot replaces stored output", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","output":{"data":"bmV3"}}`,
			with(func(s *TerminalState) { s.Output = []byte("new") })},
		{"output empty snapshot empties", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","output":{"data":""}}`,
			with(func(s *TerminalState) { s.Output = []byte{} })},
		{"output null clears", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","output":null}`,
			with(func(s *TerminalState) { s.Output = nil })},

		// exitStatus
		{"exitStatus exit code sets", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","exitStatus":{"exitCode":3}}`,
			with(func(s *TerminalState) { s.ExitStatus = &TerminalExitStatus{ExitCode: ptr(int64(3))} })},
		{"exitStatus negative exit code", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","exitStatus":{"exitCode":-1073741510}}`,
			with(func(s *TerminalState) { s.ExitStatus = &TerminalExitStatus{ExitCode: ptr(int64(-1073741510))} })},
		{"exitStatus signal sets", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","exitStatus":{"exitCode":null,"signal":"SIGTERM"}}`,
			with(func(s *TerminalState) { s.ExitStatus = &TerminalExitStatus{Signal: ptr("SIGTERM")} })},
		{"exitStatus empty object still marks exited", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","exitStatus":{}}`,
			with(func(s *TerminalState) { s.ExitStatus = &TerminalExitStatus{} })},
		{"exitStatus value replaces previous", with(func(s *TerminalState) { s.ExitStatus = &TerminalExitStatus{ExitCode: ptr(int64(1))} }),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","exitStatus":{"signal":"SIGKILL"}}`,
			with(func(s *TerminalState) { s.ExitStatus = &TerminalExitStatus{Signal: ptr("SIGKILL")} })},
		{"exitStatus null clears", with(func(s *TerminalState) { s.ExitStatus = &TerminalExitStatus{ExitCode: ptr(int64(0))} }),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","exitStatus":null}`,
			baseState()},

		// capabilities
		{"capabilities value replaces whole", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","capabilities":{}}`,
			with(func(s *TerminalState) { s.Capabilities = &TerminalCapabilities{} })},
		{"capabilities null clears", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","capabilities":null}`,
			with(func(s *TerminalState) { s.Capabilities = nil })},

		// _meta: patched by top-level key
		{"_meta null clears all", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":null}`,
			with(func(s *TerminalState) { s.Meta = nil })},
		{"_meta empty object changes nothing", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":{}}`,
			baseState()},
		{"_meta adds a key, keeps the others", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":{"panectl/title":"vim"}}`,
			with(func(s *TerminalState) { s.Meta["panectl/title"] = json.RawMessage(`"vim"`) })},
		{"_meta replaces a key", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":{"keep":[1, 2]}}`,
			with(func(s *TerminalState) { s.Meta["keep"] = json.RawMessage(`[1,2]`) })},
		{"_meta null value removes the key", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":{"keep":null}}`,
			with(func(s *TerminalState) { delete(s.Meta, "keep") })},
		{"_meta removing an absent key is a no-op", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":{"absent":null}}`,
			baseState()},
		{"_meta nested object replaced, not merged", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":{"nested":{"b":{"d":4}}}}`,
			with(func(s *TerminalState) { s.Meta["nested"] = json.RawMessage(`{"b":{"d":4}}`) })},
		{"_meta nested null is a value, not a removal", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":{"nested":{"a":null}}}`,
			with(func(s *TerminalState) { s.Meta["nested"] = json.RawMessage(`{"a":null}`) })},
		{"_meta add, replace and remove at once", baseState(),
			`{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":{"new":true,"keep":"k2","nested":null}}`,
			with(func(s *TerminalState) {
				s.Meta = ACPMeta{"new": json.RawMessage(`true`), "keep": json.RawMessage(`"k2"`)}
			})},
		{"_meta patch on a state without metadata", &TerminalState{TerminalID: "%1"},
			`{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":{"a":1,"b":null}}`,
			&TerminalState{TerminalID: "%1", Meta: ACPMeta{"a": json.RawMessage(`1`)}}},

		// terminal_output_chunk
		{"chunk appends", baseState(),
			`{"sessionUpdate":"terminal_output_chunk","terminalId":"%1","data":"d29ybGQK"}`,
			with(func(s *TerminalState) { s.Output = []byte("hello\nworld\n") })},
		{"empty chunk appends nothing", baseState(),
			`{"sessionUpdate":"terminal_output_chunk","terminalId":"%1","data":""}`,
			baseState()},
		{"chunk _meta is not stored", baseState(),
			`{"sessionUpdate":"terminal_output_chunk","terminalId":"%1","data":"IQ==","_meta":{"keep":null,"x":1}}`,
			with(func(s *TerminalState) { s.Output = []byte("hello\n!") })},
		{"chunk after a cleared output starts from nothing", with(func(s *TerminalState) { s.Output = nil }),
			`{"sessionUpdate":"terminal_output_chunk","terminalId":"%1","data":"eA=="}`,
			with(func(s *TerminalState) { s.Output = []byte("x") })},

		// A new terminal: the empty state adopts the id; omitted fields stay unknown.
		{"empty state adopts the terminal id", &TerminalState{},
			`{"sessionUpdate":"terminal_update","terminalId":"%7","cwd":"/srv"}`,
			&TerminalState{TerminalID: "%7", Cwd: ptr("/srv")}},
		{"empty state adopts the id from a chunk", &TerminalState{},
			`{"sessionUpdate":"terminal_output_chunk","terminalId":"%7","data":"eA=="}`,
			&TerminalState{TerminalID: "%7", Output: []byte("x")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.start
			if err := s.Apply(wireUpdate(t, tt.update)); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if !reflect.DeepEqual(s, tt.want) {
				t.Errorf("after %s\n got %s\nwant %s", tt.update, dumpState(s), dumpState(tt.want))
			}
		})
	}
}

func TestTerminalStateApplyErrors(t *testing.T) {
	tests := []struct {
		name    string
		update  SessionUpdate
		wantErr error
	}{
		{"update for another terminal", TerminalUpdate{TerminalID: "%2", Command: Some("x")}, ErrTerminalMismatch},
		{"chunk for another terminal", NewOutputChunk("%2", []byte("x")), ErrTerminalMismatch},
		{"pointer update for another terminal", &TerminalUpdate{TerminalID: "%2"}, ErrTerminalMismatch},
		{"unknown session update", UnknownSessionUpdate{Kind: "agent_message_chunk", Raw: json.RawMessage(`{}`)}, ErrNotTerminalUpdate},
		{"nil update", nil, ErrNotTerminalUpdate},
		{"nil *TerminalUpdate", (*TerminalUpdate)(nil), ErrNotTerminalUpdate},
		{"nil *TerminalOutputChunk", (*TerminalOutputChunk)(nil), ErrNotTerminalUpdate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := baseState()
			err := s.Apply(tt.update)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Apply = %v, want %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(s, baseState()) {
				t.Errorf("state changed by a refused update: %s", dumpState(s))
			}
		})
	}
	s := NewTerminalState("%1")
	if err := s.Apply(NewOutputChunk("%9", nil)); !errors.Is(err, ErrTerminalMismatch) {
		t.Errorf("NewTerminalState(%%1).Apply(chunk for %%9) = %v, want ErrTerminalMismatch", err)
	}
}

func TestTerminalStateApplyPointerVariants(t *testing.T) {
	s := &TerminalState{}
	if err := s.Apply(&TerminalUpdate{TerminalID: "%1", Command: Some("sh")}); err != nil {
		t.Fatal(err)
	}
	chunk := NewOutputChunk("%1", []byte("ab"))
	if err := s.Apply(&chunk); err != nil {
		t.Fatal(err)
	}
	want := &TerminalState{TerminalID: "%1", Command: ptr("sh"), Output: []byte("ab")}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got %s, want %s", dumpState(s), dumpState(want))
	}
}

// The state must not alias the update it was built from.
func TestTerminalStateApplyCopies(t *testing.T) {
	u := NewTerminalUpdate("%1", "sh", "/", TerminalSize{Cols: 1, Rows: 1, Meta: ACPMeta{"a": json.RawMessage(`1`)}}, []byte("abc"))
	u.Meta = Some(ACPMeta{"k": json.RawMessage(`{"x":1}`)})
	s := &TerminalState{}
	if err := s.Apply(u); err != nil {
		t.Fatal(err)
	}
	out, _ := u.Output.Get()
	out.Data[0] = 'X'
	size, _ := u.Size.Get()
	size.Meta["a"] = json.RawMessage(`2`)
	meta, _ := u.Meta.Get()
	meta["k"][2] = 'y'
	if string(s.Output) != "abc" || string(s.Size.Meta["a"]) != "1" || string(s.Meta["k"]) != `{"x":1}` {
		t.Errorf("state aliases the update: %s", dumpState(s))
	}
}

func TestTerminalStateExited(t *testing.T) {
	s := NewTerminalState("%1")
	if s.Exited() {
		t.Fatal("new state is exited")
	}
	if err := s.Apply(TerminalUpdate{TerminalID: "%1", ExitStatus: Some(TerminalExitStatus{})}); err != nil {
		t.Fatal(err)
	}
	if !s.Exited() {
		t.Fatal("exitStatus {} did not mark the terminal exited")
	}
}

func dumpState(s *TerminalState) string {
	if s == nil {
		return "<nil>"
	}
	b, err := json.Marshal(struct {
		*TerminalState
		Output string
	}{s, string(s.Output)})
	if err != nil {
		return err.Error()
	}
	return string(b)
}

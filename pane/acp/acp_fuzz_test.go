package acp

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzApply feeds arbitrary bytes to DecodeACPNotification and applies
// whatever decodes to both an empty state and a populated one. Nothing may
// panic; a decoded notification must marshal, and its marshalled form must be
// a fixed point (decode then marshal gives the same bytes).
func FuzzApply(f *testing.F) {
	for _, n := range sampleNotifications(f) {
		b, err := json.Marshal(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		``, `null`, `{}`, `[]`, `"x"`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"%1","_meta":{"a":null,"b":{"c":[1,{"d":null}]}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"%2","data":"AAEC\r\n"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"%1","size":{"cols":65535,"rows":1},"exitStatus":{"exitCode":-9223372036854775808}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := DecodeACPNotification(data)
		if err != nil {
			return
		}
		empty := &TerminalState{}
		_ = empty.Apply(n.Params.Update)
		full := baseState()
		_ = full.Apply(n.Params.Update)
		_ = full.Exited()

		b1, err := json.Marshal(n)
		if err != nil {
			t.Fatalf("decoded notification does not marshal: %v\ninput %q", err, data)
		}
		n2, err := DecodeACPNotification(b1)
		if err != nil {
			t.Fatalf("marshalled notification does not decode: %v\n%s", err, b1)
		}
		b2, err := json.Marshal(n2)
		if err != nil || !bytes.Equal(b1, b2) {
			t.Fatalf("marshal is not a fixed point:\n%s\n%s (%v)", b1, b2, err)
		}
	})
}

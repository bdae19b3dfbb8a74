package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Every line that would end the SDK's session is answered by the filter and
// kept from the SDK; every JSON-RPC message reaches it unchanged.
func TestFilterJSONLines(t *testing.T) {
	for _, c := range []struct {
		line string
		pass bool
		code int    // the answer's error code when not passed
		id   string // the answer's id, as JSON
	}{
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, pass: true},
		{line: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, pass: true},
		{line: `{"jsonrpc":"2.0","id":"a","result":{}}`, pass: true},
		{line: `{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"x"}}`, pass: true},
		{line: `{bad json`, code: -32700, id: "null"},
		{line: `{}`, code: -32600, id: "null"},
		{line: `null`, code: -32600, id: "null"},
		{line: `42`, code: -32600, id: "null"},
		{line: `"str"`, code: -32600, id: "null"},
		{line: `[]`, code: -32600, id: "null"},
		{line: `[1,2]`, code: -32600, id: "null"},
		{line: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, code: -32600, id: "null"},
		{line: `{"jsonrpc":"2.0","id":3}`, code: -32600, id: "3"},
		{line: `{"jsonrpc":"1.0","id":"q","method":"ping"}`, code: -32600, id: `"q"`},
		{line: `{"jsonrpc":"2.0","id":12345678901234567890,"method":5}`, code: -32600, id: "12345678901234567890"},
		{line: `{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, code: -32600, id: "null"},
	} {
		var pass, answer bytes.Buffer
		if err := filterJSONLines(strings.NewReader(c.line+"\n\n"), &pass, &answer, 1<<10, nil); err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if c.pass {
			if pass.String() != c.line+"\n" || answer.Len() != 0 {
				t.Errorf("%s: passed %q, answered %q; want it passed as is", c.line, pass.String(), answer.String())
			}
			continue
		}
		var v struct {
			JSONRPC string
			ID      json.RawMessage
			Error   struct {
				Code    int
				Message string
			}
		}
		if pass.Len() != 0 || json.Unmarshal(answer.Bytes(), &v) != nil || v.JSONRPC != "2.0" || v.Error.Code != c.code || string(v.ID) != c.id || v.Error.Message == "" {
			t.Errorf("%s: passed %q, answered %q; want only an answer with code %d and id %s", c.line, pass.String(), answer.String(), c.code, c.id)
		}
	}
}

// Whatever arrives, the SDK gets only lines it can decode as one message,
// and every other line is answered with one JSON line.
func FuzzFilterJSONLines(f *testing.F) {
	for _, s := range []string{"{}\n", "[1]\n", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", "{bad\n\n  \n", "null\n42\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var pass, answer bytes.Buffer
		if err := filterJSONLines(strings.NewReader(in), &pass, &answer, 256, nil); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(pass.String(), "\n"), "\n") {
			if l == "" && pass.Len() == 0 {
				break
			}
			if _, err := jsonrpc.DecodeMessage([]byte(l)); err != nil {
				t.Fatalf("passed %q: %v", l, err)
			}
		}
		for _, l := range strings.Split(strings.TrimSuffix(answer.String(), "\n"), "\n") {
			if l != "" && !json.Valid([]byte(l)) {
				t.Fatalf("answered %q", l)
			}
		}
	})
}

// TestMCPAnswersEveryRequestBeforeEOF: a client that writes its requests
// and closes stdin at once gets an answer to each of them.
func TestMCPAnswersEveryRequestBeforeEOF(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"list_panes","arguments":{}}}
`
	f := &Factory{}
	f.SocketName = "panectl-test-no-such-server"
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := serveMCP(ctx, f, mcpStdio(strings.NewReader(in), &out)); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct{ ID json.RawMessage }
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		ids[string(m.ID)] = true
	}
	for _, id := range []string{`1`, `2`, `"three"`} {
		if !ids[id] {
			t.Errorf("request %s got no answer; output:\n%s", id, out.String())
		}
	}
}

// A request the client cancels is not waited for at stdin's end: MCP lets
// the server leave it unanswered.
func TestPendingCancelledRequest(t *testing.T) {
	p := newPending()
	p.add([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`), 1)
	p.add([]byte(`{"jsonrpc":"2.0","id":8,"method":"tools/call"}`), 1)
	p.add([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`), 1)
	p.add([]byte(`{"jsonrpc":"2.0","id":8,"result":{}}`), -1)
	if len(p.ids) != 0 {
		t.Errorf("still pending: %v", p.ids)
	}
	// The answer to the cancelled request is withheld, once; others pass.
	if !p.withhold([]byte(`{"jsonrpc":"2.0","id":7,"result":{"isError":true}}`)) {
		t.Error("the answer to cancelled request 7 was not withheld")
	}
	if p.withhold([]byte(`{"jsonrpc":"2.0","id":7,"result":{}}`)) || p.withhold([]byte(`{"jsonrpc":"2.0","id":8,"result":{}}`)) {
		t.Error("an answer to a request not cancelled was withheld")
	}
	// A cancellation of a request already answered marks nothing.
	p.add([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}`), 1)
	if len(p.cancelled) != 0 {
		t.Errorf("cancelled after its answer: %v", p.cancelled)
	}
}

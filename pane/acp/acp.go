package acp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// ACP v2 wire constants for the notifications panectl emits.
const (
	// JSONRPCVersion is the "jsonrpc" member every ACP message carries.
	JSONRPCVersion = "2.0"
	// MethodSessionUpdate is the JSON-RPC method of UpdateSessionNotification.
	MethodSessionUpdate = "session/update"
	// KindTerminalUpdate is the "sessionUpdate" discriminator of TerminalUpdate.
	KindTerminalUpdate = "terminal_update"
	// KindTerminalOutputChunk is the "sessionUpdate" discriminator of TerminalOutputChunk.
	KindTerminalOutputChunk = "terminal_output_chunk"
)

// ErrACPDecode is wrapped by every error DecodeACPNotification and the
// UnmarshalJSON methods of this file return for input that is not a
// well-formed ACP v2 session/update notification.
var ErrACPDecode = errors.New("invalid ACP notification")

func decodeErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrACPDecode}, args...)...)
}

// ACPMeta is an ACP "_meta" object: extension metadata keyed by name, each
// value kept as raw JSON so that panectl never assigns meaning to keys it does
// not recognise (as the schema requires). A nil ACPMeta is omitted when
// marshalled (fields use omitzero); JSON null decodes to nil, since for every
// "_meta" except TerminalUpdate's, omitted and null are equivalent.
//
// In a TerminalUpdate the "_meta" is a patch (see TerminalState.Apply): a key
// whose value is the JSON literal null removes that key.
type ACPMeta map[string]json.RawMessage

// NewACPMeta builds an ACPMeta by marshalling each value. A nil value becomes
// JSON null, which in a TerminalUpdate patch removes the key.
func NewACPMeta(values map[string]any) (ACPMeta, error) {
	m := make(ACPMeta, len(values))
	for k, v := range values {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("pane: _meta key %q: %w", k, err)
		}
		m[k] = b
	}
	return m, nil
}

// Base64Bytes is a byte string carried in JSON as standard, padded base64
// (RFC 4648 section 4), the "contentEncoding": "base64" strings of ACP's
// TerminalOutput.data and TerminalOutputChunk.data. It always marshals to a
// JSON string (nil is ""), and refuses null and malformed base64 when
// unmarshalled: these fields are required strings.
type Base64Bytes []byte

// MarshalJSON writes b as a base64 JSON string.
func (b Base64Bytes) MarshalJSON() ([]byte, error) {
	return json.Marshal(base64.StdEncoding.EncodeToString(b))
}

// UnmarshalJSON decodes a base64 JSON string; null or any other type is an error.
func (b *Base64Bytes) UnmarshalJSON(data []byte) error {
	var s *string
	if err := json.Unmarshal(data, &s); err != nil {
		return decodeErrorf("base64 data: %v", err)
	}
	if s == nil {
		return decodeErrorf("base64 data is null, want a string")
	}
	raw, err := base64.StdEncoding.DecodeString(*s)
	if err != nil {
		return decodeErrorf("base64 data: %v", err)
	}
	*b = raw
	return nil
}

// ACPNotification is the JSON-RPC 2.0 notification that carries one ACP
// session update, one JSON object per line of `panectl watch --format acp`:
//
//	{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S","update":{"sessionUpdate":"terminal_update",...}}}
//
// The schema's UpdateSessionNotification definition covers only Params; the
// "jsonrpc" and "method" members come from its AgentNotification envelope.
// Build one with NewACPNotification; decode one with DecodeACPNotification.
type ACPNotification struct {
	JSONRPC string                    `json:"jsonrpc"` // always JSONRPCVersion
	Method  string                    `json:"method"`  // always MethodSessionUpdate
	Params  UpdateSessionNotification `json:"params"`
}

// NewACPNotification wraps update for sessionID in a session/update
// notification ready to marshal.
func NewACPNotification(sessionID string, update SessionUpdate) ACPNotification {
	return ACPNotification{
		JSONRPC: JSONRPCVersion,
		Method:  MethodSessionUpdate,
		Params:  UpdateSessionNotification{SessionID: sessionID, Update: update},
	}
}

// DecodeACPNotification parses one session/update notification. It checks the
// envelope ("jsonrpc" is "2.0", "method" is "session/update", "params" is an
// object) and decodes Params, whose Update is a TerminalUpdate, a
// TerminalOutputChunk, or an UnknownSessionUpdate for any other kind. Errors
// wrap ErrACPDecode. Unknown members are ignored, as ACP's open objects allow.
func DecodeACPNotification(data []byte) (ACPNotification, error) {
	var env struct {
		JSONRPC *string         `json:"jsonrpc"`
		Method  *string         `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return ACPNotification{}, decodeErrorf("%v", err)
	}
	if env.JSONRPC == nil || *env.JSONRPC != JSONRPCVersion {
		return ACPNotification{}, decodeErrorf(`"jsonrpc" must be %q`, JSONRPCVersion)
	}
	if env.Method == nil || *env.Method != MethodSessionUpdate {
		return ACPNotification{}, decodeErrorf(`"method" must be %q`, MethodSessionUpdate)
	}
	if env.Params == nil || bytes.Equal(env.Params, jsonNull) {
		return ACPNotification{}, decodeErrorf(`"params" is required`)
	}
	n := ACPNotification{JSONRPC: *env.JSONRPC, Method: *env.Method}
	if err := json.Unmarshal(env.Params, &n.Params); err != nil {
		return ACPNotification{}, wrapDecode(err)
	}
	return n, nil
}

// wrapDecode makes sure an error from encoding/json also wraps ErrACPDecode.
func wrapDecode(err error) error {
	if errors.Is(err, ErrACPDecode) {
		return err
	}
	return decodeErrorf("%v", err)
}

// UpdateSessionNotification is the "params" of a session/update notification
// (ACP v2 schema: $defs/UpdateSessionNotification): which session, the update,
// and optional metadata. sessionId and update are required.
type UpdateSessionNotification struct {
	SessionID string        `json:"sessionId"`
	Update    SessionUpdate `json:"update"`
	Meta      ACPMeta       `json:"_meta,omitzero"`
}

// MarshalJSON refuses a nil Update (the schema requires "update").
func (p UpdateSessionNotification) MarshalJSON() ([]byte, error) {
	if p.Update == nil {
		return nil, errors.New("pane: UpdateSessionNotification.Update is nil")
	}
	type plain UpdateSessionNotification
	return json.Marshal(plain(p))
}

// UnmarshalJSON decodes the params, choosing the Update's Go type from its
// "sessionUpdate" discriminator.
func (p *UpdateSessionNotification) UnmarshalJSON(data []byte) error {
	var raw struct {
		SessionID *string         `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
		Meta      ACPMeta         `json:"_meta"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return wrapDecode(err)
	}
	if raw.SessionID == nil {
		return decodeErrorf(`"sessionId" is required`)
	}
	if raw.Update == nil || bytes.Equal(raw.Update, jsonNull) {
		return decodeErrorf(`"update" is required`)
	}
	u, err := decodeSessionUpdate(raw.Update)
	if err != nil {
		return err
	}
	*p = UpdateSessionNotification{SessionID: *raw.SessionID, Update: u, Meta: raw.Meta}
	return nil
}

func decodeSessionUpdate(data []byte) (SessionUpdate, error) {
	var head struct {
		Kind *string `json:"sessionUpdate"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, decodeErrorf("update: %v", err)
	}
	if head.Kind == nil {
		return nil, decodeErrorf(`update: "sessionUpdate" is required`)
	}
	switch *head.Kind {
	case KindTerminalUpdate:
		var u TerminalUpdate
		if err := json.Unmarshal(data, &u); err != nil {
			return nil, wrapDecode(err)
		}
		return u, nil
	case KindTerminalOutputChunk:
		var c TerminalOutputChunk
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, wrapDecode(err)
		}
		return c, nil
	default:
		return UnknownSessionUpdate{Kind: *head.Kind, Raw: bytes.Clone(data)}, nil
	}
}

// SessionUpdate is one variant of ACP's SessionUpdate union, discriminated by
// its "sessionUpdate" member. panectl's variants are TerminalUpdate and
// TerminalOutputChunk; decoding yields UnknownSessionUpdate for the others.
type SessionUpdate interface {
	// SessionUpdateKind returns the "sessionUpdate" discriminator value.
	SessionUpdateKind() string
}

// UnknownSessionUpdate is a session update of a kind this package does not
// model (an agent message, a plan, a future variant). The schema asks
// receivers to preserve the raw payload when forwarding, so Raw is kept and
// marshalled back verbatim.
type UnknownSessionUpdate struct {
	Kind string          // the "sessionUpdate" value
	Raw  json.RawMessage // the whole update object
}

// SessionUpdateKind returns u.Kind.
func (u UnknownSessionUpdate) SessionUpdateKind() string { return u.Kind }

// MarshalJSON writes Raw unchanged.
func (u UnknownSessionUpdate) MarshalJSON() ([]byte, error) {
	if u.Raw == nil {
		return nil, fmt.Errorf("pane: UnknownSessionUpdate %q has no Raw payload", u.Kind)
	}
	return u.Raw, nil
}

// TerminalUpdate is the "terminal_update" session update (ACP v2 schema:
// $defs/TerminalUpdate): an upsert of a terminal's stored state.
//
//	{"sessionUpdate":"terminal_update","terminalId":"%1","command":"bash","cwd":"/home/u",
//	 "size":{"cols":80,"rows":24},"output":{"data":"aGkK"},"exitStatus":{"exitCode":0},"_meta":{...}}
//
// Only TerminalID is required. Every other field is a patch: Undefined
// (omitted) leaves the stored value unchanged, Null clears it, Some replaces
// it; Meta instead patches the stored metadata by top-level key. See
// TerminalState.Apply for the exact rules.
type TerminalUpdate struct {
	TerminalID string `json:"terminalId"`
	// Command is the command being run.
	Command Optional[string] `json:"command,omitzero"`
	// Cwd is the command's absolute working directory.
	Cwd Optional[string] `json:"cwd,omitzero"`
	// Output is an authoritative snapshot that replaces all stored output bytes.
	Output Optional[TerminalOutput] `json:"output,omitzero"`
	// ExitStatus, when a value, marks the terminal as exited.
	ExitStatus Optional[TerminalExitStatus] `json:"exitStatus,omitzero"`
	// Size is the terminal size in character cells.
	Size Optional[TerminalSize] `json:"size,omitzero"`
	// Capabilities are the client-initiated controls the terminal supports
	// (cancellation); a value replaces the whole previous value.
	Capabilities Optional[TerminalCapabilities] `json:"capabilities,omitzero"`
	// Meta patches the stored "_meta" by top-level key; Null clears it all.
	Meta Optional[ACPMeta] `json:"_meta,omitzero"`
}

// NewTerminalUpdate returns the first, full-state terminal_update panectl
// sends for a pane: terminalId, command, cwd, size and an output snapshot
// (raw bytes, copied; they are base64-encoded on the wire). Set further fields
// (Meta, Capabilities) on the result as needed. Later patches are struct
// literals carrying only what changed, for example
//
//	TerminalUpdate{TerminalID: id, Cwd: Some("/tmp")}
//	TerminalUpdate{TerminalID: id, ExitStatus: Some(ExitStatusCode(0))}
func NewTerminalUpdate(terminalID, command, cwd string, size TerminalSize, output []byte) TerminalUpdate {
	return TerminalUpdate{
		TerminalID: terminalID,
		Command:    Some(command),
		Cwd:        Some(cwd),
		Size:       Some(size),
		Output:     Some(TerminalOutput{Data: append(Base64Bytes{}, output...)}),
	}
}

// SessionUpdateKind returns "terminal_update".
func (TerminalUpdate) SessionUpdateKind() string { return KindTerminalUpdate }

// MarshalJSON writes the update with its "sessionUpdate" discriminator first.
func (u TerminalUpdate) MarshalJSON() ([]byte, error) {
	type plain TerminalUpdate
	return json.Marshal(struct {
		Kind string `json:"sessionUpdate"`
		plain
	}{KindTerminalUpdate, plain(u)})
}

// UnmarshalJSON decodes a terminal_update. "terminalId" is required; a
// "sessionUpdate" member, when present, must be "terminal_update".
func (u *TerminalUpdate) UnmarshalJSON(data []byte) error {
	if err := checkKind(data, KindTerminalUpdate); err != nil {
		return err
	}
	type plain TerminalUpdate
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return wrapDecode(err)
	}
	*u = TerminalUpdate(p)
	return nil
}

// TerminalOutputChunk is the "terminal_output_chunk" session update (ACP v2
// schema: $defs/TerminalOutputChunk): bytes appended to a terminal's output.
//
//	{"sessionUpdate":"terminal_output_chunk","terminalId":"%1","data":"aGkK"}
//
// TerminalID and Data are required. Meta belongs to the chunk alone and does
// not patch the terminal's stored metadata.
type TerminalOutputChunk struct {
	TerminalID string      `json:"terminalId"`
	Data       Base64Bytes `json:"data"`
	Meta       ACPMeta     `json:"_meta,omitzero"`
}

// NewOutputChunk returns a terminal_output_chunk appending data (raw bytes,
// copied into a non-nil slice, base64-encoded on the wire) to terminalID's
// output.
func NewOutputChunk(terminalID string, data []byte) TerminalOutputChunk {
	return TerminalOutputChunk{TerminalID: terminalID, Data: append(Base64Bytes{}, data...)}
}

// SessionUpdateKind returns "terminal_output_chunk".
func (TerminalOutputChunk) SessionUpdateKind() string { return KindTerminalOutputChunk }

// MarshalJSON writes the chunk with its "sessionUpdate" discriminator first.
func (c TerminalOutputChunk) MarshalJSON() ([]byte, error) {
	type plain TerminalOutputChunk
	return json.Marshal(struct {
		Kind string `json:"sessionUpdate"`
		plain
	}{KindTerminalOutputChunk, plain(c)})
}

// UnmarshalJSON decodes a terminal_output_chunk; "terminalId" and "data" are
// required and "data" must be base64.
func (c *TerminalOutputChunk) UnmarshalJSON(data []byte) error {
	if err := checkKind(data, KindTerminalOutputChunk, "data"); err != nil {
		return err
	}
	type plain TerminalOutputChunk
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return wrapDecode(err)
	}
	*c = TerminalOutputChunk(p)
	return nil
}

// checkKind checks that data is an object with a string "terminalId", the
// other required members present and not null, and, when "sessionUpdate" is
// present, that it equals kind.
func checkKind(data []byte, kind string, required ...string) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return decodeErrorf("%s: %v", kind, err)
	}
	if m == nil {
		return decodeErrorf("%s: got null, want an object", kind)
	}
	if k, ok := m["sessionUpdate"]; ok {
		var s string
		if err := json.Unmarshal(k, &s); err != nil || s != kind {
			return decodeErrorf(`%s: "sessionUpdate" is %s`, kind, k)
		}
	}
	var id *string
	if err := json.Unmarshal(m["terminalId"], &id); err != nil || id == nil {
		return decodeErrorf(`%s: "terminalId" must be a string`, kind)
	}
	for _, key := range required {
		if v, ok := m[key]; !ok || bytes.Equal(v, jsonNull) {
			return decodeErrorf("%s: %q is required", kind, key)
		}
	}
	return nil
}

// TerminalOutput is an authoritative replacement snapshot of a terminal's
// output bytes (ACP v2 schema: $defs/TerminalOutput): {"data": base64}.
type TerminalOutput struct {
	Data Base64Bytes `json:"data"`
	Meta ACPMeta     `json:"_meta,omitzero"`
}

// UnmarshalJSON requires "data".
func (o *TerminalOutput) UnmarshalJSON(data []byte) error {
	var raw struct {
		Data *Base64Bytes `json:"data"`
		Meta ACPMeta      `json:"_meta"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return wrapDecode(err)
	}
	if raw.Data == nil {
		return decodeErrorf(`output: "data" is required`)
	}
	*o = TerminalOutput{Data: *raw.Data, Meta: raw.Meta}
	return nil
}

// TerminalSize is a terminal's size in character cells (ACP v2 schema:
// $defs/TerminalSize): {"cols": 1..65535, "rows": 1..65535}, both required.
type TerminalSize struct {
	Cols uint16  `json:"cols"`
	Rows uint16  `json:"rows"`
	Meta ACPMeta `json:"_meta,omitzero"`
}

// UnmarshalJSON requires cols and rows, each at least 1 (the schema's minimum).
func (s *TerminalSize) UnmarshalJSON(data []byte) error {
	type plain TerminalSize
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return wrapDecode(err)
	}
	if p.Cols < 1 || p.Rows < 1 {
		return decodeErrorf("size: cols and rows are required and at least 1, got %dx%d", p.Cols, p.Rows)
	}
	*s = TerminalSize(p)
	return nil
}

// TerminalExitStatus is how a terminal's process ended (ACP v2 schema:
// $defs/TerminalExitStatus): {"exitCode": int64|null, "signal": string|null}.
// Its presence marks the terminal as exited even when neither is known.
// For both members omitted and null are equivalent, so they are pointers:
// nil is omitted when marshalled, and null decodes to nil.
type TerminalExitStatus struct {
	ExitCode *int64  `json:"exitCode,omitzero"`
	Signal   *string `json:"signal,omitzero"`
	Meta     ACPMeta `json:"_meta,omitzero"`
}

// ExitStatusCode returns the exit status of a process that exited with code.
func ExitStatusCode(code int64) TerminalExitStatus { return TerminalExitStatus{ExitCode: &code} }

// ExitStatusSignal returns the exit status of a process killed by signal,
// named as POSIX does ("SIGTERM", "SIGKILL", "SIGINT").
func ExitStatusSignal(signal string) TerminalExitStatus {
	return TerminalExitStatus{Signal: &signal}
}

// TerminalCapabilities are the client-initiated controls a terminal supports
// (ACP v2 schema: $defs/TerminalCapabilities). Cancel non-nil (marshalled as
// {} or an object) advertises terminal/cancel; nil (omitted or null) does not.
type TerminalCapabilities struct {
	Cancel *TerminalCancelCapabilities `json:"cancel,omitzero"`
	Meta   ACPMeta                     `json:"_meta,omitzero"`
}

// TerminalCancelCapabilities advertises terminal/cancel (ACP v2 schema:
// $defs/TerminalCancelCapabilities); it carries only optional metadata.
type TerminalCancelCapabilities struct {
	Meta ACPMeta `json:"_meta,omitzero"`
}

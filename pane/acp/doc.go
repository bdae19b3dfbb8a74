// Package acp holds the Agent Client Protocol v2 terminal types that
// panectl produces and consumes, and their patch semantics. It runs no
// tmux.
//
// `panectl watch PANE --format acp` (SPEC.md section 10) streams a pane as
// Agent Client Protocol v2 notifications, one JSON-RPC 2.0 object per line,
// each valid against the published ACP v2 JSON Schema (a copy is kept in
// testdata/acp-v2/schema.json; the conformance tests validate every
// notification this package marshals against it). The envelope is
//
//	{"jsonrpc":"2.0","method":"session/update",
//	 "params":{"sessionId":S,"update":{"sessionUpdate":KIND,...},"_meta":{...}}}
//
// where "params" is the schema's UpdateSessionNotification and the update is
// one of two SessionUpdate variants:
//
//   - terminal_update (TerminalUpdate): terminalId (required), command, cwd,
//     size {cols, rows}, output {data: base64}, exitStatus {exitCode, signal},
//     capabilities {cancel}, _meta. It is an upsert with patch semantics:
//     an omitted field leaves the stored value unchanged, null clears it, a
//     value replaces it whole. An output value is an authoritative snapshot
//     that replaces all stored output. _meta is the exception: null clears it,
//     but an object patches it by top-level key (omitted keys unchanged, a key
//     set to null removed, any other value replacing that key's value without
//     merging nested objects). For a terminal id not seen before, omitted
//     fields start unknown. A present exitStatus marks the terminal exited.
//   - terminal_output_chunk (TerminalOutputChunk): terminalId and data
//     (base64), appended to the stored output. Its _meta belongs to the chunk
//     and does not patch the terminal's metadata.
//
// Optional[T] carries the three states of a patch field (omitted, null,
// value) through encoding/json. Producers build notifications with
// NewACPNotification, NewTerminalUpdate (the first, full-state update),
// TerminalUpdate literals holding only the changed fields, and NewOutputChunk.
// Consumers decode lines with DecodeACPNotification and fold them into a
// TerminalState with Apply.
//
// Decoding is strict where the schema is lenient: a member of the wrong type
// (say "command": 5) is an error wrapping ErrACPDecode, whereas the schema
// marks the patch fields x-deserialize-default-on-error, which lets a reader
// fall back to the default (the field treated as omitted). Unknown members are
// ignored, and session updates of other kinds decode to UnknownSessionUpdate,
// raw payload kept, as the schema asks of receivers.
//
// These rules are taken from the schema's own descriptions of TerminalUpdate,
// TerminalUpdate._meta and TerminalOutputChunk in ACP schema release 2.4.0
// (protocol v2). The vendored schema.json carries no version string of its
// own, so the release is recorded here and in testdata/acp-v2. See also
// https://agentclientprotocol.com/protocol/v2/extensibility#metadata-patches.
package acp

package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
)

// ErrTerminalMismatch is wrapped by TerminalState.Apply when an update names
// a different terminal than the state tracks.
var ErrTerminalMismatch = errors.New("terminal id mismatch")

// ErrNotTerminalUpdate is wrapped by TerminalState.Apply for session updates
// that are neither terminal_update nor terminal_output_chunk.
var ErrNotTerminalUpdate = errors.New("not a terminal update")

// TerminalState is the consumer side of the ACP terminal bridge: what a client
// knows about one agent-owned terminal after applying every terminal_update
// and terminal_output_chunk for it, in order.
//
// A field that is nil is unknown: never reported, or cleared by a null. The
// zero TerminalState is an empty state that adopts the terminalId of the first
// update applied to it; NewTerminalState pins the id up front.
type TerminalState struct {
	TerminalID   string
	Command      *string
	Cwd          *string
	Size         *TerminalSize
	ExitStatus   *TerminalExitStatus // non-nil once the terminal has exited
	Capabilities *TerminalCapabilities
	// Output holds the decoded output bytes: the last snapshot followed by
	// every chunk since. nil means no snapshot and no bytes yet, or cleared by
	// "output": null; an empty snapshot gives a non-nil, empty slice.
	Output []byte
	// Meta is the stored "_meta": nil when none; values are compact JSON.
	Meta ACPMeta
}

// NewTerminalState returns an empty state for terminalID: updates for any
// other terminal are refused.
func NewTerminalState(terminalID string) *TerminalState {
	return &TerminalState{TerminalID: terminalID}
}

// Exited reports whether an exitStatus has been applied and not cleared.
func (s *TerminalState) Exited() bool { return s.ExitStatus != nil }

// Apply applies one session update to s, following the patch rules of the
// ACP v2 schema's TerminalUpdate and TerminalOutputChunk:
//
//   - terminal_update: each of command, cwd, size, output, exitStatus and
//     capabilities that is omitted leaves the stored value unchanged, null
//     clears it, and a value replaces it whole (nested objects such as size
//     are never merged). An output value is an authoritative snapshot: it
//     replaces all stored output bytes.
//   - terminal_update "_meta": omitted leaves the stored metadata unchanged,
//     null clears all of it, and an object patches it by top-level key: keys
//     it omits are unchanged, a key set to null is removed, and any other value
//     replaces that key's stored value without merging nested objects.
//   - terminal_output_chunk: its decoded bytes are appended to the stored
//     output. Its "_meta" is scoped to the chunk and is not stored.
//
// update may be a value or a pointer. An update for another terminal returns
// an error wrapping ErrTerminalMismatch, any other kind of session update one
// wrapping ErrNotTerminalUpdate; in both cases s is unchanged.
func (s *TerminalState) Apply(update SessionUpdate) error {
	switch u := update.(type) {
	case TerminalUpdate:
		return s.applyUpdate(&u)
	case *TerminalUpdate:
		if u == nil {
			return fmt.Errorf("pane: apply: %w: nil *TerminalUpdate", ErrNotTerminalUpdate)
		}
		return s.applyUpdate(u)
	case TerminalOutputChunk:
		return s.applyChunk(&u)
	case *TerminalOutputChunk:
		if u == nil {
			return fmt.Errorf("pane: apply: %w: nil *TerminalOutputChunk", ErrNotTerminalUpdate)
		}
		return s.applyChunk(u)
	case nil:
		return fmt.Errorf("pane: apply: %w: nil update", ErrNotTerminalUpdate)
	default:
		return fmt.Errorf("pane: apply: %w: %q", ErrNotTerminalUpdate, update.SessionUpdateKind())
	}
}

func (s *TerminalState) claim(terminalID string) error {
	if s.TerminalID == "" {
		s.TerminalID = terminalID
		return nil
	}
	if terminalID != s.TerminalID {
		return fmt.Errorf("pane: apply: %w: update for %q, state tracks %q", ErrTerminalMismatch, terminalID, s.TerminalID)
	}
	return nil
}

func (s *TerminalState) applyUpdate(u *TerminalUpdate) error {
	if err := s.claim(u.TerminalID); err != nil {
		return err
	}
	patchPtr(&s.Command, u.Command, func(v string) string { return v })
	patchPtr(&s.Cwd, u.Cwd, func(v string) string { return v })
	patchPtr(&s.Size, u.Size, cloneSize)
	patchPtr(&s.ExitStatus, u.ExitStatus, cloneExitStatus)
	patchPtr(&s.Capabilities, u.Capabilities, cloneCapabilities)
	switch {
	case u.Output.IsNull():
		s.Output = nil
	case u.Output.IsSet():
		o, _ := u.Output.Get()
		s.Output = append([]byte{}, o.Data...)
	}
	switch {
	case u.Meta.IsNull():
		s.Meta = nil
	case u.Meta.IsSet():
		patch, _ := u.Meta.Get()
		for k, v := range patch {
			if bytes.Equal(bytes.TrimSpace(v), jsonNull) {
				delete(s.Meta, k)
				continue
			}
			if s.Meta == nil {
				s.Meta = ACPMeta{}
			}
			s.Meta[k] = compactJSON(v)
		}
	}
	return nil
}

func (s *TerminalState) applyChunk(c *TerminalOutputChunk) error {
	if err := s.claim(c.TerminalID); err != nil {
		return err
	}
	s.Output = append(s.Output, c.Data...)
	return nil
}

// patchPtr applies one patch field to a stored pointer: undefined leaves it,
// null sets it to nil, a value replaces it with a fresh copy.
func patchPtr[T any](dst **T, p Optional[T], clone func(T) T) {
	switch {
	case p.IsNull():
		*dst = nil
	case p.IsSet():
		v, _ := p.Get()
		v = clone(v)
		*dst = &v
	}
}

// compactJSON returns a compact copy of raw JSON, or a plain copy if raw is
// not valid JSON (which decoding never produces).
func compactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return bytes.Clone(raw)
	}
	return b.Bytes()
}

func cloneMeta(m ACPMeta) ACPMeta {
	if m == nil {
		return nil
	}
	out := make(ACPMeta, len(m))
	for k, v := range maps.All(m) {
		out[k] = compactJSON(v)
	}
	return out
}

func cloneSize(v TerminalSize) TerminalSize {
	v.Meta = cloneMeta(v.Meta)
	return v
}

func cloneExitStatus(v TerminalExitStatus) TerminalExitStatus {
	if v.ExitCode != nil {
		c := *v.ExitCode
		v.ExitCode = &c
	}
	if v.Signal != nil {
		sig := *v.Signal
		v.Signal = &sig
	}
	v.Meta = cloneMeta(v.Meta)
	return v
}

func cloneCapabilities(v TerminalCapabilities) TerminalCapabilities {
	if v.Cancel != nil {
		c := TerminalCancelCapabilities{Meta: cloneMeta(v.Cancel.Meta)}
		v.Cancel = &c
	}
	v.Meta = cloneMeta(v.Meta)
	return v
}

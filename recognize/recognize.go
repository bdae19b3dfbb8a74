package recognize

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/panectl/panectl/schema"
)

// State is the turn state of the program in a pane (schema.State).
type State = schema.State

// The turn states (SPEC section 7).
const (
	// Busy: the program is working (spinner, "esc to interrupt", a
	// foreground command other than the shell).
	Busy = schema.StateBusy
	// AwaitingInput: the program waits for the next prompt or command.
	AwaitingInput = schema.StateAwaitingInput
	// AwaitingApproval: the program waits for a decision: a tool-call
	// permission prompt, a trust, sign-in, API-key or selection dialog, a
	// `[y/N]` question.
	AwaitingApproval = schema.StateAwaitingApproval
	// Unknown: nothing the recognizer knows was seen.
	Unknown = schema.StateUnknown
)

// AutoID is the recognizer id that picks a concrete recognizer per screen.
const AutoID = "auto"

// ErrUnknownRecognizer is wrapped by Resolve and Classify when the id is
// neither "auto", a recognizer id nor an alias.
var ErrUnknownRecognizer = errors.New("unknown recognizer")

// Screen is one look at a pane: what tmux reports through capture-pane and
// display-message (tmux(1) FORMATS: pane_title, pane_current_command,
// cursor_x, cursor_y, pane_width, pane_height, alternate_on).
type Screen struct {
	// Rows are the visible rows as displayed, ANSI stripped, trailing blank
	// rows trimmed (trailing blank rows are trimmed again here; harmless).
	Rows []string
	// Title is pane_title ("" when unknown).
	Title string
	// Command is pane_current_command ("" when unknown: command cues and
	// rule command conditions are then skipped).
	Command string
	// Args is the argv of the foreground process, optional (nil), used by
	// auto to look through node/bun wrappers.
	Args []string
	// CursorX and CursorY are the cursor cell, 0-based. A negative CursorY,
	// or a zero Height with the cursor at 0,0, means unknown: the cursor_line
	// region is then the last non-empty row.
	CursorX, CursorY int
	// Width and Height are the pane size in cells (0 when unknown).
	Width, Height int
	// AlternateOn is alternate_on: a full-screen program owns the screen.
	AlternateOn bool
	// Job is the name of the foreground job the pane's shell runs ("" when
	// the shell is at its prompt, the pane runs a program directly, or it
	// is not known): the terminal's foreground process group is not the
	// shell's own. It is the "job" region and decides Manifest.JobFallback.
	Job string
	// Shell is, for a live pane whose foreground program is an interactive
	// shell running no job, the verdict of its terminal mode and /proc
	// (shell.ShellTurn: "at prompt: REASON", "busy: REASON" or "not at
	// prompt: REASON"); "" for a saved screen, another program, or when
	// nothing tells. It is the "shell" region: a shell whose foreground
	// name alone says "at the prompt" may be running a loop of its own.
	Shell string
	// Process is, for a live pane whose foreground is not an interactive
	// shell (a program, a script, a shell's job), the kernel's verdict on
	// the terminal's foreground process group (proc.GroupTurn: "reads the
	// terminal: REASON" or "busy: REASON"); "" for a saved screen, for an
	// interactive shell (Shell speaks for it), or when nothing tells (a
	// wait in poll, no /proc). It is the "process" region and the rules'
	// process condition.
	Process string
}

// Evidence says why a state was chosen: the rule, the region it looked at and
// the row (or title, or command) that matched. For a fallback Rule, Region
// and Line are empty and LookedFor names the rules that were tried.
type Evidence struct {
	Rule      string   `json:"rule"`
	Region    string   `json:"region"`
	Line      string   `json:"line"`
	LookedFor []string `json:"looked_for,omitempty"`
}

// Result is one classification.
type Result struct {
	State      State    `json:"state"`
	Recognizer string   `json:"recognizer"`
	Evidence   Evidence `json:"evidence"`
	// NeedsQuiet is true when the state should be trusted only after the
	// screen has been unchanged for quiet_ms: every awaiting_input (an input
	// box stays visible while an agent works and a redraw can hide a spinner
	// for a frame), a rule marked weak, and a fallback state (no rule
	// matched). Approval and busy from strong rules can be acted on at once.
	NeedsQuiet bool `json:"needs_quiet"`
	// Options are the options of an awaiting_approval dialog (ReadDialog),
	// nil for other states or when none can be read.
	Options []Option `json:"options,omitempty"`
	// Note explains anything unusual, e.g. a rule skipped because its regex
	// timed out.
	Note string `json:"note,omitempty"`
}

//go:embed manifests/*.toml
var bundledFS embed.FS

// Set is a loaded collection of recognizers: the bundled manifests, with
// user manifests added or replacing bundled ones by id. A Set is read-only
// after Load and safe for concurrent use.
type Set struct {
	byID    map[string]*Manifest
	layers  map[string]*Manifest // Manifest.Layer ones, by id
	aliases map[string]string    // alias -> id
	ids     []string             // sorted, without "auto"
}

// UserDir returns the directory of user manifests,
// $XDG_CONFIG_HOME/panectl/recognizers (os.UserConfigDir), or "" when no
// configuration directory is known.
func UserDir() string {
	d, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "panectl", "recognizers")
}

// Load parses the bundled manifests and, when configDir is not empty, every
// *.toml file directly in configDir (a missing directory is not an error). A
// user manifest whose id is a bundled id replaces the bundled one. A manifest
// that cannot be parsed or validated is an error (*ManifestError) naming its
// file and line; it is never skipped. Nothing is parsed before Load is called.
func Load(configDir string) (*Set, error) {
	files := map[string][]byte{}
	var order []string
	entries, err := fs.ReadDir(bundledFS, "manifests")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		data, err := fs.ReadFile(bundledFS, path.Join("manifests", e.Name()))
		if err != nil {
			return nil, err
		}
		name := "bundled:" + e.Name()
		files[name] = data
		order = append(order, name)
	}
	s, err := newSet(order, files, nil)
	if err != nil {
		return nil, err
	}
	if configDir == "" {
		return s, nil
	}
	userEntries, err := os.ReadDir(configDir)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("recognizer manifests: %w", err)
	}
	var userOrder []string
	userFiles := map[string][]byte{}
	for _, e := range userEntries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		p := filepath.Join(configDir, e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("recognizer manifests: %w", err)
		}
		userFiles[p] = data
		userOrder = append(userOrder, p)
	}
	return newSet(userOrder, userFiles, s)
}

// newSet parses files (in order) on top of base (nil for none). Within one
// layer an id or alias may be defined only once; a later layer replaces ids
// of earlier layers.
func newSet(order []string, files map[string][]byte, base *Set) (*Set, error) {
	s := &Set{byID: map[string]*Manifest{}, layers: map[string]*Manifest{}, aliases: map[string]string{}}
	if base != nil {
		for id, m := range base.byID {
			s.byID[id] = m
		}
		for id, m := range base.layers {
			s.layers[id] = m
		}
	}
	layer := map[string]string{} // id or alias -> file, within this layer
	for _, name := range order {
		m, err := parseManifest(name, files[name])
		if err != nil {
			return nil, err
		}
		for _, n := range append([]string{m.ID}, m.Aliases...) {
			if prev, dup := layer[n]; dup {
				return nil, &ManifestError{File: name, Line: lineOfKey(files[name], "id", 0),
					Msg: fmt.Sprintf("recognizer name %q is already defined by %s", n, prev)}
			}
			layer[n] = name
		}
		if m.Layer {
			s.layers[m.ID] = m
			delete(s.byID, m.ID)
		} else {
			s.byID[m.ID] = m
			delete(s.layers, m.ID)
		}
	}
	for id, m := range s.byID {
		for _, a := range m.Aliases {
			if _, isID := s.byID[a]; isID {
				return nil, &ManifestError{File: m.file, Line: lineOfKey(files[m.file], "aliases", 0),
					Msg: fmt.Sprintf("alias %q is also a recognizer id", a)}
			}
			if other, dup := s.aliases[a]; dup && other != id {
				return nil, &ManifestError{File: m.file, Line: lineOfKey(files[m.file], "aliases", 0),
					Msg: fmt.Sprintf("alias %q is also an alias of %q", a, other)}
			}
			s.aliases[a] = id
		}
	}
	for id, m := range s.byID {
		s.ids = append(s.ids, id)
		if err := s.checkUse(m, files[m.file]); err != nil {
			return nil, err
		}
	}
	sort.Strings(s.ids)
	return s, nil
}

// checkUse makes sure every layer m uses is loaded and shares no rule id
// with m (evidence names a rule by id alone).
func (s *Set) checkUse(m *Manifest, data []byte) error {
	for _, name := range m.Use {
		l, ok := s.layers[name]
		if !ok {
			return &ManifestError{File: m.file, Line: lineOfKey(data, "use", 0),
				Msg: fmt.Sprintf("use names %q, which is not a loaded layer", name)}
		}
		for _, lr := range l.Rules {
			for i, r := range m.Rules {
				if r.ID == lr.ID {
					return &ManifestError{File: m.file, Line: lineOfTable(data, "rules", i),
						Msg: fmt.Sprintf("rule id %q is also a rule of layer %q", r.ID, name)}
				}
			}
		}
	}
	return nil
}

// IDs returns every recognizer id (bundled and user) and "auto", sorted.
// Aliases are not listed.
func (s *Set) IDs() []string {
	out := append([]string{AutoID}, s.ids...)
	sort.Strings(out)
	return out
}

// Manifest returns the manifest of a concrete id or alias, or nil.
func (s *Set) Manifest(id string) *Manifest {
	if a, ok := s.aliases[id]; ok {
		id = a
	}
	return s.byID[id]
}

// lookup maps an id or alias to its id, or returns an error wrapping
// ErrUnknownRecognizer that lists the valid ids.
func (s *Set) lookup(id string) (string, error) {
	if _, ok := s.byID[id]; ok {
		return id, nil
	}
	if a, ok := s.aliases[id]; ok {
		return a, nil
	}
	return "", fmt.Errorf("%w %q (valid: %s)", ErrUnknownRecognizer, id, strings.Join(s.IDs(), ", "))
}

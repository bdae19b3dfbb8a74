package recognize

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/pelletier/go-toml/v2"
)

// MatchTimeout bounds one regular-expression match against one row. A rule
// whose match times out is treated as not matching for the rest of that
// Classify call (and Result.Note says so), so a catastrophic pattern in a user
// manifest costs at most MatchTimeout per rule and never hangs a wait.
const MatchTimeout = 50 * time.Millisecond

// Manifest is one recognizer as read from its TOML file. See the package
// documentation for the file format.
type Manifest struct {
	// ID names the recognizer (`--recognizer ID`); lower case, unique in a Set.
	ID string `toml:"id"`
	// Name is a human-readable name (e.g. "Claude Code").
	Name string `toml:"name"`
	// Aliases are other names accepted for ID (antigravity: "agy").
	Aliases []string `toml:"aliases"`
	// Processes are pane_current_command values of the program, also matched
	// against the argv entries (and their path segments, extension removed)
	// behind a wrapper such as node or bun.
	Processes []string `toml:"processes"`
	// ProcessPatterns match pane_current_command values that are not fixed
	// names, such as Claude's version-string process name ("2.1.197").
	ProcessPatterns []Pattern `toml:"process_patterns"`
	// Wrapper marks a program that often hosts other programs (node, python):
	// auto picks this recognizer from the process name only after argv, title
	// and screen signatures found no other.
	Wrapper bool `toml:"wrapper"`
	// LateCues marks screen cues that look like much else (shell prompts,
	// REPL prompts): auto tries them only after every other recognizer's
	// screen cues found nothing, and only on the bottom 3 non-empty rows.
	// Wrapper implies LateCues.
	LateCues bool `toml:"late_cues"`
	// TitleCues are patterns of pane_title that identify the program for auto.
	TitleCues []Pattern `toml:"title_cues"`
	// ScreenCues are patterns of screen rows that identify the program for auto.
	ScreenCues []Pattern `toml:"screen_cues"`
	// InputMarker, when set, is the pattern of the input box's first row (for
	// programs whose input box is not framed by horizontal rules, e.g. Codex's
	// `› ` composer). The last matching row is taken.
	InputMarker *Pattern `toml:"input_marker"`
	// EchoPrefixes are what the program prints before a submitted message
	// in its transcript (Codex "› ", Claude "❯ "). A wait discounts such a
	// line as the echo of typed text. At most MaxEchoPrefixes, each of
	// 1 to MaxEchoPrefixLen bytes.
	EchoPrefixes []string `toml:"echo_prefixes"`
	// Fallback is the state reported when no rule matches; "unknown" when
	// empty. A fallback state always has NeedsQuiet set.
	Fallback State `toml:"fallback"`
	// JobFallback, when set, is the state reported instead of Fallback when
	// no rule matches and the pane's shell runs a foreground job
	// (Screen.Job): a shell that handed the terminal to a program nobody
	// recognizes is busy running it.
	JobFallback State `toml:"job_fallback"`
	// Layer marks a manifest that is not a recognizer but a set of rules
	// shared by others (the bundled "dialogs": option lists, select and
	// confirm footers, trust and sign-in screens, pickers). A layer has no
	// process names or cues; it is never picked by auto nor named by
	// --recognizer.
	Layer bool `toml:"layer"`
	// Use names the layers whose rules are tried before this manifest's own
	// rules, state by state (a layer's approval rules before the manifest's
	// approval rules, and so on).
	Use []string `toml:"use"`
	// Rules are tried in state order (approval, busy, unknown, input) and,
	// within a state, in the order written.
	Rules []Rule `toml:"rules"`

	file string // where the manifest came from ("bundled:claude.toml" or a path)
}

// Rule is one screen, title or process cue of a recognizer.
type Rule struct {
	// ID names the rule in evidence; unique within its manifest.
	ID string `toml:"id"`
	// State is what a match means.
	State State `toml:"state"`
	// Region is where Regex is tried (see the package documentation).
	Region Region `toml:"region"`
	// Regex is a regexp2 pattern tried against each row of the region,
	// bottom row first; the first matching row is the evidence.
	Regex Pattern `toml:"regex"`
	// Command, when set, must also match pane_current_command. It is ignored
	// when the command is not known (empty), e.g. for a saved screen.
	Command *Pattern `toml:"command"`
	// Process, when set, must also match the kernel's verdict on the
	// foreground (Screen.Process). It is ignored when there is none.
	Process *Pattern `toml:"process"`
	// Also, when set, must match another row of the same region: a cue
	// that counts only in company (a highlighted option "❯ 1. Yes" only
	// when another numbered option is there too).
	Also *Pattern `toml:"also"`
	// Weak marks a cue that only hints at the state: the result has
	// NeedsQuiet set, so a waiter trusts it only once the screen is quiet.
	Weak bool `toml:"weak"`
	// Note, when set, is put in Result.Note when the rule matches: what a
	// caller must know about the state (a "Press Ctrl-C again to exit"
	// prompt exits on the next Ctrl-C).
	Note string `toml:"note"`
}

// Pattern is a compiled regexp2 pattern that decodes from a TOML string. Its
// match timeout is MatchTimeout.
type Pattern struct {
	re *regexp2.Regexp
}

// UnmarshalText compiles text as a regexp2 pattern (default options: .NET
// syntax with lookaround and backreferences; use (?i) for case folding).
func (p *Pattern) UnmarshalText(text []byte) error {
	re, err := compilePattern(string(text))
	if err != nil {
		return err
	}
	p.re = re
	return nil
}

// String returns the pattern's source.
func (p *Pattern) String() string {
	if p == nil || p.re == nil {
		return ""
	}
	return p.re.String()
}

func compilePattern(s string) (*regexp2.Regexp, error) {
	re, err := regexp2.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("invalid regex %q: %v", s, err)
	}
	re.MatchTimeout = MatchTimeout
	return re, nil
}

// errMatchTimeout reports a match that ran past MatchTimeout.
var errMatchTimeout = errors.New("regex match timed out")

// match reports whether p matches s. A timeout is reported as
// errMatchTimeout; a nil pattern never matches.
func (p *Pattern) match(s string) (bool, error) {
	if p == nil || p.re == nil {
		return false, nil
	}
	ok, err := p.re.MatchString(s)
	if err != nil {
		return false, errMatchTimeout
	}
	return ok, nil
}

// validState reports whether s is one of the four states.
func validState(s State) bool {
	switch s {
	case Busy, AwaitingInput, AwaitingApproval, Unknown:
		return true
	}
	return false
}

const stateNames = "busy, awaiting_input, awaiting_approval or unknown"

// RegionKind is the kind of a Region.
type RegionKind string

// Region kinds. See the package documentation for what each one selects.
const (
	RegionScreen        RegionKind = "screen"
	RegionBottom        RegionKind = "bottom"
	RegionAfterLastRule RegionKind = "after_last_rule"
	RegionInputBox      RegionKind = "input_box"
	RegionAboveInputBox RegionKind = "above_input_box"
	RegionTitle         RegionKind = "title"
	RegionCommand       RegionKind = "command"
	RegionCursorLine    RegionKind = "cursor_line"
	RegionJob           RegionKind = "job"
	RegionShell         RegionKind = "shell"
	RegionProcess       RegionKind = "process"
)

// maxRegionRows bounds the N of `bottom:N` and `above_input_box:N`.
const maxRegionRows = 1000

// Region names the part of a Screen a rule looks at, e.g. "bottom:8".
type Region struct {
	Kind RegionKind
	N    int // rows, for bottom and above_input_box
}

// String returns the region as written in a manifest.
func (r Region) String() string {
	if r.Kind == RegionBottom || r.Kind == RegionAboveInputBox {
		return string(r.Kind) + ":" + strconv.Itoa(r.N)
	}
	return string(r.Kind)
}

// UnmarshalText parses a region name.
func (r *Region) UnmarshalText(text []byte) error {
	name, arg, hasArg := strings.Cut(string(text), ":")
	kind := RegionKind(name)
	switch kind {
	case RegionBottom, RegionAboveInputBox:
		if !hasArg {
			return fmt.Errorf("region %q needs a row count, e.g. %s:8", text, name)
		}
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > maxRegionRows {
			return fmt.Errorf("region %q: row count must be 1..%d", text, maxRegionRows)
		}
		*r = Region{Kind: kind, N: n}
		return nil
	case RegionScreen, RegionAfterLastRule, RegionInputBox, RegionTitle, RegionCommand, RegionCursorLine, RegionJob, RegionShell, RegionProcess:
		if hasArg {
			return fmt.Errorf("region %q takes no row count", text)
		}
		*r = Region{Kind: kind}
		return nil
	}
	return fmt.Errorf("unknown region %q (want screen, bottom:N, after_last_rule, input_box, above_input_box:N, title, command, cursor_line, job, shell or process)", text)
}

// ManifestError is a manifest that could not be used: its file, the 1-based
// line (0 when the problem is not tied to one line) and what is wrong.
type ManifestError struct {
	File string
	Line int
	Msg  string
}

// Error names the manifest file, the line when known, and the problem.
func (e *ManifestError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("recognizer manifest %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("recognizer manifest %s: %s", e.File, e.Msg)
}

// parseManifest decodes and validates one manifest file.
func parseManifest(file string, data []byte) (*Manifest, error) {
	var m Manifest
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		var de *toml.DecodeError
		var se *toml.StrictMissingError
		switch {
		case errors.As(err, &se) && len(se.Errors) > 0:
			line, _ := se.Errors[0].Position()
			return nil, &ManifestError{File: file, Line: line, Msg: "unknown field " + strings.Join(se.Errors[0].Key(), ".")}
		case errors.As(err, &de):
			line, _ := de.Position()
			return nil, &ManifestError{File: file, Line: line, Msg: strings.TrimPrefix(de.Error(), "toml: ")}
		}
		return nil, &ManifestError{File: file, Msg: err.Error()}
	}
	m.file = file
	if err := m.validate(data); err != nil {
		return nil, err
	}
	return &m, nil
}

// MaxEchoPrefixes and MaxEchoPrefixLen bound Manifest.EchoPrefixes.
const (
	MaxEchoPrefixes  = 8
	MaxEchoPrefixLen = 32
)

// validate checks what the decoder cannot: required fields and uniqueness.
func (m *Manifest) validate(data []byte) error {
	fail := func(line int, format string, args ...any) error {
		return &ManifestError{File: m.file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if !validID(m.ID) {
		return fail(lineOfKey(data, "id", 0), "id %q must be lower-case letters, digits, '-' or '_'", m.ID)
	}
	if m.ID == AutoID {
		return fail(lineOfKey(data, "id", 0), "id %q is reserved", AutoID)
	}
	for _, a := range m.Aliases {
		if !validID(a) || a == AutoID {
			return fail(lineOfKey(data, "aliases", 0), "alias %q is not a valid recognizer name", a)
		}
	}
	if m.Fallback == "" {
		m.Fallback = Unknown
	}
	if !validState(m.Fallback) {
		return fail(lineOfKey(data, "fallback", 0), "unknown fallback state %q (want %s)", m.Fallback, stateNames)
	}
	if m.JobFallback != "" && !validState(m.JobFallback) {
		return fail(lineOfKey(data, "job_fallback", 0), "unknown job_fallback state %q (want %s)", m.JobFallback, stateNames)
	}
	if m.Layer && (len(m.Processes) > 0 || len(m.ProcessPatterns) > 0 || len(m.TitleCues) > 0 || len(m.ScreenCues) > 0 ||
		len(m.Aliases) > 0 || len(m.Use) > 0 || m.InputMarker != nil || len(m.EchoPrefixes) > 0) {
		return fail(lineOfKey(data, "layer", 0), "a layer holds rules only: no processes, cues, aliases, use, input_marker or echo_prefixes")
	}
	if msg := m.checkEchoPrefixes(); msg != "" {
		return fail(lineOfKey(data, "echo_prefixes", 0), "%s", msg)
	}
	seen := map[string]bool{}
	for i := range m.Rules {
		r := &m.Rules[i]
		line := lineOfTable(data, "rules", i)
		switch {
		case r.ID == "":
			return fail(line, "rule %d has no id", i+1)
		case seen[r.ID]:
			return fail(line, "rule id %q is used twice", r.ID)
		case r.State == "":
			return fail(line, "rule %q has no state", r.ID)
		case !validState(r.State):
			return fail(lineInTable(data, "rules", i, "state"), "rule %q: unknown state %q (want %s)", r.ID, r.State, stateNames)
		case r.Region.Kind == "":
			return fail(line, "rule %q has no region", r.ID)
		case r.Regex.re == nil:
			return fail(line, "rule %q has no regex", r.ID)
		}
		seen[r.ID] = true
	}
	return nil
}

// checkEchoPrefixes says what is wrong with EchoPrefixes, "" if nothing.
func (m *Manifest) checkEchoPrefixes() string {
	if len(m.EchoPrefixes) > MaxEchoPrefixes {
		return fmt.Sprintf("at most %d echo_prefixes", MaxEchoPrefixes)
	}
	for _, p := range m.EchoPrefixes {
		if p == "" || len(p) > MaxEchoPrefixLen || strings.ContainsAny(p, "\r\n") {
			return fmt.Sprintf("echo prefix %q must be 1 to %d bytes on one line", p, MaxEchoPrefixLen)
		}
	}
	return ""
}

func validID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// lineOfTable returns the 1-based line of the n-th (0-based) `[[name]]`
// header in data, or 0.
func lineOfTable(data []byte, name string, n int) int {
	header := "[[" + name + "]]"
	for i, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == header {
			if n == 0 {
				return i + 1
			}
			n--
		}
	}
	return 0
}

// lineInTable returns the 1-based line of `key =` inside the n-th `[[name]]`
// table of data, or the table's header line when the key is not there.
func lineInTable(data []byte, name string, n int, key string) int {
	start := lineOfTable(data, name, n)
	if start == 0 {
		return 0
	}
	lines := strings.Split(string(data), "\n")
	for i := start; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, "[") {
			break
		}
		if k, _, ok := strings.Cut(t, "="); ok && strings.TrimSpace(k) == key {
			return i + 1
		}
	}
	return start
}

// lineOfKey returns the 1-based line of the n-th top-level `key =` in data, or 0.
func lineOfKey(data []byte, key string, n int) int {
	for i, l := range strings.Split(string(data), "\n") {
		k, _, ok := strings.Cut(l, "=")
		if ok && strings.TrimSpace(k) == key {
			if n == 0 {
				return i + 1
			}
			n--
		}
	}
	return 0
}

package recognize

import (
	"fmt"
	"path/filepath"
	"strings"
)

// stateOrder is the order in which rules are tried: approval first (a dialog
// is static and often keeps a spinner running), then busy (input boxes stay
// visible while agents work), then unknown (vetoes input: transcript views,
// own menus), then input.
var stateOrder = [...]State{AwaitingApproval, Busy, Unknown, AwaitingInput}

// Classify looks at scr once with recognizer id ("auto", an id or an alias)
// and returns the state with its evidence. The error wraps
// ErrUnknownRecognizer for an unknown id; a rule whose regex times out is
// skipped (Result.Note says which) rather than failing the call.
func (s *Set) Classify(id string, scr Screen) (Result, error) {
	rid, err := s.Resolve(id, scr)
	if err != nil {
		return Result{}, err
	}
	m := s.byID[rid]
	var layers []*Manifest
	for _, name := range m.Use {
		layers = append(layers, s.layers[name])
	}
	r := classify(m, layers, scr)
	if r.State == AwaitingApproval {
		r.Options = ReadDialog(scr).Options
	}
	return r, nil
}

// classify tries, state by state (stateOrder), the rules of each layer and
// then m's own rules, and returns the first match; else m's fallback (or
// job fallback), with a note naming the rules that were looked for.
func classify(m *Manifest, layers []*Manifest, scr Screen) Result {
	v := newView(scr)
	var notes []string
	addNote := func(n string) {
		if n != "" {
			notes = append(notes, n)
		}
	}
	var tried []string
	// Dialogs count only in the live region: an idle composer at the
	// bottom means none is shown (SPEC section 7: never the transcript).
	live := v.liveDialogRows(m, layers)
	for _, st := range stateOrder {
		for _, owner := range append(layers, m) {
			for i := range owner.Rules {
				r := &owner.Rules[i]
				if r.State != st {
					continue
				}
				if ok, note := conditionsHold(r, scr); !ok {
					addNote(note)
					continue
				}
				tried = append(tried, r.ID)
				var rows func(int) bool
				if st == AwaitingApproval {
					rows = live
				}
				lines, note := v.region(r.Region, m, rows)
				addNote(note)
				line, ok, err := matchRule(r, lines)
				if err != nil {
					addNote(fmt.Sprintf("rule %s skipped: regex timed out", r.ID))
					continue
				}
				if ok {
					if r.Note != "" {
						notes = append([]string{r.Note}, notes...)
					}
					return Result{
						State:      r.State,
						Recognizer: m.ID,
						Evidence:   Evidence{Rule: r.ID, Region: r.Region.String(), Line: line},
						NeedsQuiet: r.Weak || r.State == AwaitingInput,
						Note:       strings.Join(notes, "; "),
					}
				}
			}
		}
	}
	if m.JobFallback != "" && scr.Job != "" {
		return Result{
			State:      m.JobFallback,
			Recognizer: m.ID,
			Evidence:   Evidence{Rule: m.ID + "-job", Region: string(RegionJob), Line: scr.Job},
			NeedsQuiet: m.JobFallback == AwaitingInput,
			Note:       strings.Join(append(notes, "no rule matched; the shell runs a foreground job"), "; "),
		}
	}
	return Result{
		State:      m.Fallback,
		Recognizer: m.ID,
		Evidence:   Evidence{LookedFor: tried},
		NeedsQuiet: true,
		Note:       strings.Join(append(notes, "no rule matched: fallback state"), "; "),
	}
}

// conditionsHold reports whether r's command and process conditions hold
// on scr; one whose value is unknown ("") holds. A condition whose regex
// timed out does not hold, and the note says so.
func conditionsHold(r *Rule, scr Screen) (bool, string) {
	for _, c := range []struct {
		name  string
		p     *Pattern
		value string
	}{{"command", r.Command, scr.Command}, {"process", r.Process, scr.Process}} {
		if c.p == nil || c.value == "" {
			continue
		}
		ok, err := c.p.match(c.value)
		if err != nil {
			return false, fmt.Sprintf("rule %s skipped: %s regex timed out", r.ID, c.name)
		}
		if !ok {
			return false, ""
		}
	}
	return true, ""
}

// matchRule returns the first line (bottom first) that r.Regex matches, when
// r.Also (if set) matches another line of the same region.
func matchRule(r *Rule, lines []string) (string, bool, error) {
	for i, line := range lines {
		ok, err := r.Regex.match(line)
		if err != nil {
			return "", false, err
		}
		if !ok {
			continue
		}
		if r.Also == nil {
			return line, true, nil
		}
		for j, other := range lines {
			if j == i {
				continue
			}
			ok, err := r.Also.match(other)
			if err != nil {
				return "", false, err
			}
			if ok {
				return line, true, nil
			}
		}
	}
	return "", false, nil
}

// isWrapperCommand reports whether cmd is a process name of a wrapper
// manifest (node, bun, python): a program that hosts other programs, whose
// argv, title and screen are consulted before the wrapper itself is chosen.
func isWrapperCommand(s *Set, cmd string) bool {
	for _, id := range s.ids {
		m := s.byID[id]
		if m.Wrapper && contains(m.Processes, cmd) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// commandName normalises pane_current_command: the base name, without the
// leading '-' of a login shell.
func commandName(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	cmd = strings.TrimPrefix(cmd, "-")
	if cmd == "" {
		return ""
	}
	return filepath.Base(cmd)
}

// argNames returns the names an argv entry may reveal: its path segments,
// each also without its extension (".../@openai/codex/bin/codex.js" gives
// "codex.js", "codex", "bin", ...), last segment first.
func argNames(arg string) []string {
	var out []string
	segs := strings.Split(arg, "/")
	for i := len(segs) - 1; i >= 0; i-- {
		seg := segs[i]
		if seg == "" {
			continue
		}
		out = append(out, seg)
		if ext := filepath.Ext(seg); ext != "" && ext != seg {
			out = append(out, strings.TrimSuffix(seg, ext))
		}
	}
	return out
}

// Resolve maps a recognizer name to a concrete id. An id is returned as is,
// an alias as its id. "auto" picks, in this order:
//  1. a recognizer whose process names or patterns match pane_current_command
//     (shells included: a shell in the foreground means no program is running),
//     unless the command is a wrapper such as node or python;
//  2. a recognizer named by the argv (Screen.Args) of the foreground process,
//     looking through node/bun wrappers at script paths;
//  3. a title cue;
//  4. a screen cue (the recognizer matching lowest on the screen wins); late
//     cues (shell and REPL prompts, see Manifest.LateCues) only after all
//     others found nothing, and only on the bottom 3 non-empty rows;
//  5. the wrapper recognizer owning the command (node, python);
//  6. "generic".
//
// An unknown name gives an error wrapping ErrUnknownRecognizer that lists the
// valid ids.
func (s *Set) Resolve(id string, scr Screen) (string, error) {
	if id != AutoID {
		return s.lookup(id)
	}
	cmd := commandName(scr.Command)
	wrapped := isWrapperCommand(s, cmd)
	if cmd != "" && !wrapped {
		if id := s.byProcess(cmd); id != "" {
			return id, nil
		}
	}
	if id := s.byArgs(scr.Args, cmd); id != "" {
		return id, nil
	}
	if scr.Title != "" {
		if id := s.byTitle(scr.Title); id != "" {
			return id, nil
		}
	}
	if id := s.byScreen(scr); id != "" {
		return id, nil
	}
	if wrapped {
		if id := s.byWrapper(cmd); id != "" {
			return id, nil
		}
	}
	if _, ok := s.byID["generic"]; ok {
		return "generic", nil
	}
	return "", fmt.Errorf("%w: auto found no recognizer and no generic manifest is loaded", ErrUnknownRecognizer)
}

// byProcess is Resolve's step 1: the foreground process by name. It
// returns "" when no recognizer other than a wrapper claims cmd.
func (s *Set) byProcess(cmd string) string {
	for _, id := range s.ids {
		m := s.byID[id]
		if m.Wrapper {
			continue
		}
		if contains(m.Processes, cmd) {
			return id
		}
		for i := range m.ProcessPatterns {
			if ok, _ := m.ProcessPatterns[i].match(cmd); ok {
				return id
			}
		}
	}
	return ""
}

// byArgs is Resolve's step 2: a recognizer named by the argv behind a
// wrapper. Options and argv[0] when it is cmd itself are skipped.
func (s *Set) byArgs(args []string, cmd string) string {
	for i, arg := range args {
		if i == 0 && commandName(arg) == cmd {
			continue
		}
		if strings.HasPrefix(arg, "-") {
			continue
		}
		for _, name := range argNames(arg) {
			for _, id := range s.ids {
				m := s.byID[id]
				if !m.Wrapper && contains(m.Processes, name) {
					return id
				}
			}
		}
	}
	return ""
}

// byTitle is Resolve's step 3: the first recognizer with a title cue
// that matches.
func (s *Set) byTitle(title string) string {
	for _, id := range s.ids {
		if matchAny(s.byID[id].TitleCues, title) {
			return id
		}
	}
	return ""
}

// byScreen is Resolve's step 4: screen cues, where the lowest matching row
// wins. Late cues (shell and REPL prompts) count only after all others, and
// only near the bottom.
func (s *Set) byScreen(scr Screen) string {
	v := newView(scr)
	for _, late := range []bool{false, true} {
		rows := v.lastNonEmpty(len(v.rows), len(v.rows))
		if late {
			rows = v.lastNonEmpty(len(v.rows), 3)
		}
		if best := s.lowestCue(v, rows, late); best != "" {
			return best
		}
	}
	return ""
}

// lowestCue is the recognizer whose screen cue matches lowest on rows
// (bottom first). Only recognizers whose cues are late, or not, count.
func (s *Set) lowestCue(v *view, rows []int, late bool) string {
	best, bestRow := "", -1
	for _, id := range s.ids {
		m := s.byID[id]
		if (m.Wrapper || m.LateCues) != late {
			continue
		}
		for _, row := range rows { // bottom first
			if row <= bestRow {
				break
			}
			if matchAny(m.ScreenCues, v.text[row]) {
				best, bestRow = id, row
				break
			}
		}
	}
	return best
}

// byWrapper is Resolve's step 5: the wrapper recognizer that owns cmd,
// such as node or python.
func (s *Set) byWrapper(cmd string) string {
	for _, id := range s.ids {
		m := s.byID[id]
		if m.Wrapper && contains(m.Processes, cmd) {
			return id
		}
	}
	return ""
}

func matchAny(ps []Pattern, s string) bool {
	for i := range ps {
		if ok, _ := ps[i].match(s); ok {
			return true
		}
	}
	return false
}

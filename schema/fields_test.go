package schema

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

// jsonFields lists the JSON field names of a struct type, following
// embedded structs as encoding/json does.
func jsonFields(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			names = append(names, jsonFields(ft)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// frameFields is the completion frame (SPEC.md section 8).
const frameFields = "command compressed_tokens exit_code frame_type original_tokens output_preview output_truncated pane_id seconds session_id signal status task_id tokens_skipped"

func sortedFields(s string) []string {
	f := strings.Fields(s)
	sort.Strings(f)
	return f
}

// TestOutputFields pins every output's field set to the names SPEC.md gives
// (sections 3-8): fields may only ever be added, and only with the spec.
func TestOutputFields(t *testing.T) {
	want := map[string]string{
		"list_panes":    "note panes",
		"new_pane":      "command cursor cwd dead height journal pane_id pid session_id session_name title width window_id",
		"kill_pane":     "killed pane_id",
		"cursor":        "cursor pane_id",
		"send_text":     "bytes cursor note pane_id submitted",
		"send_specials": "bytes cursor note pane_id submitted",
		"send_ascii":    "bytes cursor note pane_id submitted",
		"capture":       "cursor lines_dropped note output pane_id reset truncated",
		"wait_for_text": "cursor effective_timeout lines_dropped matched matched_line note outcome output pane_id results seconds truncated",
		// sections 6-8
		"screen":            "alternate_on changed_rows cursor_x cursor_y first_row full height note pane_id rows scrolled stable title unchanged width",
		"status_check":      "changed cursor dead exit_status lines_dropped note output pane_id running_command truncated",
		"wait_for_quiet":    "effective_timeout note outcome pane_id quiet_ms results screen seconds",
		"recognize":         "evidence needs_quiet note options pane_id recognizer state",
		"wait_for_turn":     "effective_timeout evidence note outcome pane_id recognizer results screen seconds state",
		"answer":            "effective_timeout evidence note option options outcome pane_id recognizer screen seconds state",
		"run_shell_command": "attempts command cursor effective_timeout exit_code note outcome output pane_id seconds session_id status task_id truncated",
		"list_tasks":        "pruned pruned_servers tasks",
		"wait_task":         "%s effective_timeout outcome",
		"kill_task":         "%s pruned pruned_servers signals",
	}
	for _, tool := range Tools() {
		w, ok := want[tool.Name]
		if !ok {
			t.Errorf("%s: output fields not pinned here; add them with the spec", tool.Name)
			continue
		}
		if strings.HasPrefix(w, "%s ") { // a completion frame and more
			w = strings.Join(sortedFields(frameFields+w[2:]), " ")
		}
		got := strings.Join(jsonFields(reflect.TypeOf(tool.Output).Elem()), " ")
		if got != w {
			t.Errorf("%s output fields:\n got  %s\n want %s", tool.Name, got, w)
		}
	}
	if got := strings.Join(jsonFields(reflect.TypeOf(CompletionFrame{})), " "); got != frameFields {
		t.Errorf("completion frame fields: %s", got)
	}
	if got := strings.Join(jsonFields(reflect.TypeOf(Evidence{})), " "); got != "line looked_for region rule" {
		t.Errorf("evidence fields: %s", got)
	}
	if got := strings.Join(jsonFields(reflect.TypeOf(ChangedRow{})), " "); got != "row text" {
		t.Errorf("changed_rows fields: %s", got)
	}
	if got := strings.Join(jsonFields(reflect.TypeOf(PaneSummary{})), " "); got != "command cwd dead height pane_id pid session_id session_name title width window_id" {
		t.Errorf("list_panes pane fields: %s", got)
	}
}

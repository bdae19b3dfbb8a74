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
			names = append(names, jsonFields(f.Type)...)
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

// TestOutputFields pins every output's field set to the names SPEC.md gives
// (sections 3-6): fields may only ever be added, and only with the spec.
func TestOutputFields(t *testing.T) {
	want := map[string]string{
		"list_panes":    "panes",
		"new_pane":      "command cursor cwd dead height pane_id pid session_id session_name title width window_id",
		"kill_pane":     "killed pane_id",
		"cursor":        "cursor pane_id",
		"send_text":     "bytes cursor pane_id",
		"send_specials": "bytes cursor pane_id",
		"send_ascii":    "bytes cursor pane_id",
		"capture":       "cursor lines_dropped note output pane_id reset truncated",
		"wait_for_text": "cursor effective_timeout lines_dropped matched matched_line note outcome output pane_id seconds truncated",
	}
	for _, tool := range Tools() {
		w, ok := want[tool.Name]
		if !ok {
			continue // pinned by the file that adds the tool
		}
		got := strings.Join(jsonFields(reflect.TypeOf(tool.Output).Elem()), " ")
		if got != w {
			t.Errorf("%s output fields:\n got  %s\n want %s", tool.Name, got, w)
		}
	}
	if got := strings.Join(jsonFields(reflect.TypeOf(PaneSummary{})), " "); got != "command cwd dead height pane_id pid session_id session_name title width window_id" {
		t.Errorf("list_panes pane fields: %s", got)
	}
}

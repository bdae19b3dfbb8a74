package tmux

import (
	"reflect"
	"strings"
	"testing"
)

// TestNewPaneCommands pins the argv of the list that makes a pane. The
// want strings hold no argument with a space, so strings.Fields splits them.
func TestNewPaneCommands(t *testing.T) {
	hold := []Command{{"set-option", "-p", holdOption, "TOKEN"}, {"set-option", "-p", "remain-on-exit", "on"}}
	const rename = "rename-session -t =TMP #{s/^[$]//:session_id}"
	const saveLimit = "start-server ; set-option -gF @panectl-saved-history-limit #{history-limit} ; set-option -g history-limit 5000 ; "
	const restoreLimit = " ; set-option -gF history-limit #{@panectl-saved-history-limit} ; set-option -gu @panectl-saved-history-limit"
	for _, tc := range []struct {
		name string
		plan newPanePlan
		want string
	}{
		{"default shell", newPanePlan{},
			"new-session -d -P -F #{pane_id}"},
		{"command", newPanePlan{opts: NewOptions{Command: []string{"sh", "-c", "echo;"}}},
			`new-session -d -P -F #{pane_id} -- sh -c echo\;`},
		{"named, sized, cwd, env", newPanePlan{detachedSize: true, opts: NewOptions{SessionName: "a#b", Width: 80, Height: 24, CWD: "/tmp/#x", Env: []string{"K=V", "L=W"}}},
			"new-session -d -P -F #{pane_id} -s a##b -x 80 -y 24 -c /tmp/##x -e K=V -e L=W"},
		{"size without featDetachedSize", newPanePlan{tmpName: "TMP", opts: NewOptions{Width: 80}},
			"new-session -d -s TMP -P -F #{pane_id} -x 80 ; resize-window -t =TMP: -x 80 ; " + rename},
		{"named session with then", newPanePlan{detachedSize: true, opts: NewOptions{SessionName: "job", Height: 10, Then: Command{"pipe-pane", "-o", "cat"}}},
			"new-session -d -P -F #{pane_id} -s job -y 10 ; pipe-pane -t =job: -o cat"},
		{"hold on an unnamed session", newPanePlan{hold: hold, tmpName: "TMP", opts: NewOptions{Command: []string{"cat"}}},
			"new-session -d -s TMP -P -F #{pane_id} -- cat ; set-option -t =TMP: -p @panectl-new-hold TOKEN ; set-option -t =TMP: -p remain-on-exit on ; " + rename},
		{"window", newPanePlan{opts: NewOptions{WindowIn: "=work", Width: 80, CWD: "/w"}},
			"new-window -d -P -F #{pane_id} -t =work: -c /w"},
		{"window with then", newPanePlan{window: 3, opts: NewOptions{WindowIn: "work", Then: Command{"pipe-pane", "-o", "cat"}}},
			"new-window -d -P -F #{pane_id} -t =work:3 ; pipe-pane -t =work:3 -o cat"},
		{"history-limit set globally around", newPanePlan{opts: NewOptions{SessionName: "job", HistoryLimit: 5000}},
			saveLimit + "new-session -d -P -F #{pane_id} -s job" + restoreLimit},
		{"history-limit around a window with then", newPanePlan{window: 0, opts: NewOptions{WindowIn: "$1", HistoryLimit: 5000, Then: Command{"pipe-pane", "-o", "cat"}}},
			saveLimit + "new-window -d -P -F #{pane_id} -t =$1:0 ; pipe-pane -t =$1:0 -o cat" + restoreLimit},
		{"history-limit of the session's own", newPanePlan{liveLimit: true, detachedSize: true, opts: NewOptions{SessionName: "job", HistoryLimit: 5000}},
			"new-session -d -P -F #{pane_id} -s job ; set-option -t =job: history-limit 5000"},
		{"history-limit of the window's session", newPanePlan{liveLimit: true, opts: NewOptions{WindowIn: "job", HistoryLimit: 5000}},
			"new-window -d -P -F #{pane_id} -t =job:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := newPaneCommands(tc.plan).argv()
			if want := strings.Fields(tc.want); !reflect.DeepEqual(got, want) {
				t.Errorf("newPaneCommands:\n got %q\nwant %q", got, want)
			}
		})
	}
}

package tmux

import "testing"

// The control client runs reads, and writes of panectl's own pane options
// in exactly the shapes panectl uses; nothing else (no other option, no
// typing, no command strings).
func TestOwnOptionWrite(t *testing.T) {
	ok := [][]string{
		{"set-option", "-p", "-t", "%3", "@panectl_echo_ab12", "eyJ0IjoiZWNobyJ9"},
		{"set-option", "-p", "-u", "-t", "%3", "@panectl_lock"},
		{"set-option", "-p", "-t", "%3", "-F", "@panectl_lock", casFormat("@panectl_lock", "", "run.1.2.ab.99")},
		{"set-option", "-p", "-t", "%3", "-F", "@panectl_lock", casFormat("@panectl_lock", "run.1.2.ab.99", "")},
		{"set-option", "-p", "-F", "-t", "%3", "@panectl_cursors", "#{=-65536:@panectl_cursors}.pc1HAC_lgEA-x"},
	}
	for _, c := range ok {
		if !ownOptionWrite(c) {
			t.Errorf("refused %q", c)
		}
		if _, err := commandLine([][]string{c}); err != nil {
			t.Errorf("commandLine(%q): %v", c, err)
		}
	}
	bad := [][]string{
		{"set-option", "-p", "-t", "%3", "remain-on-exit", "on"},                                  // not ours
		{"set-option", "-g", "-t", "%3", "@panectl_lock", "x"},                                    // not a pane option
		{"set-option", "-p", "-t", "%3", "@panectl_lock", "a b"},                                  // not a plain token
		{"set-option", "-p", "-t", "%3", "@panectl_lock", "x;"},                                   // a separator
		{"set-option", "-p", "-t", "%3", "-F", "@panectl_lock", "#(rm -rf /)"},                    // a format that runs a shell
		{"set-option", "-p", "-t", "%3", "-F", "@panectl_lock", casFormat("@panectl_x", "", "y")}, // another option's value
		{"set-option", "-p", "-t", "%3", "-F", "@panectl_lock", casFormat("@panectl_lock", "#(id)", "y")},
		{"set-option", "-p", "-t", "main", "@panectl_lock", "x"}, // not a pane id
		{"if-shell", "-F", "-t", "%3", "1", "send-keys -t %3 x"},
		{"send-keys", "-t", "%3", "x"},
		{"set-option", "-p", "-t", "%3", "@panectl_lock"},
		{"set-option", "-p", "-F", "-t", "%3", "@panectl_cursors", "#{=-65536:@panectl_cursors}.#(id)"},  // a record that runs a shell
		{"set-option", "-p", "-F", "-t", "%3", "@panectl_cursors", "#{=-65536:@panectl_lock}.pc1x"},      // another option's value
		{"set-option", "-p", "-F", "-t", "%3", "@panectl_cursors", "#{=-1e9:@panectl_cursors}.pc1x"},     // not a count
		{"set-option", "-p", "-F", "-t", "%3", "@panectl_cursors", "#{=-65536:@panectl_cursors}.a}#{x}"}, // a format after it
	}
	for _, c := range bad {
		if ownOptionWrite(c) {
			t.Errorf("accepted %q", c)
		}
		if _, err := commandLine([][]string{c}); err == nil {
			t.Errorf("commandLine accepted %q", c)
		}
	}
}

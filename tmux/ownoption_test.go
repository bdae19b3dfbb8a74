package tmux

import "testing"

// The control client runs reads, and writes of panectl's own pane options
// in exactly the shapes panectl uses; nothing else (no other option, no
// command strings). Typing has shapes of its own (TestTypingCommand).
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

// Typing goes through the control client in the shapes SendTextOptions
// uses, each naming one pane and a buffer of panectl's; nothing else.
func TestTypingCommand(t *testing.T) {
	ok := [][]string{
		{"set-buffer", "-b", "panectl-0123456789abcdef", "--", "any 'text'\n; #{x}"},
		{"paste-buffer", "-d", "-b", "panectl-0123456789abcdef", "-t", "%3"},
		{"paste-buffer", "-d", "-b", "panectl-0123456789abcdef", "-t", "%3", "-p"},
		{"paste-buffer", "-d", "-b", "panectl-0123456789abcdef", "-t", "%3", "-p", "-S"},
		{"paste-buffer", "-d", "-b", "panectl-0123456789abcdef", "-t", "%3", "-S"},
		{"send-keys", "-l", "-t", "%3", "--", "ls -l; rm x"},
		{"send-keys", "-t", "%3", "Enter"},
	}
	for _, c := range ok {
		if !typingCommand(c) {
			t.Errorf("refused %q", c)
		}
		if _, err := commandLine([][]string{c}); err != nil {
			t.Errorf("commandLine(%q): %v", c, err)
		}
	}
	bad := [][]string{
		{"set-buffer", "-b", "panectl-0123456789abcdef", "text"},          // no --: text could be a flag
		{"set-buffer", "-b", "mybuffer", "--", "x"},                       // not panectl's buffer
		{"set-buffer", "-a", "-b", "panectl-0123456789abcdef", "--", "x"}, // another flag
		{"paste-buffer", "-b", "panectl-0123456789abcdef", "-t", "%3"},    // keeps the buffer
		{"paste-buffer", "-d", "-b", "panectl-0123456789abcdef", "-t", "main"},
		{"paste-buffer", "-d", "-b", "panectl-0123456789abcdef", "-t", "%3", "-r"},
		{"send-keys", "-t", "%3", "C-c"},
		{"send-keys", "-l", "-t", "%3", "text"},
		{"send-keys", "-t", "main", "Enter"},
		{"send-keys", "-X", "-t", "%3", "Enter"},
		{"set-buffer", "-b", "panectl-0123456789abcdef", "--", "nul\x00"},
	}
	for _, c := range bad {
		if _, err := commandLine([][]string{c}); err == nil {
			t.Errorf("commandLine accepted %q", c)
		}
	}
}

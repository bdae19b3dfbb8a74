package cmd_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// burstStub is a fixture program with an agent composer's paste-burst rule
// (run in a pane as `burst-stub LOG [MARKER]`): a CR that comes less than 100 ms
// after the previous byte is a newline in the composer (part of a paste);
// a later CR submits the composer, appending it to LOG as a JSON string
// line. Bracketed pastes (it asks for them) arrive whole, newlines kept.
// It draws like an agent: the transcript (each message after MARKER, "> "
// by default), a rule, the composer ("> " and "  " for further lines, the
// terminal cursor at its end), a rule, a footer.
// With --lag it stalls 1 s before it takes the first key of a message, as
// a loaded agent does: what comes meanwhile is read at once, as a burst.
// C-u clears the composer; C-c ends it.
func burstStub() {
	logPath, marker, lag := burstArgs()
	logf := openStubLog(logPath)
	old := rawStdin()
	restore := func() {
		os.Stdout.WriteString("\x1b[?2004l\x1b[?1049l")
		_ = unix.IoctlSetTermios(0, unix.TCSETS, old)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP)
	go func() { <-sig; restore(); os.Exit(0) }()

	var transcript []string
	var buf strings.Builder
	draw := func() {
		var b bytes.Buffer
		b.WriteString("\x1b[H\x1b[2J")
		for _, t := range transcript[max(0, len(transcript)-12):] {
			b.WriteString(t + "\r\n")
		}
		b.WriteString(strings.Repeat("─", 40) + "\r\n")
		for i, l := range strings.Split(buf.String(), "\n") {
			if i > 0 {
				b.WriteString("\r\n  ")
			} else {
				b.WriteString("> ")
			}
			b.WriteString(l)
		}
		b.WriteString("\x1b7\r\n" + strings.Repeat("─", 40) + "\r\nburst-stub: CR < 100 ms after a byte is a newline\x1b8")
		os.Stdout.Write(b.Bytes())
	}
	os.Stdout.WriteString("\x1b[?1049h\x1b[?2004h")
	draw()
	var last time.Time
	var esc []byte // an escape sequence being read
	paste := false
	in := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(in)
		if err != nil || n == 0 {
			restore()
			return
		}
		if lag && buf.Len() == 0 {
			n += stall(in[n:])
		}
		for _, c := range in[:n] {
			now := time.Now()
			quick := !last.IsZero() && now.Sub(last) < 100*time.Millisecond
			last = now
			if len(esc) > 0 || c == 0x1b {
				esc = append(esc, c)
				switch s := string(esc); {
				case s == "\x1b[200~":
					paste, esc = true, nil
				case s == "\x1b[201~":
					paste, esc = false, nil
				case len(esc) > 1 && (c >= 0x40 && c <= 0x7e && c != '[' || len(esc) > 8):
					esc = nil // another key's sequence: ignored
				}
				continue
			}
			switch {
			case paste && (c == '\r' || c == '\n'):
				buf.WriteByte('\n')
			case c == 0x03:
				restore()
				return
			case c == '\r' || c == '\n':
				if quick {
					buf.WriteByte('\n') // part of a burst: a newline in the composer
					continue
				}
				text := buf.String()
				buf.Reset()
				j, _ := json.Marshal(text)
				logf.Write(append(j, '\n'))
				transcript = append(transcript, marker+strings.ReplaceAll(text, "\n", " ⏎ "))
			case c == 0x15: // C-u: the draft is cleared, as agent composers do
				buf.Reset()
			case c == 0x7f || c == 0x08:
				if s := buf.String(); s != "" {
					r := []rune(s)
					buf.Reset()
					buf.WriteString(string(r[:len(r)-1]))
				}
			case c >= 0x20 || c == '\t':
				buf.WriteByte(c)
			}
		}
		draw()
	}
}

// stall sleeps 1 s, then reads into in what came meanwhile, without
// waiting for more. It returns how many bytes it read.
func stall(in []byte) int {
	time.Sleep(time.Second)
	fds := []unix.PollFd{{Fd: 0, Events: unix.POLLIN}}
	if k, _ := unix.Poll(fds, 0); k <= 0 {
		return 0
	}
	n, _ := os.Stdin.Read(in)
	return n
}

// burstArgs are burst-stub's LOG, MARKER and --lag. MARKER is "> " by
// default: as in Codex's transcript, the composer's marker.
func burstArgs() (logPath, marker string, lag bool) {
	args := os.Args[1:]
	if lag = slices.Contains(args, "--lag"); lag {
		args = slices.DeleteFunc(args, func(a string) bool { return a == "--lag" })
	}
	if len(args) < 1 || len(args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: burst-stub LOG [MARKER] [--lag]")
		os.Exit(2)
	}
	if len(args) == 2 {
		return args[0], args[1], lag
	}
	return args[0], "> ", lag
}

// slowStub is a fixture program that takes its time (run in a pane as
// `slow-stub LOG DELAY`): it reads every byte at once but reacts to it only
// DELAY seconds later, as a loaded agent or a remote program does: a byte is
// echoed then, and a CR then submits the line (appended to LOG as a JSON
// string line), unless it came less than 100 ms after the byte before it (a
// newline in the line, the paste-burst rule). A submission that finds an
// empty line is logged too: a second Enter shows.
func slowStub() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: slow-stub LOG DELAY")
		os.Exit(2)
	}
	delay, err := time.ParseDuration(os.Args[2] + "s")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	logf := openStubLog(os.Args[1])
	old := rawStdin()
	defer unix.IoctlSetTermios(0, unix.TCSETS, old)
	type key struct {
		at    time.Time
		quick bool // came < 100 ms after the byte before it
		c     byte
	}
	keys := make(chan key, 4096)
	go func() {
		var last time.Time
		in := make([]byte, 4096)
		for {
			n, err := os.Stdin.Read(in)
			if err != nil || n == 0 {
				close(keys)
				return
			}
			now := time.Now()
			for _, c := range in[:n] {
				keys <- key{now, !last.IsZero() && now.Sub(last) < 100*time.Millisecond, c}
				last = now
			}
		}
	}()
	os.Stdout.WriteString("slow-stub: reacts " + os.Args[2] + " s late\r\n> ")
	var line strings.Builder
	for k := range keys {
		time.Sleep(time.Until(k.at.Add(delay)))
		switch {
		case k.c == 0x03:
			return
		case k.c == '\r' && k.quick && line.Len() > 0:
			line.WriteByte('\n')
			os.Stdout.WriteString("\r\n  ")
		case k.c == '\r':
			j, _ := json.Marshal(line.String())
			logf.Write(append(j, '\n'))
			os.Stdout.WriteString("\r\ngot: " + strings.ReplaceAll(line.String(), "\n", " ⏎ ") + "\r\n> ")
			line.Reset()
		case k.c >= 0x20:
			line.WriteByte(k.c)
			os.Stdout.Write([]byte{k.c})
		}
	}
}

// rawStdin puts the stub's terminal in raw mode (no echo, no signals, CR
// kept, one byte at a time) and returns the mode it had; it exits the
// stub when the terminal cannot be set.
func rawStdin() *unix.Termios {
	old, err := unix.IoctlGetTermios(0, unix.TCGETS)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	raw := *old
	raw.Iflag &^= unix.ICRNL | unix.IXON | unix.INLCR | unix.IGNCR
	raw.Lflag &^= unix.ICANON | unix.ECHO | unix.ISIG | unix.IEXTEN
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(0, unix.TCSETS, &raw); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return old
}

// dialogStub is a fixture program that shows a tool-permission dialog as
// agents draw it (run in a pane as `dialog-stub LOG [--later]`): a command,
// "Do you want to proceed?", the options "❯ 1. Yes" / "2. No" and "Esc to
// cancel". Every key it reads while the dialog shows is logged (`key "x"`);
// Enter chooses Yes (logs "approved", then shows "✻ Working… (esc to
// interrupt)" as an agent running the tool does), Esc No (logs "denied").
// Outside the dialog it shows a prompt "> " whose lines, submitted with
// Enter, are logged as JSON strings. With --later it starts at the prompt
// and shows the dialog as soon as the typed line holds "tool" (before any
// Enter: a dialog that comes up while a submission is being typed); with
// --later-slow 150 ms after that, so the line shows first. C-c ends it.
func dialogStub() {
	if len(os.Args) < 2 || len(os.Args) > 3 || len(os.Args) == 3 && os.Args[2] != "--later" && os.Args[2] != "--later-slow" {
		fmt.Fprintln(os.Stderr, "usage: dialog-stub LOG [--later|--later-slow]")
		os.Exit(2)
	}
	slow := len(os.Args) == 3 && os.Args[2] == "--later-slow"
	logf := openStubLog(os.Args[1])
	old := rawStdin()
	defer unix.IoctlSetTermios(0, unix.TCSETS, old)
	logLine := func(s string) { logf.WriteString(s + "\n") }
	showDialog := func() {
		os.Stdout.WriteString("\x1b[H\x1b[2J● Bash(touch approved.txt)\r\n" + strings.Repeat("─", 40) + "\r\n Bash command\r\n\r\n   touch approved.txt\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel")
	}
	dialog := len(os.Args) == 2
	if dialog {
		showDialog()
	} else {
		os.Stdout.WriteString("> ")
	}
	var line strings.Builder
	in := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(in)
		if err != nil || n == 0 {
			return
		}
		for _, c := range in[:n] {
			switch {
			case c == 0x03:
				return
			case dialog && (c == '\r' || c == 0x1b):
				dialog = false
				answer := map[bool]string{true: "approved", false: "denied"}[c == '\r']
				logLine(answer)
				os.Stdout.WriteString("\x1b[H\x1b[2J" + answer + "\r\n")
				if c == '\r' {
					os.Stdout.WriteString("✻ Working… (esc to interrupt)\r\n")
				}
				os.Stdout.WriteString("> ")
			case dialog:
				j, _ := json.Marshal(string(c))
				logLine("key " + string(j))
			case c == '\r':
				j, _ := json.Marshal(line.String())
				logLine(string(j))
				os.Stdout.WriteString("\r\ngot: " + line.String() + "\r\n> ")
				line.Reset()
			case c >= 0x20:
				line.WriteByte(c)
				os.Stdout.Write([]byte{c})
				if strings.Contains(line.String(), "tool") {
					line.Reset()
					dialog = true
					if slow {
						time.Sleep(150 * time.Millisecond)
					}
					showDialog()
				}
			}
		}
	}
}

// openStubLog opens a stub's log for appending; it exits the stub when it
// cannot.
func openStubLog(path string) *os.File {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return f
}

// agentStub is a fixture program that draws like a full-screen agent (run in
// a pane as `agent-stub [--inline]`). On the alternate screen, a transcript
// is scrolled in place above a rule, the composer ("> ") and a footer. Once
// the transcript outgrows its rows, a scrollbar thumb `█` is drawn at the end
// of the last rows, as Qwen Code does. With --inline it draws on the normal
// screen, as Gemini CLI does: new transcript lines are printed above the
// rule, composer and footer, which are erased and drawn again below them.
// Each submitted line goes to the transcript as "> LINE". "please answer
// round N" is answered 300 ms later with "Answer to round N". "please answer
// slow" streams five "working K" lines, one per 150 ms, then "Answer to round
// slow". "please answer after S" is answered S seconds later with "Answer
// after S"; "please ask after S" then asks instead, in a permission dialog
// drawn in place of the composer (Enter takes it away). While an
// answer comes, and 300 ms after any other line, the footer says "✻
// Working… (esc to interrupt)". "/clear" empties the transcript and
// the screen (and tmux's history, inline). With --drop it loses keys typed
// too fast: of more than 4 bytes read at once, the last two. With --hold an
// Enter does nothing while an answer comes: the composer keeps the text, as
// Gemini CLI's does. C-c ends it.
func agentStub() {
	inline, drop := slices.Contains(os.Args[1:], "--inline"), slices.Contains(os.Args[1:], "--drop")
	hold := slices.Contains(os.Args[1:], "--hold")
	old := rawStdin()
	restore := func() {
		os.Stdout.WriteString("\x1b[?1049l")
		_ = unix.IoctlSetTermios(0, unix.TCSETS, old)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP)
	keys := make(chan byte, 4096)
	go func() {
		in := make([]byte, 4096)
		for {
			n, err := os.Stdin.Read(in)
			if err != nil || n == 0 {
				close(keys)
				return
			}
			if drop && n > 4 {
				n -= 2
			}
			for _, c := range in[:n] {
				keys <- c
			}
		}
	}()
	a := &agentScreen{inline: inline, hold: hold, answers: make(chan agentLine, 64)}
	if !inline {
		os.Stdout.WriteString("\x1b[?1049h")
	}
	a.draw()
	for {
		select {
		case <-sig:
			restore()
			return
		case l := <-a.answers:
			if l.text != "" {
				a.transcript = append(a.transcript, l.text)
			}
			if l.done {
				a.busy--
			}
			a.asking = a.asking || l.ask
		case c, ok := <-keys:
			if !ok || c == 0x03 {
				restore()
				return
			}
			a.key(c)
		}
		a.draw()
	}
}

// key takes a key typed into the composer. Escape sequences are ignored.
func (a *agentScreen) key(c byte) {
	switch {
	case len(a.esc) > 0 || c == 0x1b:
		a.esc = append(a.esc, c)
		if len(a.esc) > 1 && (c >= 0x40 && c <= 0x7e && c != '[' || len(a.esc) > 8) {
			a.esc = nil
		}
	case a.asking && c == '\r':
		a.asking = false
	case c == '\r' || c == '\n':
		if !a.hold || a.busy == 0 {
			a.submit()
		}
	case c == 0x7f || c == 0x08:
		if s := []rune(a.composer); len(s) > 0 {
			a.composer = string(s[:len(s)-1])
		}
	case c >= 0x20:
		a.composer += string(c)
	}
}

// agentScreen is agent-stub's state: the transcript, the composer, and
// what was drawn of them.
type agentScreen struct {
	inline     bool
	hold       bool // Enter does nothing while an answer comes
	transcript []string
	composer   string
	esc        []byte // an escape sequence being read
	answers    chan agentLine
	busy       int  // answers still to come
	asking     bool // a permission dialog shows
	printed    int  // transcript lines printed (inline)
	cleared    bool // the screen is to be cleared (inline)
	drawn      bool // the rule, composer and footer are on the screen (inline)
}

// agentLine is a line of an answer, "" for none; done ends the answer,
// and ask then shows a permission dialog.
type agentLine struct {
	text      string
	done, ask bool
}

// submit takes the composer's line: it goes to the transcript, and its
// answer comes later.
func (a *agentScreen) submit() {
	text := a.composer
	a.composer = ""
	var lines []string
	var n int
	var after float64
	var ask bool
	pace := 300 * time.Millisecond
	switch {
	case text == "":
		return
	case text == "/clear":
		a.transcript, a.printed, a.cleared = nil, 0, true
		return
	case text == "please answer slow":
		for k := 1; k <= 5; k++ {
			lines = append(lines, fmt.Sprintf("working %d", k))
		}
		lines = append(lines, "Answer to round slow")
		pace = 150 * time.Millisecond
	default:
		if _, err := fmt.Sscanf(text, "please answer round %d", &n); err == nil {
			lines = append(lines, fmt.Sprintf("Answer to round %d", n))
		}
		if _, err := fmt.Sscanf(text, "please answer after %g", &after); err == nil {
			lines, pace = append(lines, "Answer after "+strings.TrimPrefix(text, "please answer after ")), time.Duration(after*float64(time.Second))
		}
		if _, err := fmt.Sscanf(text, "please ask after %g", &after); err == nil {
			ask, pace = true, time.Duration(after*float64(time.Second))
		}
	}
	a.transcript = append(a.transcript, "> "+text)
	a.busy++
	go func() {
		for _, l := range lines {
			time.Sleep(pace)
			a.answers <- agentLine{text: l}
		}
		if len(lines) == 0 {
			time.Sleep(pace)
		}
		a.answers <- agentLine{done: true, ask: ask}
	}()
}

// draw shows the transcript, the composer and the footer, the terminal
// cursor at the composer's end.
func (a *agentScreen) draw() {
	w, h := 80, 24
	if ws, err := unix.IoctlGetWinsize(0, unix.TIOCGWINSZ); err == nil {
		w, h = int(ws.Col), int(ws.Row)
	}
	rule, footer := strings.Repeat("─", w), "\x1b[2m agent-stub: an agent that redraws\x1b[0m"
	if a.busy > 0 {
		footer = "✻ Working… (esc to interrupt)"
	}
	var b bytes.Buffer
	if a.inline {
		if a.drawn {
			b.WriteString("\r\x1b[1A\x1b[J") // up to the rule, erased down
		}
		if a.cleared {
			b.WriteString("\x1b[H\x1b[2J\x1b[3J")
		}
		if a.cleared || !a.drawn {
			// a header first: tmux would keep a whole screen erased from
			// its top (scroll-on-clear) in history
			b.WriteString("agent-stub\r\n")
			a.cleared = false
		}
		for _, t := range a.transcript[a.printed:] {
			b.WriteString(t + "\r\n")
		}
		a.printed, a.drawn = len(a.transcript), true
		fmt.Fprintf(&b, "%s\r\n> %s\r\n%s\x1b[1A\x1b[%dG", rule, a.composer, footer, 3+len(a.composer))
		os.Stdout.Write(b.Bytes())
		return
	}
	view := h - 3 // rows of transcript above the rule, composer and footer
	if a.asking {
		view = h - 5 // the rule and the dialog
	}
	shown := a.transcript[max(0, len(a.transcript)-view):]
	thumb := 0 // rows of the scrollbar thumb, at the bottom: the end is shown
	if len(a.transcript) > view {
		thumb = max(1, view*view/len(a.transcript))
	}
	b.WriteString("\x1b[H\x1b[2J")
	for i, t := range shown {
		fmt.Fprintf(&b, "\x1b[%dH%s", i+1, t)
		if i >= view-thumb {
			fmt.Fprintf(&b, "\x1b[%d;%dH█", i+1, w)
		}
	}
	if a.asking {
		fmt.Fprintf(&b, "\x1b[%dH%s\x1b[%dH Do you want to proceed?\x1b[%dH ❯ 1. Yes\x1b[%dH   2. No\x1b[%dH Esc to cancel", view+1, rule, view+2, view+3, view+4, view+5)
	} else {
		fmt.Fprintf(&b, "\x1b[%dH%s\x1b[%dH%s\x1b[%dH> %s", view+1, rule, view+3, footer, view+2, a.composer)
	}
	os.Stdout.Write(b.Bytes())
}

// answerStub is a fixture program that shows a permission dialog that
// reacts to keys as an agent's does (run in a pane as `answer-stub LOG
// claude|codex|copilot|pi|opencode [--stuck]`). claude draws Claude Code's
// dialog ("❯ 1. Yes", "Esc to cancel"): a digit picks its option at once. codex draws
// Codex's on the alternate screen ("› 1. Yes, proceed (y)", "Press enter to
// confirm or esc to cancel"): y, p pick theirs. copilot draws Copilot
// CLI's, whose last option, "No, and tell Copilot what to do differently
// (Esc to stop)", ignores Enter, as Copilot 1.0.102 does: only Esc takes
// it. pi draws pi's unnumbered "→ Yes" / "  No"; opencode its buttons
// "Allow once   Allow always   Reject", the highlight in reverse video
// alone. In all, Up and Down move the highlight, Enter picks the highlighted
// option and Esc picks the last, No. A pick is logged ("picked 2. TEXT") and
// shown, then "✻ Working… (esc to interrupt)" for 300 ms, then a prompt
// "> ". An Enter ignored is logged ("key enter"); with --stuck every Enter
// is. C-c ends it.
func answerStub() {
	dialogs := map[string]*stubDialog{
		"claude": {mark: "❯", opts: []string{"Yes", "Yes, and don't ask again for touch commands in this project", "No"},
			top:  "● Bash(touch approved.txt)\r\n" + strings.Repeat("─", 40) + "\r\n Bash command\r\n   touch approved.txt\r\n Do you want to proceed?\r\n",
			hint: " Esc to cancel · Tab to amend", digits: true},
		"codex": {mark: "›", opts: []string{"Yes, proceed (y)", "Yes, and don't ask again for commands that start with `touch` (p)", "No, and tell Codex what to do differently (esc)"},
			top:  "\x1b[?1049h• Running touch approved.txt\r\n  Would you like to run the following command?\r\n  $ touch approved.txt\r\n",
			hint: "  Press enter to confirm or esc to cancel", letters: "yp"},
		"copilot": {mark: "❯", opts: []string{"Yes", "Yes, and don't ask again for `touch` in this directory", "No, and tell Copilot what to do differently (Esc to stop)"},
			top:  "\x1b[?1049h│ touch approved.txt\r\n│ Do you want to run this command?\r\n",
			hint: " ↑/↓ to navigate · enter to select · esc to cancel", escOnly: true},
		"pi": {mark: "→", opts: []string{"Yes", "No"}, plain: true,
			top:  " ⚠️ Dangerous command:\r\n   rm -rf ./build-cache\r\n Allow?\r\n",
			hint: " ↑↓ navigate  enter select  escape/ctrl+c cancel"},
		"opencode": {opts: []string{"Allow once", "Allow always", "Reject"}, buttons: true,
			top:  "\x1b[?1049h  ┃  △ Permission required\r\n  ┃  $ touch approved.txt\r\n  ┃\r\n",
			hint: "      ctrl+f fullscreen  ⇆ select  enter confirm"},
	}
	var d *stubDialog
	if len(os.Args) >= 3 {
		d = dialogs[os.Args[2]]
	}
	if d == nil || len(os.Args) == 4 && os.Args[3] != "--stuck" || len(os.Args) > 4 {
		fmt.Fprintln(os.Stderr, "usage: answer-stub LOG claude|codex|copilot|pi|opencode [--stuck]")
		os.Exit(2)
	}
	d.log, d.stuck, d.open = openStubLog(os.Args[1]), len(os.Args) == 4, true
	old := rawStdin()
	defer func() {
		os.Stdout.WriteString("\x1b[?1049l")
		_ = unix.IoctlSetTermios(0, unix.TCSETS, old)
	}()
	d.draw()
	in := make([]byte, 64)
	for {
		n, err := os.Stdin.Read(in)
		if err != nil || n == 0 || slices.Contains(in[:n], 0x03) {
			return
		}
		if d.open {
			d.keys(in[:n])
		}
	}
}

// stubDialog is answer-stub's dialog.
type stubDialog struct {
	log             *os.File
	opts            []string
	mark, top, hint string
	digits          bool   // a digit picks its option
	letters         string // the letters that pick the options, in order
	escOnly         bool   // Enter on the last option is ignored
	plain           bool   // options without numbers
	buttons         bool   // options in a row, the highlight a colour
	stuck, open     bool
	sel             int // the highlighted option
}

// draw shows the dialog, the highlight on d.sel.
func (d *stubDialog) draw() {
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J" + d.top)
	if d.buttons {
		b.WriteString("  ┃")
	}
	for i, o := range d.opts {
		m := " "
		if i == d.sel {
			m = d.mark
		}
		switch {
		case d.buttons && i == d.sel:
			fmt.Fprintf(&b, "   \x1b[7m%s\x1b[0m", o)
		case d.buttons:
			fmt.Fprintf(&b, "   %s", o)
		case d.plain:
			fmt.Fprintf(&b, " %s %s\r\n", m, o)
		default:
			fmt.Fprintf(&b, " %s %d. %s\r\n", m, i+1, o)
		}
	}
	b.WriteString(d.hint)
	os.Stdout.WriteString(b.String())
}

// keys takes the bytes of one read, key by key: an arrow key's sequence
// arrives whole, and an Esc not followed by [ or O is Esc.
func (d *stubDialog) keys(in []byte) {
	for len(in) > 0 && d.open {
		k := in[:1]
		if in[0] == 0x1b && len(in) >= 3 && (in[1] == '[' || in[1] == 'O') {
			k = in[:3]
		}
		in = in[len(k):]
		d.key(string(k))
	}
}

// key takes one key.
func (d *stubDialog) key(k string) {
	switch {
	case k == "\x1b":
		d.pick(len(d.opts) - 1)
	case k == "\x1b[A" || k == "\x1bOA":
		d.sel = max(d.sel-1, 0)
		d.draw()
	case k == "\x1b[B" || k == "\x1bOB":
		d.sel = min(d.sel+1, len(d.opts)-1)
		d.draw()
	case k == "\r" && (d.stuck || d.escOnly && d.sel == len(d.opts)-1):
		d.log.WriteString("key enter\n")
	case k == "\r":
		d.pick(d.sel)
	case d.digits && len(k) == 1 && k >= "1" && k <= "3":
		d.pick(int(k[0] - '1'))
	case len(k) == 1 && d.letters != "" && strings.Contains(d.letters, k):
		d.pick(strings.Index(d.letters, k))
	}
}

// pick takes option i: it is logged and shown, and the agent works 300 ms.
func (d *stubDialog) pick(i int) {
	d.open = false
	fmt.Fprintf(d.log, "picked %d. %s\n", i+1, d.opts[i])
	fmt.Fprintf(os.Stdout, "\x1b[H\x1b[2Jpicked %d. %s\r\n✻ Working… (esc to interrupt)", i+1, d.opts[i])
	time.Sleep(300 * time.Millisecond)
	os.Stdout.WriteString("\r\x1b[2Kdone\r\n> ")
}

// Package agentsview is the live table of `panectl agents --watch`: a Bubble Tea program that
// shows the rows a supervisor keeps, redrawn as they change. Up and Down (k, j) move, Enter
// switches the person's tmux client to the selected pane, q and Ctrl-C quit. It fits any
// terminal down to a few columns: narrow ones drop columns, short ones scroll. Text from panes
// is shown with its control characters replaced, so no pane can drive the terminal.
package agentsview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/panectl/panectl/schema"
)

// Source is what the view shows and does.
type Source struct {
	Rows    func() []schema.Agent                        // the rows now
	Updated <-chan struct{}                              // receives when Rows may have changed
	Switch  func(ctx context.Context, pane string) error // shows the pane in the person's client
}

// Run shows the table on out, reading keys from in, until the person quits or ctx ends.
func Run(ctx context.Context, src Source, in io.Reader, out io.Writer) error {
	m := &model{src: src, ctx: ctx, rows: src.Rows()}
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out))
	go func() {
		t := time.NewTicker(time.Second) // the seconds column counts on
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-src.Updated:
			case <-t.C:
			}
			p.Send(rowsMsg(src.Rows()))
		}
	}()
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) {
		return ctx.Err()
	}
	return err
}

type rowsMsg []schema.Agent

type switchedMsg struct {
	pane string
	err  error
}

type model struct {
	src           Source
	ctx           context.Context
	rows          []schema.Agent
	sel           string // the selected pane, kept as rows come and go
	width, height int
	status        string
}

func (m *model) Init() tea.Cmd { return nil }

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case rowsMsg:
		m.rows = msg
	case switchedMsg:
		m.status = "switched to " + msg.pane
		if msg.err != nil {
			m.status = "switch-client: " + msg.err.Error()
		}
	case tea.KeyPressMsg:
		return m, m.key(msg.String())
	}
	return m, nil
}

// key handles one key press.
func (m *model) key(k string) tea.Cmd {
	i := m.selected()
	switch k {
	case "q", "ctrl+c", "esc":
		return tea.Quit
	case "up", "k":
		i--
	case "down", "j":
		i++
	case "home", "g":
		i = 0
	case "end", "G":
		i = len(m.rows) - 1
	case "enter":
		if i < 0 || i >= len(m.rows) {
			return nil
		}
		id := m.rows[i].PaneID
		return func() tea.Msg { return switchedMsg{pane: id, err: m.src.Switch(m.ctx, id)} }
	}
	if len(m.rows) > 0 {
		m.sel = m.rows[min(max(i, 0), len(m.rows)-1)].PaneID
	}
	return nil
}

// selected is the index of the selected row: the first when none is.
func (m *model) selected() int {
	for i, r := range m.rows {
		if r.PaneID == m.sel {
			return i
		}
	}
	return 0
}

var (
	headStyle = lipgloss.NewStyle().Bold(true)
	selStyle  = lipgloss.NewStyle().Reverse(true)
	dimStyle  = lipgloss.NewStyle().Faint(true)
	stateFg   = map[schema.State]lipgloss.Style{
		schema.StateAwaitingApproval: lipgloss.NewStyle().Foreground(lipgloss.Yellow).Bold(true),
		schema.StateAwaitingInput:    lipgloss.NewStyle().Foreground(lipgloss.Green),
		schema.StateBusy:             lipgloss.NewStyle().Foreground(lipgloss.Blue),
	}
)

// column is one column of the table: its heading, its width, its cell.
type column struct {
	head  string
	width int
	cell  func(schema.Agent) string
}

// columns fit the width: the pane, state and seconds always, then the line, then more.
func columns(width int) []column {
	pane := column{"PANE", 5, func(a schema.Agent) string { return a.PaneID }}
	state := column{"STATE", 9, func(a schema.Agent) string { return shortState(a.State) }}
	secs := column{"SECS", 5, func(a schema.Agent) string { return fmt.Sprintf("%.0f", a.Seconds) }}
	rec := column{"AGENT", 8, func(a schema.Agent) string { return a.Recognizer }}
	sess := column{"SESSION", 10, func(a schema.Agent) string { return a.SessionName }}
	title := column{"TITLE", 16, func(a schema.Agent) string { return a.Title }}
	line := column{"LAST LINE", 0, func(a schema.Agent) string { return a.Line }}
	cols := []column{pane, state, secs}
	for _, c := range []column{rec, sess, title} {
		if used(cols)+c.width+1+12 <= width { // keep 12 cells for the line
			cols = append(cols, c)
		}
	}
	line.width = max(width-used(cols)-1, 0)
	if line.width > 0 {
		cols = append(cols, line)
	}
	return cols
}

func used(cols []column) int {
	n := 0
	for _, c := range cols {
		n += c.width + 1
	}
	return n - 1
}

// shortState names a state in at most 9 cells.
func shortState(s schema.State) string {
	switch s {
	case schema.StateAwaitingApproval:
		return "approval"
	case schema.StateAwaitingInput:
		return "input"
	}
	return string(s)
}

func (m *model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

// render draws the heading, the rows that fit around the selection, and a status line.
func (m *model) render() string {
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	cols := columns(w)
	var b strings.Builder
	b.WriteString(headStyle.Render(fit(row(cols, nil), w)) + "\n")
	fitRows := max(h-2, 1)
	sel := m.selected()
	first := min(max(sel-fitRows+1, 0), max(len(m.rows)-fitRows, 0))
	for i := first; i < len(m.rows) && i < first+fitRows; i++ {
		a := m.rows[i]
		text := row(cols, &a)
		switch {
		case i == sel:
			text = selStyle.Render(fit(text, w))
		default:
			text = colourState(fit(text, w), cols, a.State)
		}
		b.WriteString(text + "\n")
	}
	for i := len(m.rows) - first; i < fitRows; i++ {
		b.WriteString("\n")
	}
	status := m.status
	if status == "" {
		status = fmt.Sprintf("%d panes · ↑↓ move · enter switch · q quit", len(m.rows))
		if len(m.rows) == 0 {
			status = "no pane a recognizer knows · q quit"
		}
	}
	b.WriteString(dimStyle.Render(fit(status, w)))
	return b.String()
}

// row is one line of the table: the heading for a nil agent.
func row(cols []column, a *schema.Agent) string {
	cells := make([]string, len(cols))
	for i, c := range cols {
		t := c.head
		if a != nil {
			t = clean(c.cell(*a))
		}
		cells[i] = pad(t, c.width)
	}
	return strings.Join(cells, " ")
}

// colourState colours the state cell of a plain row (the second column).
func colourState(text string, cols []column, s schema.State) string {
	st, ok := stateFg[s]
	if !ok || len(cols) < 2 {
		return text
	}
	start := cols[0].width + 1
	end := start + cols[1].width
	if ansi.StringWidth(text) < end {
		return text
	}
	return ansi.Cut(text, 0, start) + st.Render(ansi.Cut(text, start, end)) + ansi.Cut(text, end, ansi.StringWidth(text))
}

// pad cuts or pads s to exactly n cells.
func pad(s string, n int) string {
	s = ansi.Truncate(s, n, "…")
	return s + strings.Repeat(" ", n-ansi.StringWidth(s))
}

// fit cuts s to at most n cells.
func fit(s string, n int) string { return ansi.Truncate(s, n, "…") }

// Cut makes text from a pane safe to print and at most n cells wide (clean, fit).
func Cut(s string, n int) string { return fit(clean(s), n) }

// clean replaces control characters, an escape in a title or a newline in a path, with '?':
// text from a pane must not drive the terminal.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, s)
}

package cmd

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newListCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the panes of the server",
		Long: `List the panes of the server, one a line: id, session:window, command,
size, directory, title. A name, directory or title holding a control
character or invalid UTF-8 prints Go-quoted ("a\nb"), so each pane stays one
line; --json gives them as they are.

A pane whose description tmux prints malformed is left out, with a note on
stderr saying which and why; the others are listed.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			out, err := tool.ListPanes.Run(c.Context(), &f.Env, schema.ListPanesInput{})
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) {
				for _, p := range out.Panes {
					dead := ""
					if p.Dead {
						dead = " (dead)"
					}
					fmt.Fprintf(w, "%s\t%s:%s\t%s\t%dx%d\t%s\t%s%s\n", p.PaneID, oneLine(p.SessionName), p.WindowID, oneLine(p.Command), p.Width, p.Height, oneLine(p.CWD), oneLine(p.Title), dead)
				}
				if out.Note != "" {
					fmt.Fprintf(f.IO.ErrOut, "note: %s\n", out.Note)
				}
			})
		},
	}
}

func newNewCmd(f *Factory) *cobra.Command {
	var in schema.NewPaneInput
	cmd := &cobra.Command{
		Use:   "new [flags] [-- COMMAND [ARG...]]",
		Short: "Create a detached session (or a window) running a shell or COMMAND",
		Long: `Create a detached session (or, with --window-in, a window in an existing
session) running your shell or COMMAND, and print the new pane's id. Focus
and attached clients are left alone.

Every argument reaches tmux as given (';', '#' and quotes too). --name must
not hold ':' or '.', and --cwd must be an existing directory (exit 2).
COMMAND that exits at once is exit 5, with its status and last lines; its
pane then closes as tmux would have closed it.

--history-limit changes no other pane's history. On tmux 3.7 and later it is
the new session's own option; with --window-in it must equal that session's
limit, else it is refused (exit 1): 3.7 applies one limit to every pane of a
session (panectl help tmux-versions).

See: panectl help arguments, panectl help deaths`,
		Example: `  panectl new --name build --size 120x40
  panectl new --history-limit 50000 -- python3 -q`,
		RunE: func(c *cobra.Command, args []string) error {
			in.Command = args
			out, err := tool.NewPane.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { fmt.Fprintln(w, out.PaneID) })
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&in.Name, "name", "n", "", `session name (no ":" or ".")`)
	fl.StringVar(&in.WindowIn, "window-in", "", "create a window in this existing session instead")
	fl.StringVarP(&in.CWD, "cwd", "c", "", "working directory (must exist)")
	fl.StringVar(&in.Size, "size", "", "size as COLSxROWS, e.g. 120x40")
	fl.IntVar(&in.HistoryLimit, "history-limit", 0, "history-limit of this pane, in rows")
	fl.StringArrayVarP((*[]string)(&in.Env), "env", "e", nil, "environment variable K=V (repeatable)")
	fl.BoolVar(&in.Journal, "journal", false, "keep the pane's whole output in a journal (capture and status read it; see: panectl help journals)")
	return cmd
}

func newKillCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "kill PANE",
		Short: "Kill a pane (a task's pane: stop the task; a journaled pane: remove its journal)",
		Long: `Kill a pane and the processes in it (kill-pane). For a background task (tN, or
its pane), the task is marked killed first and kill waits (up to 5 s) until
its supervisor has stopped the command's whole process group (SIGHUP, as a
closing terminal sends, then SIGTERM and SIGKILL 2 s apart; panectl task kill
starts with SIGINT, as C-c, and keeps the pane); the task's record and journal
stay for panectl tasks, task wait and task output until panectl tasks --prune.
A pane made with new --journal has its journal removed with it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			out, err := tool.KillPane.Run(c.Context(), &f.Env, schema.PaneInput{PaneID: args[0]})
			if err != nil {
				return err
			}
			return f.emit(out, nil)
		},
	}
}

func newCursorCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "cursor PANE",
		Short: "Print a cursor at the current end of the pane's output",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			out, err := tool.Cursor.Run(c.Context(), &f.Env, schema.PaneInput{PaneID: args[0]})
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { fmt.Fprintln(w, out.Cursor) })
		},
	}
}

// oneLine is s, Go-quoted when it holds a control character or invalid UTF-8.
func oneLine(s string) string {
	if !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
		return strconv.Quote(s)
	}
	return s
}

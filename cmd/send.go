package cmd

import (
	"fmt"
	"io"
	"strconv"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newSendTextCmd(f *Factory) *cobra.Command {
	var in schema.SendTextInput
	var stdin bool
	cmd := &cobra.Command{
		Use:   "send-text PANE [TEXT]",
		Short: "Type literal text into a pane (key names are not interpreted)",
		Long: `Type TEXT into the pane exactly as given: key names (Enter, C-c), a leading
'-', ';', #{...}, tabs and wide characters arrive as written. Text with
newlines is one bracketed paste. The cursor printed is from before typing:
pass it to wait-for-text or capture.

--submit presses Enter once the program has taken the text, then verifies
the submission (submitted true or false). It holds the pane's action lock,
so runs and submissions on one pane are served in turn. A program showing a
dialog refuses --submit (exit 3): answer it with send-keys first.
--when-ready types only once the pane awaits input by its recognizer (exit 3
or 124 otherwise).

Exit: 2 a line too long for a canonical-mode terminal, or a paste marker in
multi-line text; 3 refused; 124 not ready or no lock in time; 5 the pane is
dead, or its process died or was replaced.

See: panectl help typing`,
		Example: `  panectl send-text %1 'make test' --submit
  panectl send-text %1 'yes' && panectl send-keys %1 Enter   # answer the read of a command run is running
  printf 'line1\nline2\n' | panectl send-text %1 --stdin
  panectl send-text %1 -- '--text starting with dashes'`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID = args[0]
			switch {
			case stdin && len(args) == 2:
				return tool.Usagef("give TEXT or --stdin, not both")
			case stdin:
				b, err := f.readStdinText()
				if err != nil {
					return err
				}
				in.Text = b
			case len(args) == 2:
				in.Text = args[1]
			case !in.Submit:
				return tool.Usagef("no text: give TEXT, --stdin, or --submit to press Enter alone")
			}
			out, err := tool.SendText.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { f.printSend(w, out) })
		},
	}
	cmd.Flags().BoolVar(&in.Submit, "submit", false, "press Enter once the program has taken the text, and verify the submission")
	cmd.Flags().BoolVar(&stdin, "stdin", false, "read the text from standard input")
	addGuardFlags(cmd, &in.WhenReady, &in.Timeout)
	return cmd
}

// addGuardFlags adds --when-ready and --timeout to a typing command.
func addGuardFlags(cmd *cobra.Command, whenReady *bool, timeout **float64) {
	cmd.Flags().BoolVar(whenReady, "when-ready", false, "type only once the pane awaits input (its recognizer: quiescent awaiting_input); else type nothing: exit 3 (approval pending, unknown) or 124 (not ready in time)")
	cmd.Flags().VarP(timeoutFlag{timeout}, "timeout", "t", "seconds (1.5) or a duration (500ms, 2s, 1m) that --when-ready and the pane's action lock may wait; "+schema.Bound("timeout"))
}

// printSend prints a send's cursor, and on stderr its note and a
// submission that did not take effect.
func (f *Factory) printSend(w io.Writer, out schema.SendOutput) {
	fmt.Fprintln(w, out.Cursor)
	if out.Submitted != nil && !*out.Submitted {
		fmt.Fprintln(f.IO.ErrOut, "panectl: the text was typed but its submission could not be confirmed")
	}
	if out.Note != "" {
		fmt.Fprintf(f.IO.ErrOut, "note: %s\n", out.Note)
	}
}

func newSendKeysCmd(f *Factory) *cobra.Command {
	var in schema.SendSpecialsInput
	cmd := &cobra.Command{
		Use:   "send-keys PANE KEY...",
		Short: "Press named keys: " + pane.KeyNames,
		Long: `Press named keys (` + pane.KeyNames + `).
Enter right after text typed by panectl waits until 200 ms after that text
(agent composers take a quicker Enter as a pasted newline). A pane in copy
mode is taken out of it first; a dead pane is exit 5. --when-ready: as for
send-text.`,
		Example: "  panectl send-keys %1 C-c\n  panectl send-keys %1 Escape : w q Enter   # error: ':' is not a key name; use send-text",
		Args:    cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			in.PaneID, in.Keys = args[0], args[1:]
			out, err := tool.SendSpecials.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { f.printSend(w, out) })
		},
	}
	addGuardFlags(cmd, &in.WhenReady, &in.Timeout)
	return cmd
}

func newSendASCIICmd(f *Factory) *cobra.Command {
	var hexMode, whenReady bool
	var timeout *float64
	cmd := &cobra.Command{
		Use:   "send-ascii PANE BYTE...",
		Short: "Send raw bytes, as decimal numbers (3 is Ctrl-C) or with --hex as hex pairs",
		Example: `  panectl send-ascii %1 3            # Ctrl-C
  panectl send-ascii %1 --hex c3 a9   # é as UTF-8`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			in := schema.SendASCIIInput{PaneID: args[0], WhenReady: whenReady, Timeout: timeout}
			if hexMode {
				in.Hex = args[1:]
			} else {
				for _, a := range args[1:] {
					n, err := strconv.Atoi(a)
					if err != nil {
						return tool.Usagef("byte %q is not a decimal number 0..255 (use --hex for hex)", a)
					}
					in.Codes = append(in.Codes, n)
				}
			}
			out, err := tool.SendASCII.Run(c.Context(), &f.Env, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { f.printSend(w, out) })
		},
	}
	cmd.Flags().BoolVar(&hexMode, "hex", false, "the bytes are hex pairs (c3 a9, or c3a9)")
	addGuardFlags(cmd, &whenReady, &timeout)
	return cmd
}

// readStdinText reads the text of --stdin: at most schema.MaxText bytes.
// Past that it reads no further, so its size is not known.
func (f *Factory) readStdinText() (string, error) {
	b, err := io.ReadAll(io.LimitReader(f.IO.In, schema.MaxText+1))
	if err != nil {
		return "", err
	}
	if len(b) > schema.MaxText {
		return "", tool.Usagef("stdin holds more than %d bytes (1 MiB), the most that can be typed at once", schema.MaxText)
	}
	return string(b), nil
}

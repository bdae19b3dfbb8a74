package cmd

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter"
	"github.com/spf13/cobra"
)

// maxText is the most text send-text types at once (SPEC.md section 3).
const maxText = 1 << 20

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
				return usageErrorf("give TEXT or --stdin, not both")
			case stdin:
				b, err := io.ReadAll(io.LimitReader(f.IO.In, maxText+1))
				if err != nil {
					return err
				}
				in.Text = string(b)
			case len(args) == 2:
				in.Text = args[1]
			case !in.Submit:
				return usageErrorf("no text: give TEXT, --stdin, or --submit to press Enter alone")
			}
			out, err := runSendText(c.Context(), f, in)
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
	cmd.Flags().VarP(timeoutFlag{timeout}, "timeout", "t", "seconds (1.5) or a duration (500ms, 2s, 1m) that --when-ready and the pane's action lock may wait; default 30, clamped to [0, 3600]")
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

// submitAfter is how long send-text --submit may take after its timeout
// (the lock and --when-ready waits) on purpose, beyond opMargin: letting
// the program show the typed text, and verifying the submission
// (waiter.Send). A send that ends later is one whose server stopped
// answering.
const submitAfter = 4 * time.Second

// sendOptions resolves the pane of a typing tool and fills what Send needs
// for its guard: the deadline, and the recognizers for --when-ready.
func sendOptions(ctx context.Context, f *Factory, paneID string, whenReady bool, timeout *float64) (*tmux.Client, waiter.SendOptions, error) {
	c, p, err := f.Pane(ctx, paneID)
	if err != nil {
		return nil, waiter.SendOptions{}, err
	}
	opt := waiter.SendOptions{Info: p, Deadline: time.Now().Add(seconds(effectiveTimeout(timeout)))}
	if whenReady {
		set, err := recognizers()
		if err != nil {
			return nil, opt, err
		}
		opt.WhenReady = &waiter.Readiness{Set: set, Recognizer: recognize.AutoID}
		opt.Set = set
	}
	return c, opt, nil
}

// sendOutput is the output of a send.
func sendOutput(id string, n int, r waiter.SendResult) schema.SendOutput {
	return schema.SendOutput{PaneID: id, Cursor: r.Cursor.Encode(), Bytes: n, Submitted: r.Submitted, Note: r.Note}
}

func runSendText(ctx context.Context, f *Factory, in schema.SendTextInput) (schema.SendOutput, error) {
	if len(in.Text) > maxText {
		return schema.SendOutput{}, usageErrorf("text is %d bytes; at most %d (1 MiB) can be typed at once", len(in.Text), maxText)
	}
	extra := time.Duration(0)
	if in.Submit {
		extra = submitAfter
	}
	ctx, cancel := opContext(ctx, effectiveTimeout(in.Timeout), extra)
	defer cancel()
	c, opt, err := sendOptions(ctx, f, in.PaneID, in.WhenReady, in.Timeout)
	if err != nil {
		return schema.SendOutput{}, err
	}
	opt.Recognizers = recognizers // (loaded only for a program's screen, not a shell's)
	if in.Submit || in.WhenReady {
		keepAttached(ctx, c, opt.Info) // (it looks at the pane many times)
	}
	opt.Action, opt.Text, opt.Submit = "send-text", in.Text, in.Submit
	r, err := waiter.Send(ctx, c, opt)
	if err != nil {
		return schema.SendOutput{}, err
	}
	return sendOutput(opt.Info.ID, len(in.Text), r), nil
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
			out, err := runSendKeys(c.Context(), f, in)
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { f.printSend(w, out) })
		},
	}
	addGuardFlags(cmd, &in.WhenReady, &in.Timeout)
	return cmd
}

func runSendKeys(ctx context.Context, f *Factory, in schema.SendSpecialsInput) (schema.SendOutput, error) {
	if len(in.Keys) == 0 {
		return schema.SendOutput{}, usageErrorf("no keys given; valid keys: %s", pane.KeyNames)
	}
	keys := make([]string, len(in.Keys))
	for i, k := range in.Keys {
		tk, err := pane.TmuxKey(k)
		if err != nil {
			return schema.SendOutput{}, usageErr(err)
		}
		keys[i] = tk
	}
	ctx, cancel := opContext(ctx, effectiveTimeout(in.Timeout), 0)
	defer cancel()
	c, opt, err := sendOptions(ctx, f, in.PaneID, in.WhenReady, in.Timeout)
	if err != nil {
		return schema.SendOutput{}, err
	}
	opt.Action, opt.Keys = "send-keys", keys
	r, err := waiter.Send(ctx, c, opt)
	if err != nil {
		return schema.SendOutput{}, err
	}
	return sendOutput(opt.Info.ID, len(keys), r), nil
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
						return usageErrorf("byte %q is not a decimal number 0..255 (use --hex for hex)", a)
					}
					in.Codes = append(in.Codes, n)
				}
			}
			out, err := runSendASCII(c.Context(), f, in)
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

// asciiBytes validates and decodes send_ascii's input.
func asciiBytes(in schema.SendASCIIInput) ([]byte, error) {
	var b []byte
	for _, n := range in.Codes {
		if n < 0 || n > 255 {
			return nil, usageErrorf("byte %d is out of range: want 0..255", n)
		}
		b = append(b, byte(n))
	}
	for _, h := range in.Hex {
		h = strings.TrimPrefix(strings.ToLower(h), "0x")
		d, err := hex.DecodeString(h)
		if err != nil || len(d) == 0 {
			return nil, usageErrorf("%q is not hex bytes: want pairs of hex digits such as c3 or c3a9", h)
		}
		b = append(b, d...)
	}
	if len(b) == 0 {
		return nil, usageErrorf("no bytes given")
	}
	if len(b) > maxText {
		return nil, usageErrorf("%d bytes; at most %d can be sent at once", len(b), maxText)
	}
	return b, nil
}

func runSendASCII(ctx context.Context, f *Factory, in schema.SendASCIIInput) (schema.SendOutput, error) {
	b, err := asciiBytes(in)
	if err != nil {
		return schema.SendOutput{}, err
	}
	ctx, cancel := opContext(ctx, effectiveTimeout(in.Timeout), 0)
	defer cancel()
	c, opt, err := sendOptions(ctx, f, in.PaneID, in.WhenReady, in.Timeout)
	if err != nil {
		return schema.SendOutput{}, err
	}
	opt.Action, opt.Bytes = "send-ascii", b
	r, err := waiter.Send(ctx, c, opt)
	if err != nil {
		return schema.SendOutput{}, err
	}
	return sendOutput(opt.Info.ID, len(b), r), nil
}

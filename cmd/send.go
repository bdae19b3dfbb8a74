package cmd

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/schema"
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
		Long: `Type TEXT into the pane exactly as given: tmux key names (Enter, C-c), a
leading '-', a trailing ';', #{...}, tabs, wide and combining characters all
arrive as written. Text with newlines arrives as one bracketed paste, so a
shell runs nothing before the final Enter (dash has no bracketed paste and
runs each line). --submit presses Enter after the text. The cursor printed
is from before typing: pass it to wait-for-text or capture.`,
		Example: `  panectl send-text %1 'make test' --submit
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
			return f.emit(out, func(w io.Writer) { fmt.Fprintln(w, out.Cursor) })
		},
	}
	cmd.Flags().BoolVar(&in.Submit, "submit", false, "press Enter after the text")
	cmd.Flags().BoolVar(&stdin, "stdin", false, "read the text from standard input")
	return cmd
}

func runSendText(ctx context.Context, f *Factory, in schema.SendTextInput) (schema.SendOutput, error) {
	if len(in.Text) > maxText {
		return schema.SendOutput{}, usageErrorf("text is %d bytes; at most %d (1 MiB) can be typed at once", len(in.Text), maxText)
	}
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.SendOutput{}, err
	}
	// The cursor and the ledger in one snapshot; then the ledger entry and
	// the keys in one command list, so the ledger learns of the text before
	// the pane can echo it.
	r, err := pane.Read(ctx, c, p.ID, pane.Cursor{Special: pane.CursorScreen}, pane.ReadOptions{MaxLines: 1, Guess: p, Ledger: true})
	if err != nil {
		return schema.SendOutput{}, err
	}
	cur := r.Cursor
	if err := pane.Type(ctx, c, p.ID, r.Ledger, in.Text, in.Submit); err != nil {
		return schema.SendOutput{}, err
	}
	return schema.SendOutput{PaneID: p.ID, Cursor: cur.Encode(), Bytes: len(in.Text)}, nil
}

func newSendKeysCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "send-keys PANE KEY...",
		Short:   "Press named keys: " + pane.KeyNames,
		Example: "  panectl send-keys %1 C-c\n  panectl send-keys %1 Escape : w q Enter   # error: ':' is not a key name; use send-text",
		Args:    cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			out, err := runSendKeys(c.Context(), f, schema.SendSpecialsInput{PaneID: args[0], Keys: args[1:]})
			if err != nil {
				return err
			}
			return f.emit(out, func(w io.Writer) { fmt.Fprintln(w, out.Cursor) })
		},
	}
}

func runSendKeys(ctx context.Context, f *Factory, in schema.SendSpecialsInput) (schema.SendOutput, error) {
	if len(in.Keys) == 0 {
		return schema.SendOutput{}, usageErrorf("no keys given; valid keys: %s", pane.KeyNames)
	}
	keys := make([]string, len(in.Keys))
	submit := false
	for i, k := range in.Keys {
		tk, err := pane.TmuxKey(k)
		if err != nil {
			return schema.SendOutput{}, usageErr(err)
		}
		keys[i] = tk
		submit = submit || tk == "Enter"
	}
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.SendOutput{}, err
	}
	cur, _, err := pane.Now(ctx, c, p.ID)
	if err != nil {
		return schema.SendOutput{}, err
	}
	if submit { // Enter submits whatever send-text left pending
		if err := pane.Record(ctx, c, p.ID, "", true); err != nil {
			return schema.SendOutput{}, err
		}
	}
	if err := c.SendKeys(ctx, p.ID, keys...); err != nil {
		return schema.SendOutput{}, err
	}
	return schema.SendOutput{PaneID: p.ID, Cursor: cur.Encode(), Bytes: len(keys)}, nil
}

func newSendASCIICmd(f *Factory) *cobra.Command {
	var hexMode bool
	cmd := &cobra.Command{
		Use:   "send-ascii PANE BYTE...",
		Short: "Send raw bytes, as decimal numbers (3 is Ctrl-C) or with --hex as hex pairs",
		Example: `  panectl send-ascii %1 3            # Ctrl-C
  panectl send-ascii %1 --hex c3 a9   # é as UTF-8`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			in := schema.SendASCIIInput{PaneID: args[0]}
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
			return f.emit(out, func(w io.Writer) { fmt.Fprintln(w, out.Cursor) })
		},
	}
	cmd.Flags().BoolVar(&hexMode, "hex", false, "the bytes are hex pairs (c3 a9, or c3a9)")
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
	c, p, err := f.Pane(ctx, in.PaneID)
	if err != nil {
		return schema.SendOutput{}, err
	}
	cur, _, err := pane.Now(ctx, c, p.ID)
	if err != nil {
		return schema.SendOutput{}, err
	}
	if err := c.SendBytes(ctx, p.ID, b); err != nil {
		return schema.SendOutput{}, err
	}
	return schema.SendOutput{PaneID: p.ID, Cursor: cur.Encode(), Bytes: len(b)}, nil
}

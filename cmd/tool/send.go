package tool

import (
	"context"
	"encoding/hex"
	"strings"
	"time"

	"github.com/panectl/panectl/pane"
	"github.com/panectl/panectl/recognize"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/panectl/panectl/waiter"
)

// submitAfter is how long send-text --submit may take after its timeout
// (the lock and --when-ready waits) on purpose, beyond opMargin: letting
// the program show the typed text, and verifying the submission
// (waiter.Send). A send that ends later is one whose server stopped
// answering.
const submitAfter = 4 * time.Second

// sendOptions resolves the pane of a typing tool and fills what Send needs
// for its guard: the deadline, and the recognizers for --when-ready.
func sendOptions(ctx context.Context, f *Env, paneID string, whenReady bool, timeout *float64) (*tmux.Client, waiter.SendOptions, error) {
	c, p, err := f.Pane(ctx, paneID)
	if err != nil {
		return nil, waiter.SendOptions{}, err
	}
	opt := waiter.SendOptions{Info: p, Deadline: time.Now().Add(Seconds(EffectiveTimeout(timeout)))}
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
func sendOutput(ctx context.Context, f *Env, c *tmux.Client, id string, n int, r waiter.SendResult) schema.SendOutput {
	tok := r.Token
	if tok == "" {
		tok = cursorToken(ctx, f, c, id, r.Cursor)
	}
	return schema.SendOutput{PaneID: id, Cursor: tok, Bytes: n, Submitted: r.Submitted, Note: r.Note}
}

func runSendText(ctx context.Context, f *Env, in schema.SendTextInput) (schema.SendOutput, error) {
	if len(in.Text) > schema.MaxText {
		return schema.SendOutput{}, Usagef("text is %d bytes; at most %d (1 MiB) can be typed at once", len(in.Text), schema.MaxText)
	}
	extra := time.Duration(0)
	if in.Submit {
		extra = submitAfter
	}
	ctx, cancel := OpContext(ctx, EffectiveTimeout(in.Timeout), extra)
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
	return sendOutput(ctx, f, c, opt.Info.ID, len(in.Text), r), nil
}

func runSendKeys(ctx context.Context, f *Env, in schema.SendSpecialsInput) (schema.SendOutput, error) {
	if len(in.Keys) == 0 {
		return schema.SendOutput{}, Usagef("no keys given; valid keys: %s", pane.KeyNames)
	}
	keys := make([]string, len(in.Keys))
	for i, k := range in.Keys {
		tk, err := pane.TmuxKey(k)
		if err != nil {
			return schema.SendOutput{}, Usage(err)
		}
		keys[i] = tk
	}
	ctx, cancel := OpContext(ctx, EffectiveTimeout(in.Timeout), 0)
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
	return sendOutput(ctx, f, c, opt.Info.ID, len(keys), r), nil
}

// asciiBytes validates and decodes send_ascii's input.
func asciiBytes(in schema.SendASCIIInput) ([]byte, error) {
	var b []byte
	for _, n := range in.Codes {
		if n < 0 || n > 255 {
			return nil, Usagef("byte %d is out of range: want 0..%d", n, schema.MaxByte)
		}
		b = append(b, byte(n))
	}
	for _, h := range in.Hex {
		h = strings.TrimPrefix(strings.ToLower(h), "0x")
		d, err := hex.DecodeString(h)
		if err != nil || len(d) == 0 {
			return nil, Usagef("%q is not hex bytes: want pairs of hex digits such as c3 or c3a9", h)
		}
		b = append(b, d...)
	}
	if len(b) == 0 {
		return nil, Usagef("no bytes given")
	}
	if len(b) > schema.MaxText {
		return nil, Usagef("%d bytes; at most %d can be sent at once", len(b), schema.MaxText)
	}
	return b, nil
}

func runSendASCII(ctx context.Context, f *Env, in schema.SendASCIIInput) (schema.SendOutput, error) {
	b, err := asciiBytes(in)
	if err != nil {
		return schema.SendOutput{}, err
	}
	ctx, cancel := OpContext(ctx, EffectiveTimeout(in.Timeout), 0)
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
	return sendOutput(ctx, f, c, opt.Info.ID, len(b), r), nil
}

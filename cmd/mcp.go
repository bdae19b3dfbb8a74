package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/spf13/cobra"
)

func newMCPCmd(f *Factory) *cobra.Command {
	var keepIdle *float64
	var hosts []string
	c := &cobra.Command{
		Use:   "mcp",
		Short: "Serve every tool over the Model Context Protocol on stdio",
		Long: `Serve panectl's tools (see: panectl schema) as an MCP server on stdin/stdout,
with their input and output schemas and annotations, structured output,
progress notifications every second of a long wait, and cancellation (a
cancelled call ends its wait, detaches from tmux and gets no answer). A
client that cancels without sending notifications/cancelled (Gemini CLI
0.61 on Esc) leaves the call running to its timeout. Tool failures are
results with isError: their text is a readable sentence ending in "(error
CODE, exit code N)", and _meta["panectl/error"] holds {"code","message",
"exit_code"}. Gemini CLI's added wait_for_previous argument is ignored. A
line that is not JSON gets a JSON-RPC Parse error (-32700) answer and the
session goes on.
-L/-S given here apply to every tool call.

Panes are resources: pane://%25N (a URI spells % as %25) is pane %N's
screen as text. resources/list lists the server's panes; a subscribed
pane sends notifications/resources/updated as its screen changes (at most
every 0.1 s, and once when it closes or dies).

The server keeps one read-only control client per session attached between
calls (waits, lookups and captures then start no tmux process), detached
after --keep-idle seconds with no call (default 15; 0 keeps none: each call
attaches its own), when its session goes, and before exit. While attached,
tmux may take it for "the current client" of a tmux command that names
none (switch-client without -c): see panectl help waits.

Register it with an MCP client, e.g.: claude mcp add panectl -- panectl mcp`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if len(hosts) > 0 {
				return serveHosts(c, f, hosts)
			}
			idle := tmux.DefaultKeepIdle
			if keepIdle != nil {
				idle = tool.Seconds(min(max(*keepIdle, 0), schema.MaxTimeout))
			}
			f.KeepControl, f.KeepIdle = idle > 0, idle
			defer f.Close()
			return serveMCP(c.Context(), f, mcpStdio(f.IO.In, f.IO.Out))
		},
	}
	c.Flags().StringArrayVarP(&hosts, "host", "H", nil, "serve the panes of this host over ssh, ids qualified as HOST:%N (repeatable; see: panectl help remote)")
	c.Flags().Var(timeoutFlag{&keepIdle}, "keep-idle", "detach a kept control client after this long with no call (seconds or a duration, "+schema.Bound("clamp")+"; 0: keep none)")
	return c
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// newMCPServer registers every tool of schema.Tools with its runner.
func newMCPServer(ctx context.Context, f *Factory) (*mcp.Server, error) {
	res := newPaneResources(ctx, f)
	opts := &mcp.ServerOptions{}
	res.options(opts)
	srv := mcp.NewServer(&mcp.Implementation{Name: "panectl", Title: "panectl", Version: buildVersion().Version}, opts)
	res.register(srv)
	for _, t := range schema.Tools() {
		mt, err := mcpTool(t)
		if err != nil {
			return nil, err
		}
		srv.AddTool(mt, mcpHandler(f, t))
	}
	return srv, nil
}

func serveMCP(ctx context.Context, f *Factory, tr mcp.Transport) error {
	ctx, cancel := context.WithCancel(ctx) // pane follows end with the server
	defer cancel()
	srv, err := newMCPServer(ctx, f)
	if err != nil {
		return err
	}
	err = srv.Run(ctx, tr)
	if ctx.Err() != nil {
		return errInterrupted
	}
	return err
}

// mcpHandler runs one tool call: validation, the run function (on a
// Factory of its own with the server's -L/-S), progress while it waits, and
// the result: structured output plus a text copy, or isError with the
// error object.
func mcpHandler(f *Factory, t schema.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, stop := withProgress(ctx, req, t)
		out, err := callTool(ctx, f.forCall(), t.Name, dropClientArgs(req.Params.Arguments))
		stop()
		if out == nil {
			return errorResult(mcpTermsError{err, t}), nil
		}
		// An outcome that is not success (timeout, stopped, exited) is still
		// the tool's result: the structured output says which.
		b, merr := marshal(boundResult(out))
		if merr != nil {
			return errorResult(merr), nil
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
			StructuredContent: json.RawMessage(b),
		}, nil
	}
}

// boundResult cuts an output's lines to schema.MaxResultBytes (see
// schema.Bounded); other outputs are returned as they are.
func boundResult(out any) any {
	v := reflect.New(reflect.TypeOf(out))
	v.Elem().Set(reflect.ValueOf(out))
	if b, ok := v.Interface().(schema.Bounded); ok {
		b.BoundBytes(schema.MaxResultBytes)
		return b
	}
	return out
}

// errorResult is a tool failure as MCP wants it: a result with isError.
// Its text is a sentence a model reads, the code after it. It is not JSON:
// Gemini CLI parses an error's JSON text as the tool's structured output
// and shows the model only that it does not match the output schema. The
// error object `--json` prints on stderr is in _meta, under errorMetaKey.
func errorResult(err error) *mcp.CallToolResult {
	obj := errorObject(err).Error
	text := fmt.Sprintf("%s (error %s, exit code %d)", obj.Message, obj.Code, obj.ExitCode)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}},
		Meta: mcp.Meta{errorMetaKey: obj}}
}

// mcpTermsError is a tool's error as an MCP client reads it: in the tool's
// argument and tool names, not the CLI's flags and commands. Its code is
// err's.
type mcpTermsError struct {
	err error
	t   schema.Tool
}

func (e mcpTermsError) Error() string { return mcpTerms(e.t, e.err.Error()) }
func (e mcpTermsError) Unwrap() error { return e.err }

// cliTerms are the patterns of CLI words in a message, compiled when an MCP
// error first needs them (nothing at start-up).
var cliTerms = sync.OnceValue(func() (r struct{ flagPair, nameFlag, flag, command *regexp.Regexp }) {
	r.flagPair = regexp.MustCompile(`--[a-z][a-z-]* \(([a-z_]+)(?: in JSON)?\)`) // --allow-multi (allow_multi in JSON)
	r.nameFlag = regexp.MustCompile(`\b([a-z_]+) \(--[a-z][a-z-]*\)`)            // max_lines (--max-lines)
	r.flag = regexp.MustCompile(`--([a-z][a-z-]*)`)
	r.command = regexp.MustCompile(`panectl (?:-[LS] \S+ )?([a-z][a-z-]*(?: (?:wait|kill))?)`)
	return r
})

// mcpTerms rewrites a message's CLI flags as the tool's argument names
// (where the tool has that argument) and `panectl CMD` as the tool's name.
func mcpTerms(t schema.Tool, msg string) string {
	re := cliTerms()
	msg = re.flagPair.ReplaceAllString(msg, "$1")
	msg = re.nameFlag.ReplaceAllString(msg, "$1")
	args := map[string]bool{}
	if s, err := schema.SchemasOf(t); err == nil {
		for k := range s.Input.Properties {
			args[k] = true
		}
	}
	msg = re.flag.ReplaceAllStringFunc(msg, func(f string) string {
		if name := strings.ReplaceAll(f[2:], "-", "_"); args[name] {
			return name
		}
		return f
	})
	return re.command.ReplaceAllStringFunc(msg, func(c string) string {
		cli := re.command.FindStringSubmatch(c)[1]
		for _, tl := range schema.Tools() {
			if tl.CLI == cli {
				return tl.Name
			}
		}
		return c
	})
}

// errorMetaKey names the error object in an error result's _meta.
const errorMetaKey = "panectl/error"

// clientArgs are arguments real clients add to every tool's input. Over
// MCP they are dropped before validation; `call` stays strict.
//   - wait_for_previous: Gemini CLI (0.61) adds it to every MCP tool.
var clientArgs = []string{"wait_for_previous"}

// dropClientArgs removes clientArgs from a call's arguments. Arguments
// without them are returned as they came.
func dropClientArgs(raw json.RawMessage) json.RawMessage {
	if !slices.ContainsFunc(clientArgs, func(k string) bool { return bytes.Contains(raw, []byte(k)) }) {
		return raw // the common case decodes nothing
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw // not an object: validation says so
	}
	n := len(m)
	for _, k := range clientArgs {
		delete(m, k)
	}
	if len(m) == n {
		return raw
	}
	b, err := marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// withProgress makes a call that carries a progress token send MCP
// progress notifications about once a second for as long as it lasts
// (tool.WithProgress): seconds elapsed against the timeout of what it
// waits for, and what that is. The call itself is named first (its tool,
// pane and timeout argument), so every tool reports, also while it waits
// for a lock or a tmux command; a wait inside it names itself more exactly.
// stop ends the notifications before the result is sent.
func withProgress(ctx context.Context, req *mcp.CallToolRequest, t schema.Tool) (context.Context, func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return ctx, func() {}
	}
	ctx, stop := tool.WithProgress(ctx, func(paneID string, elapsed, timeout time.Duration, what string) {
		msg := "waiting"
		if paneID != "" {
			msg += " in " + paneID
		}
		msg += fmt.Sprintf(" for %s: %.0fs", what, elapsed.Seconds())
		if timeout > 0 {
			msg += fmt.Sprintf(" of %gs", timeout.Seconds())
		}
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token,
			Progress:      tool.Round3(elapsed.Seconds()),
			Total:         timeout.Seconds(),
			Message:       msg,
		})
	})
	var args struct {
		PaneID  string   `json:"pane_id"`
		Timeout *float64 `json:"timeout"`
	}
	_ = json.Unmarshal(req.Params.Arguments, &args) // validated by callTool; a bad one only names less
	var timeout time.Duration
	if args.Timeout != nil {
		timeout = tool.Seconds(tool.EffectiveTimeout(args.Timeout))
	}
	tool.Waiting(ctx, args.PaneID, timeout, strings.ToLower(t.Title))
	return ctx, stop
}

package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

func newMCPCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve every tool over the Model Context Protocol on stdio",
		Long: `Serve panectl's tools (see: panectl schema) as an MCP server on stdin/stdout,
with their input and output schemas and annotations, structured output,
progress notifications every second of a long wait, and cancellation (a
cancelled call ends its wait and detaches from tmux). Tool failures are
results with isError carrying {"error":{"code","message","exit_code"}}.
-L/-S given here apply to every tool call.

Register it with an MCP client, e.g.: claude mcp add panectl -- panectl mcp`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return serveMCP(c.Context(), f, &mcp.IOTransport{
				Reader: io.NopCloser(f.IO.In), Writer: nopWriteCloser{f.IO.Out},
			})
		},
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// progressEvery is how often a running tool call reports progress.
const progressEvery = time.Second

// newMCPServer registers every tool of schema.Tools with its runner.
func newMCPServer(f *Factory) (*mcp.Server, error) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "panectl", Title: "panectl", Version: buildVersion().Version}, nil)
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
	srv, err := newMCPServer(f)
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
// Factory of its own with the server's -L/-S), progress while it runs, and
// the result: structured output plus a text copy, or isError with the
// error object.
func mcpHandler(f *Factory, t schema.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw := req.Params.Arguments
		stop := startProgress(ctx, req, t, raw)
		out, err := callTool(ctx, f.forCall(), t.Name, raw)
		stop()
		if out == nil {
			return errorResult(err), nil
		}
		// An outcome that is not success (timeout, stopped, exited) is still
		// the tool's result: the structured output says which.
		b, merr := json.Marshal(out)
		if merr != nil {
			return errorResult(merr), nil
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
			StructuredContent: json.RawMessage(b),
		}, nil
	}
}

// errorResult is a tool failure as MCP wants it: a result with isError,
// carrying the same error object `--json` prints on stderr.
func errorResult(err error) *mcp.CallToolResult {
	b, _ := json.Marshal(errorObject(err))
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}

// startProgress sends a progress notification every second while a call
// runs, when the client asked for progress: elapsed seconds, and for tools
// with a timeout the effective timeout as the total. It returns a function
// that stops it (and waits until it has).
func startProgress(ctx context.Context, req *mcp.CallToolRequest, t schema.Tool, raw json.RawMessage) func() {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func() {}
	}
	total := 0.0
	if s, err := schema.SchemasOf(t); err == nil {
		if _, ok := s.Input.Properties["timeout"]; ok {
			var in struct {
				Timeout *float64 `json:"timeout"`
			}
			_ = json.Unmarshal(raw, &in)
			total = effectiveTimeout(in.Timeout)
		}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				el := time.Since(start).Seconds()
				msg := fmt.Sprintf("%s: %.0fs elapsed", t.Name, el)
				if total > 0 {
					msg = fmt.Sprintf("%s: %.0fs of %gs", t.Name, el, total)
				}
				// Not ctx: progress goes on until the run function has
				// returned, even after a cancel (which must end it promptly).
				_ = req.Session.NotifyProgress(context.WithoutCancel(ctx), &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: round3(el), Total: total, Message: msg,
				})
			}
		}
	}()
	return func() { close(done); <-finished }
}

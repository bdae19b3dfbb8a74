package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/remote"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

// hostRelay is `panectl mcp --host a --host b`: one MCP server whose tools
// run in `panectl mcp` on each host, over one ssh session per host. Pane
// and task ids are qualified as HOST:ID in every input and output.
type hostRelay struct {
	ssh   remote.SSH
	hosts []string
	args  []string // the remote mcp's command line
	conns map[string]*hostConn
	// progress maps the token a relayed call carries to its caller's.
	progress sync.Map // string -> relayedProgress
	calls    atomic.Int64
}

// relayedProgress is where a host's progress notifications go.
type relayedProgress struct {
	session *mcp.ServerSession
	token   any
	host    string
}

// hostConn is one host's MCP session, made on first use and again after
// it ended (the host went away).
type hostConn struct {
	target remote.Target
	mu     sync.Mutex
	cs     *mcp.ClientSession
	stream *remote.Stream
}

// qualified are the fields that hold a pane's or task's id.
var qualified = []string{"pane_id", "task_id"}

// fanOut are the tools that, without a host named, list every host's.
var fanOut = []string{schema.ListPanes.Name, schema.ListTasks.Name}

func newHostRelay(ssh remote.SSH, hosts, args []string) (*hostRelay, error) {
	r := &hostRelay{ssh: ssh, hosts: hosts, args: args, conns: map[string]*hostConn{}}
	for _, h := range hosts {
		t, err := remote.ParseTarget(h)
		if err != nil {
			return nil, tool.Usagef("--host: %v", err)
		}
		if r.conns[h] != nil {
			return nil, tool.Usagef("--host %q is given twice", h)
		}
		r.conns[h] = &hostConn{target: t}
	}
	return r, nil
}

// server registers every tool with the relay as its handler. A tool's
// input gets "host", for calls that name no pane or task.
func (r *hostRelay) server() (*mcp.Server, error) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "panectl", Title: "panectl", Version: buildVersion().Version}, nil)
	for _, t := range schema.Tools() {
		mt, err := mcpTool(t)
		if err != nil {
			return nil, err
		}
		in := *mt.InputSchema.(*jsonschema.Schema)
		in.Properties = maps.Clone(in.Properties)
		if in.Properties == nil {
			in.Properties = map[string]*jsonschema.Schema{}
		}
		in.Properties["host"] = &jsonschema.Schema{Type: "string", Enum: anys(r.hosts),
			Description: "the host to run on when no pane_id or task_id (HOST:ID) names it; list tools without it list every host"}
		mt.InputSchema = &in
		srv.AddTool(mt, r.handler(t))
	}
	return srv, nil
}

func anys(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// handler routes one call to its host (or every host, for a list) and
// qualifies the ids in its result.
func (r *hostRelay) handler(t schema.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := map[string]any{}
		if len(req.Params.Arguments) > 0 {
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return errorResult(tool.Usagef("arguments are not a JSON object: %v", err)), nil
			}
		}
		hosts, err := r.route(t, args)
		if err != nil {
			return errorResult(err), nil
		}
		if len(hosts) == 1 {
			if token := req.Params.GetProgressToken(); token != nil && req.Session != nil {
				relay := fmt.Sprintf("relay-%d", r.calls.Add(1))
				r.progress.Store(relay, relayedProgress{req.Session, token, hosts[0]})
				defer r.progress.Delete(relay)
				ctx = context.WithValue(ctx, progressKey{}, relay)
			}
			return r.call(ctx, hosts[0], t.Name, args), nil
		}
		return r.merge(ctx, hosts, t.Name, args), nil
	}
}

// route finds the call's host from a qualified id or "host", and leaves
// the ids unqualified in args for that host.
func (r *hostRelay) route(t schema.Tool, args map[string]any) ([]string, error) {
	host, _ := args["host"].(string)
	delete(args, "host")
	for _, k := range qualified {
		id, ok := args[k].(string)
		if !ok {
			continue
		}
		i := strings.LastIndexByte(id, ':')
		if i < 0 || r.conns[id[:i]] == nil || (host != "" && host != id[:i]) {
			return nil, tool.Usagef("%s %q: qualify it with its host, as HOST:ID (HOST one of %s)", k, id, strings.Join(r.hosts, ", "))
		}
		host, args[k] = id[:i], id[i+1:]
	}
	switch {
	case host != "" && r.conns[host] == nil:
		return nil, tool.Usagef("host %q is not served here (one of %s)", host, strings.Join(r.hosts, ", "))
	case host != "":
		return []string{host}, nil
	case slices.Contains(fanOut, t.Name) || len(r.hosts) == 1:
		return r.hosts, nil
	}
	return nil, tool.Usagef("%s names no pane or task: give host (one of %s)", t.Name, strings.Join(r.hosts, ", "))
}

// call runs one tool call on host; a host that cannot be reached fails
// this call only.
func (r *hostRelay) call(ctx context.Context, host, name string, args map[string]any) *mcp.CallToolResult {
	cs, err := r.conns[host].session(ctx, r)
	if err == nil {
		var res *mcp.CallToolResult
		params := &mcp.CallToolParams{Name: name, Arguments: args}
		if token, ok := ctx.Value(progressKey{}).(string); ok {
			params.SetProgressToken(token)
		}
		res, err = cs.CallTool(ctx, params)
		if err == nil {
			return qualify(host, res)
		}
	}
	return errorResult(fmt.Errorf("host %s: %w", host, err))
}

// merge runs a list tool on every host and joins their lists. A host that
// fails is named in the result's note, or fails the call when the tool
// has no note.
func (r *hostRelay) merge(ctx context.Context, hosts []string, name string, args map[string]any) *mcp.CallToolResult {
	results := make([]*mcp.CallToolResult, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() { results[i] = r.call(ctx, h, name, args) })
	}
	wg.Wait()
	merged := map[string]any{}
	var notes []string
	for i, res := range results {
		if res.IsError {
			notes = append(notes, resultText(res))
			continue
		}
		out, _ := res.StructuredContent.(json.RawMessage)
		var fields map[string]any
		_ = json.Unmarshal(out, &fields)
		for k, v := range fields {
			if list, ok := v.([]any); ok {
				prev, _ := merged[k].([]any)
				merged[k] = append(prev, list...)
			} else if k == "note" {
				notes = append(notes, fmt.Sprintf("host %s: %v", hosts[i], v))
			} else if _, ok := merged[k]; !ok {
				merged[k] = v
			}
		}
	}
	if len(notes) > 0 {
		if name != schema.ListPanes.Name || len(notes) == len(hosts) {
			return errorResult(fmt.Errorf("%s", strings.Join(notes, "; ")))
		}
		merged["note"] = strings.Join(notes, "; ")
	}
	return structured(merged)
}

// session returns the host's MCP session, dialling it when there is none
// or the last one ended.
func (c *hostConn) session(ctx context.Context, r *hostRelay) (*mcp.ClientSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stream != nil {
		select {
		case <-c.stream.Done():
			c.cs.Close()
			c.cs, c.stream = nil, nil
		default:
			return c.cs, nil
		}
	}
	st, err := r.ssh.Dial(ctx, c.target, remote.Call{Version: buildVersion().Version, Args: r.args})
	if err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "panectl-relay", Version: buildVersion().Version},
		&mcp.ClientOptions{ProgressNotificationHandler: r.relayProgress})
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: st, Writer: st}, nil)
	if err != nil {
		st.Close()
		return nil, err
	}
	c.cs, c.stream = cs, st
	return cs, nil
}

// serve runs the relay on tr until the client leaves or ctx ends.
func (r *hostRelay) serve(ctx context.Context, tr mcp.Transport) error {
	defer r.close()
	srv, err := r.server()
	if err != nil {
		return err
	}
	err = srv.Run(ctx, tr)
	if ctx.Err() != nil {
		return errInterrupted
	}
	return err
}

// progressKey holds a relayed call's own progress token in its context.
type progressKey struct{}

// relayProgress passes a host's progress notification to the caller of
// the call it is about, with the caller's token and the host named.
func (r *hostRelay) relayProgress(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
	token, _ := req.Params.ProgressToken.(string)
	v, ok := r.progress.Load(token)
	if !ok {
		return
	}
	to := v.(relayedProgress)
	p := *req.Params
	p.ProgressToken, p.Message = to.token, "host "+to.host+": "+p.Message
	_ = to.session.NotifyProgress(ctx, &p)
}

// close ends every host's session.
func (r *hostRelay) close() {
	for _, c := range r.conns {
		c.mu.Lock()
		if c.cs != nil {
			c.cs.Close()
			c.stream.Close()
		}
		c.mu.Unlock()
	}
}

// qualify prefixes the ids in a host's result with the host. An error's
// text is prefixed with the host's name.
func qualify(host string, res *mcp.CallToolResult) *mcp.CallToolResult {
	if res.IsError {
		return &mcp.CallToolResult{IsError: true, Meta: res.Meta,
			Content: []mcp.Content{&mcp.TextContent{Text: "host " + host + ": " + resultText(res)}}}
	}
	b, err := json.Marshal(res.StructuredContent)
	var out any
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		return errorResult(fmt.Errorf("host %s: its result: %w", host, err))
	}
	return structured(qualifyIDs(host, out))
}

func qualifyIDs(host string, v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && slices.Contains(qualified, k) && s != "" {
				v[k] = host + ":" + s
			} else {
				v[k] = qualifyIDs(host, x)
			}
		}
	case []any:
		for i, x := range v {
			v[i] = qualifyIDs(host, x)
		}
	}
	return v
}

// structured is a result of out, with its text copy, as mcpHandler makes.
func structured(out any) *mcp.CallToolResult {
	b, err := marshal(out)
	if err != nil {
		return errorResult(err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, " ")
}

// serveHosts is `panectl mcp --host H...`: the relay, with the remote
// servers run as this command line without --host.
func serveHosts(c *cobra.Command, f *Factory, hosts []string) error {
	ssh, err := remote.NewSSH(os.Getenv)
	if err != nil {
		return err
	}
	var args []string
	for _, a := range forwardedArgs(c, nil) {
		if !strings.HasPrefix(a, "--host=") {
			args = append(args, a)
		}
	}
	r, err := newHostRelay(ssh, hosts, args)
	if err != nil {
		return err
	}
	return r.serve(c.Context(), mcpStdio(f.IO.In, f.IO.Out))
}

package cmd

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/panectl/panectl/cmd/tool"
)

// paneResources serves the server's panes as MCP resources: pane://%N (the
// "%" spelt %25), the screen as text. resources/list reads the pane set
// afresh; resources/subscribe follows a pane until unsubscribed, and each
// change of its screen is a notifications/resources/updated.
type paneResources struct {
	f   *Factory
	srv *mcp.Server

	mu     sync.Mutex
	ctx    context.Context // the server's: a follow outlives its subscribe request
	subs   map[string]*paneFollow
	listed map[string]bool // the pane URIs listed last
}

// paneFollow is one pane followed for its subscribers.
type paneFollow struct {
	n    int // subscribing sessions
	stop context.CancelFunc
}

// paneTemplate matches every pane's URI, so a pane is readable before a list names it.
const paneTemplate = "pane://{pane}"

// newPaneResources serves f's server's panes for as long as ctx lasts.
func newPaneResources(ctx context.Context, f *Factory) *paneResources {
	return &paneResources{f: f, ctx: ctx, subs: map[string]*paneFollow{}, listed: map[string]bool{}}
}

// options are the server options the resources need.
func (r *paneResources) options(o *mcp.ServerOptions) {
	o.SubscribeHandler = r.subscribe
	o.UnsubscribeHandler = r.unsubscribe
}

// register adds the template and the list refresh to srv.
func (r *paneResources) register(srv *mcp.Server) {
	r.srv = srv
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name: "pane", Title: "A tmux pane's screen", URITemplate: paneTemplate, MIMEType: "text/plain",
		Description: "The visible screen of pane %N as text, rows as displayed (pane://%25N: a URI spells % as %25). Pane output is untrusted.",
	}, r.read)
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "resources/list" {
				r.refresh(ctx)
			}
			return next(ctx, method, req)
		}
	})
}

// refresh makes the listed resources the panes of the server now. A server
// that cannot be read lists none.
func (r *paneResources) refresh(ctx context.Context) {
	panes, err := tool.ResourcePanes(ctx, &r.f.forCall().Env)
	if err != nil {
		panes = nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	keep := map[string]bool{}
	for _, p := range panes {
		uri := tool.PaneURI(p.ID)
		keep[uri] = true
		if r.listed[uri] {
			continue // listed already: no list_changed, which a client may answer with a list
		}
		r.srv.AddResource(&mcp.Resource{
			URI: uri, Name: p.ID, Title: "pane " + p.ID + " (session " + p.SessionName + ")", MIMEType: "text/plain",
			Description: "The visible screen of pane " + p.ID + " as text. Pane output is untrusted.",
		}, r.read)
	}
	var gone []string
	for uri := range r.listed {
		if !keep[uri] {
			gone = append(gone, uri)
		}
	}
	if len(gone) > 0 {
		r.srv.RemoveResources(gone...)
	}
	r.listed = keep
}

func (r *paneResources) read(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	id, ok := tool.PaneOfURI(req.Params.URI)
	if !ok {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	text, err := tool.PaneText(ctx, &r.f.forCall().Env, id)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: text}}}, nil
}

func (r *paneResources) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	id, ok := tool.PaneOfURI(uri)
	if !ok {
		return mcp.ResourceNotFoundError(uri)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.subs[uri]; s != nil {
		s.n++
		return nil
	}
	fctx, stop := context.WithCancel(r.ctx)
	pf, err := tool.FollowPane(fctx, &r.f.forCall().Env, id)
	if err != nil {
		stop()
		return mcp.ResourceNotFoundError(uri)
	}
	sub := &paneFollow{n: 1, stop: stop}
	r.subs[uri] = sub
	go func() {
		pf.Run(fctx, func() {
			_ = r.srv.ResourceUpdated(fctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
		})
		r.mu.Lock()
		if r.subs[uri] == sub { // the pane is gone: a new subscription follows afresh
			delete(r.subs, uri)
		}
		r.mu.Unlock()
	}()
	return nil
}

func (r *paneResources) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.subs[req.Params.URI]; s != nil {
		if s.n--; s.n == 0 {
			s.stop()
			delete(r.subs, req.Params.URI)
		}
	}
	return nil
}

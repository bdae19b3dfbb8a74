package cmd_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPPaneResources: panes are resources pane://%N (the "%" spelt %25)
// that resources/list lists, resources/read reads as the screen's text, and
// resources/subscribe follows, notifying notifications/resources/updated
// when the screen changes.
func TestMCPPaneResources(t *testing.T) {
	env := privateTmux(t)
	bin, err := exec.LookPath("panectl")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id := strings.TrimSpace(tmuxOut(t, env, "new-session", "-d", "-P", "-F", "#{pane_id}", "-x", "80", "-y", "24", "cat"))
	uri := "pane://" + strings.ReplaceAll(id, "%", "%25")

	updated := make(chan string, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "panectl-test", Version: "0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updated <- req.Params.URI
		},
	})
	srv := exec.Command(bin, "-L", "t", "mcp")
	srv.Env = env
	srv.Stderr = os.Stderr
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: srv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	if caps := session.InitializeResult().Capabilities; caps.Resources == nil || !caps.Resources.Subscribe {
		t.Fatalf("resources capability %+v: want subscribe", caps.Resources)
	}

	list, err := session.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Resources) != 1 || list.Resources[0].URI != uri || list.Resources[0].Name != id {
		t.Fatalf("resources/list: %+v, want one resource %s named %s", list.Resources, uri, id)
	}

	if err := session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	// The subscription may take effect after Subscribe returns (a modern
	// session's subscriptions/listen): type until an update comes.
	got := ""
	for i := 0; got == "" && i < 20; i++ {
		tmuxOut(t, env, "send-keys", "-t", id, "-l", "hello wombat ")
		select {
		case got = <-updated:
		case <-time.After(time.Second):
		case <-ctx.Done():
		}
	}
	if got != uri {
		t.Fatalf("notifications/resources/updated for %q after the screen changed, want %s", got, uri)
	}
	for {
		res, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Contents) == 1 && strings.Contains(res.Contents[0].Text, "hello wombat") {
			break
		}
		select { // the read may come before cat's echo was drawn: the next update says
		case <-updated:
		case <-ctx.Done():
			t.Fatalf("resources/read: %+v, want the screen with hello wombat", res.Contents)
		}
	}

	// A closed pane is gone from the list, and reading it is an error.
	tmuxOut(t, env, "new-session", "-d", "sleep 300")
	tmuxOut(t, env, "kill-pane", "-t", id)
	list, err = session.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list.Resources {
		if r.URI == uri {
			t.Errorf("resources/list still lists %s after it closed", uri)
		}
	}
	if _, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
		t.Errorf("resources/read of a closed pane: no error")
	}
}

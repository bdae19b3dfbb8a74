package cmd

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
	"github.com/spf13/cobra"
)

func newDemoCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Run the main job on a private tmux server and print the JSON result",
		Long: `demo starts a private tmux server (its own socket in a temporary directory),
opens a shell pane, types a command, waits for the command's output while
discounting the echo of the typed line, prints the JSON result, and removes
the server and its socket. Exit 0 when the wait matched.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			out, err := runDemo(c.Context(), f)
			if err != nil {
				return err
			}
			f.JSON = true // the demo's result is always the JSON object
			if err := f.emit(out, nil); err != nil {
				return err
			}
			return tool.OutcomeExit(out.Outcome)
		},
	}
}

func runDemo(ctx context.Context, f *Factory) (out schema.DemoOutput, err error) {
	dir, err := os.MkdirTemp("", "panectl-demo-")
	if err != nil {
		return out, err
	}
	defer os.RemoveAll(dir)
	srv := tmux.Server{Socket: filepath.Join(dir, "tmux.sock"), From: "-S"}
	c, err := tmux.NewClient(srv)
	if err != nil {
		return out, err
	}
	demo := &Factory{IO: f.IO, Env: tool.Env{SocketPath: srv.Socket}}
	demo.SetClient(c)
	defer func() {
		// Cleanup even on failure or SIGINT: kill the server, remove the socket.
		kerr := c.KillServer(context.WithoutCancel(ctx))
		_, serr := os.Stat(srv.Socket)
		out.Cleanup = kerr == nil && os.IsNotExist(serr)
		if kerr == nil && !out.Cleanup {
			out.Cleanup = os.Remove(srv.Socket) == nil
		}
	}()
	shell := []string{"sh"}
	if bash, err := exec.LookPath("bash"); err == nil {
		shell = []string{bash, "--noprofile", "--norc"}
	}
	p, err := tool.NewPane.Run(ctx, &demo.Env, schema.NewPaneInput{Name: "demo", Size: "100x30", Command: shell})
	if err != nil {
		return out, err
	}
	// The typed line contains the awaited text, so only echo discounting
	// keeps the wait from matching the command line itself.
	out.Command = "sleep 0.5; echo PANECTL_DEMO_DONE"
	sent, err := tool.SendText.Run(ctx, &demo.Env, schema.SendTextInput{PaneID: p.PaneID, Text: out.Command, Submit: true})
	if err != nil {
		return out, err
	}
	timeout := 10.0
	w, err := tool.WaitForText.Run(ctx, &demo.Env, schema.WaitForTextInput{PaneID: p.PaneID, Patterns: schema.StringList{"PANECTL_DEMO_DONE"}, Cursor: sent.Cursor, Timeout: &timeout})
	if err != nil {
		return out, err
	}
	out.Socket, out.Wait, out.Outcome = srv.Socket, w, w.Outcome
	if !f.JSON {
		fmt.Fprintf(f.IO.ErrOut, "demo: typed %q into %s; the wait %s after %.2fs\n", out.Command, p.PaneID, w.Outcome, w.Seconds)
	}
	return out, nil
}

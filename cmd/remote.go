package cmd

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/remote"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// localOnly marks commands that never go to another host: they manage the
// remote side themselves.
const localOnly = "panectl-local"

// forward runs command c on -H's host (or $PANECTL_HOST's) and returns its
// exit code as an ExitError, which stops Cobra before the local body runs.
// It returns nil when the command runs here.
func (f *Factory) forward(c *cobra.Command, args []string) error {
	host := f.Host
	if host == "" {
		host = f.hostEnv
	}
	if host == "" || runsHere(c) {
		return nil
	}
	t, err := remote.ParseTarget(host)
	if err != nil {
		return tool.Usagef("-H: %v", err)
	}
	ssh, err := remote.NewSSH(os.Getenv)
	if err != nil {
		return err
	}
	call := remote.Call{
		Version: buildVersion().Version, Args: forwardedArgs(c, args), Env: map[string]string{},
		OutTTY: f.IO.OutTTY, ErrTTY: f.IO.ErrTTY, ErrColor: f.IO.ErrColor,
	}
	for _, k := range []string{"NO_COLOR", "TERM"} {
		if v, ok := os.LookupEnv(k); ok {
			call.Env[k] = v
		}
	}
	code, err := ssh.Run(c.Context(), t, call, f.IO.In, f.IO.Out, f.IO.ErrOut)
	if err != nil {
		return err
	}
	return &tool.ExitError{Code: code}
}

// runsHere reports whether c stays on this host whatever -H says: the
// remote and internal commands, help and completion scripts (they are
// this binary's and this shell's), and mcp --host (it serves the hosts).
func runsHere(c *cobra.Command) bool {
	for p := c; p != nil; p = p.Parent() {
		if p.Hidden || p.Annotations[localOnly] != "" || p.Name() == "help" || p.Name() == "completion" {
			return true
		}
	}
	return c.LocalFlags().Changed("host")
}

// forwardedArgs rebuilds c's command line from what Cobra parsed: the
// command path, each flag given as --name=value (-H left out), and the
// arguments, with "--" where the user put it.
func forwardedArgs(c *cobra.Command, args []string) []string {
	var path []string
	for p := c; p.HasParent(); p = p.Parent() {
		path = append([]string{p.Name()}, path...)
	}
	c.Flags().Visit(func(fl *pflag.Flag) {
		if fl.Name == "host" {
			return
		}
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				path = append(path, "--"+fl.Name+"="+v)
			}
			return
		}
		path = append(path, "--"+fl.Name+"="+fl.Value.String())
	})
	if dash := c.ArgsLenAtDash(); dash >= 0 {
		path = append(path, args[:dash]...)
		return append(append(path, "--"), args[dash:]...)
	}
	return append(path, args...)
}

// newRemoteExecCmd is the hidden command that ssh runs on the remote host;
// with --accept, a daemon's spare (remote.Daemon) serving one call from its
// socket.
func newRemoteExecCmd(f *Factory) *cobra.Command {
	var accept bool
	cmd := &cobra.Command{
		Use:    "remote-exec",
		Short:  "Serve one call from panectl -H on stdin and stdout (internal)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var in io.Reader = f.IO.In
			var out io.Writer = f.IO.Out
			if accept {
				_, _ = remote.SelfSHA256() // read now, not while a caller waits
				conn, err := remote.Accept()
				if err != nil {
					return err
				}
				defer conn.Close()
				in, out = conn, conn
			}
			code := remote.Serve(c.Context(), in, out, buildVersion().Version, interruptGrace,
				func(ctx context.Context, call remote.Call, stdin io.Reader, stdout, stderr io.Writer) int {
					for k, v := range call.Env {
						os.Setenv(k, v)
					}
					inner := &Factory{IO: IOStreams{In: stdin, Out: stdout, ErrOut: stderr,
						OutTTY: call.OutTTY, ErrTTY: call.ErrTTY, ErrColor: call.ErrColor}}
					return execute(ctx, inner, call.Args)
				})
			if code == 0 {
				return nil
			}
			return &tool.ExitError{Code: code}
		},
	}
	cmd.Flags().BoolVar(&accept, "accept", false, "serve one call from the daemon's socket (descriptor 3)")
	return cmd
}

// newRemoteDaemonCmd is the hidden command -H runs once per connection:
// it makes sure a daemon for this session listens (remote.StartDaemon) and
// prints its socket; with --serve, it is that daemon.
func newRemoteDaemonCmd() *cobra.Command {
	var serve bool
	cmd := &cobra.Command{
		Use:    "remote-daemon",
		Short:  "Start the daemon that serves calls from panectl -H, and print its socket (internal)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			if serve {
				return remote.Daemon(exe)
			}
			sha, err := remote.SelfSHA256()
			if err != nil {
				return err
			}
			path, err := remote.DaemonSocket(buildVersion().Version, sha, os.Environ())
			if err != nil {
				return err
			}
			if err := remote.StartDaemon(exe, path); err != nil {
				return err
			}
			_, err = fmt.Fprintln(c.OutOrStdout(), path)
			return err
		},
	}
	cmd.Flags().BoolVar(&serve, "serve", false, "be the daemon, on the socket at descriptor 3")
	return cmd
}

// newRemoteCmd is `panectl remote install HOST`.
func newRemoteCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:         "remote",
		Short:       "Manage panectl on other hosts (see: panectl help remote)",
		Args:        cobra.NoArgs,
		Annotations: map[string]string{localOnly: "yes"},
	}
	install := &cobra.Command{
		Use:         "install HOST",
		Short:       "Copy this panectl to HOST (same OS and architecture), for -H",
		Args:        cobra.ExactArgs(1),
		Annotations: map[string]string{localOnly: "yes"},
		RunE: func(c *cobra.Command, args []string) error {
			t, err := remote.ParseTarget(args[0])
			if err != nil {
				return tool.Usagef("%v", err)
			}
			ssh, err := remote.NewSSH(os.Getenv)
			if err != nil {
				return err
			}
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			done, err := ssh.Install(c.Context(), t, exe, buildVersion().Version)
			if err != nil {
				return err
			}
			what := "installed"
			if !done.Copied {
				what = "already installed"
			}
			fmt.Fprintf(f.IO.Out, "%s: %s %s (sha256 %s)\n", t, what, done.Path, done.SHA256)
			return nil
		},
	}
	cmd.AddCommand(install)
	return cmd
}

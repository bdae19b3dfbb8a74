package cmd

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

// Set by the release build: -ldflags "-X github.com/panectl/panectl/cmd.version=..."
var (
	version = ""
	commit  = ""
	date    = ""
)

// buildVersion reports the version from ldflags, else from the module's
// build information (go install, go run). It is read once: the root
// command and `version` both ask.
var buildVersion = sync.OnceValue(readVersion)

func readVersion() schema.VersionOutput {
	v := schema.VersionOutput{Version: version, Commit: commit, Date: date, GoVersion: runtime.Version()}
	// goreleaser's placeholders when it had no git information (a snapshot
	// without tags or remote) mean "unknown".
	if v.Commit == "none" {
		v.Commit = ""
	}
	if strings.HasPrefix(v.Date, "0001-01-01") {
		v.Date = ""
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		if v.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && v.Commit == "":
				v.Commit = s.Value
			case s.Key == "vcs.time" && v.Date == "":
				v.Date = s.Value
			}
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	return v
}

func newVersionCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print panectl's version",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			v := buildVersion()
			return f.emit(v, func(w io.Writer) {
				fmt.Fprintf(w, "panectl %s", v.Version)
				if v.Commit != "" {
					fmt.Fprintf(w, " (%.12s)", v.Commit)
				}
				fmt.Fprintf(w, " %s\n", v.GoVersion)
			})
		},
	}
}

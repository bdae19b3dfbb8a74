// Command gendocs writes panectl's man pages: one per command (section 1,
// Cobra's doc generator) and one per help topic (section 7,
// panectl-TOPIC.7). The release build runs it (.goreleaser.yaml
// before.hooks) and ships the pages in the archives:
//
//	go run ./internal/gendocs -version 1.2.3 DIR
//
// It is a separate program so the doc generator (a Markdown parser and a
// YAML library) is not linked into, or initialised by, panectl itself. The
// date comes from $SOURCE_DATE_EPOCH when set, so release pages are
// reproducible.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cpuguy83/go-md2man/v2/md2man"
	"github.com/panectl/panectl/cmd"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

func main() {
	version := flag.String("version", "", "version written into the pages (default: the binary's)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gendocs [-version V] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	root := cmd.NewRootCmd(cmd.NewFactory())
	root.InitDefaultCompletionCmd() // Cobra adds it at Execute; document it too
	if *version != "" {
		root.Version = strings.TrimPrefix(*version, "v")
	}
	if err := writeManPages(root, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func writeManPages(root *cobra.Command, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root.DisableAutoGenTag = true // no generation timestamp in the pages
	src := "panectl " + root.Version
	header := &doc.GenManHeader{Title: "PANECTL", Section: "1", Source: src, Manual: "panectl manual"}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return err
	}
	// Help topics are not commands, so GenManTree skips them: each gets a
	// section 7 page with its text kept as written (tables stay tables).
	for _, t := range root.Commands() {
		if !t.IsAdditionalHelpTopicCommand() {
			continue
		}
		h := &doc.GenManHeader{Title: "PANECTL-" + strings.ToUpper(t.Name()), Section: "7", Source: src, Manual: "panectl manual"}
		if err := writeTopicPage(t, h, filepath.Join(dir, "panectl-"+t.Name()+".7")); err != nil {
			return err
		}
	}
	return nil
}

// writeTopicPage renders a help topic as a man page: NAME, then its text
// verbatim (a code block), then SEE ALSO panectl(1).
func writeTopicPage(t *cobra.Command, h *doc.GenManHeader, file string) error {
	// GenMan fills the header's date as it does for command pages.
	if err := doc.GenMan(&cobra.Command{Use: "x", DisableAutoGenTag: true}, h, discard{}); err != nil {
		return err
	}
	date := h.Date.Format("Jan 2006")
	md := fmt.Sprintf("%% %q %q %q %q %q\n# NAME\npanectl-%s \\- %s\n\n# DESCRIPTION\n```\n%s```\n\n# SEE ALSO\n**panectl(1)**\n",
		h.Title, h.Section, date, h.Source, h.Manual, t.Name(), t.Short, t.Long)
	return os.WriteFile(file, md2man.Render([]byte(md)), 0o644)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// initBudget is the most a package's init may allocate in `panectl
// version`. One compiled pattern costs about 4 KB; big tables cost more.
const initBudget = 4 << 10

// heavyInits are the linked libraries whose init allocates more than
// initBudget, each with the package of ours that needs it. Go runs every
// linked package's init, so each costs every command its start-up.
var heavyInits = map[string]string{
	"unicode":                             "regexp and regexp2 (its tables)",
	"compress/flate":                      "net/http, through the MCP SDK",
	"encoding/gob":                        "the MCP SDK (cmd/mcp.go)",
	"net/http":                            "the MCP SDK's auth code",
	"vendor/golang.org/x/net/http2/hpack": "net/http, through the MCP SDK",
	"github.com/modelcontextprotocol/go-sdk/mcp": "cmd/mcp.go",
	"github.com/google/jsonschema-go/jsonschema": "schema: the tools' JSON Schemas",
	"github.com/dlclark/regexp2/v2/syntax":       "recognize and waiter: manifest patterns",
	"mvdan.cc/sh/v3/fileutil":                    "pane/shell: shell parsing",
	"github.com/charmbracelet/x/ansi":            "pane, waiter, journal: ANSI parsing",
	"github.com/charmbracelet/x/ansi/parser":     "charmbracelet/x/ansi",
	"github.com/sergi/go-diff/diffmatchpatch":    "pane/screendiff",
	"mvdan.cc/sh/v3/expand":                      "remote: PANECTL_SSH split as a shell would",
	"github.com/charmbracelet/ultraviolet":       "cmd/agentsview: agents --watch (Bubble Tea v2)",
	"charm.land/lipgloss/v2":                     "cmd/agentsview: agents --watch",
}

// initLine is one line of GODEBUG=inittrace=1.
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, \d+ allocs$`)

// TestStartupInits: the one-shot path (`panectl version`) runs no init of
// ours that allocates more than initBudget, and no heavier library init
// than heavyInits names. A new heavy init fails here: build it on first
// use (sync.OnceValue), or keep its library out of the binary.
func TestStartupInits(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "panectl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := exec.Command(bin, "version")
	run.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	run.Stderr = &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("panectl version: %v\n%s", err, stderr.String())
	}
	seen := map[string]bool{}
	for line := range strings.Lines(stderr.String()) {
		m := initLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		pkg, bytes := m[1], m[2]
		seen[pkg] = true
		n, _ := strconv.Atoi(bytes)
		if n <= initBudget {
			continue
		}
		switch _, known := heavyInits[pkg]; {
		case strings.HasPrefix(pkg, "github.com/panectl/panectl"):
			t.Errorf("%s allocates %d bytes at init (budget %d): build it on first use", pkg, n, initBudget)
		case !known:
			t.Errorf("%s allocates %d bytes at init, linked into every command: keep it out, or add it to heavyInits with its reason", pkg, n)
		}
	}
	if len(seen) == 0 {
		t.Fatalf("no inittrace lines on stderr:\n%s", stderr.String())
	}
	for pkg := range heavyInits {
		if !seen[pkg] {
			t.Errorf("heavyInits names %s, which is no longer linked: drop it from the list", pkg)
		}
	}
}

// TestNoPatternsAtInit: no package-level variable of ours compiles a
// pattern at start-up. Wrap it in sync.OnceValue to compile on first use.
func TestNoPatternsAtInit(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, spec := range g.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						if pos, ok := compileAtInit(v); ok {
							t.Errorf("%s: a pattern compiled at start-up; wrap it in sync.OnceValue", fset.Position(pos))
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// compileAtInit finds a regexp or regexp2 compile in e outside a function
// literal, which would run only when called.
func compileAtInit(e ast.Expr) (token.Pos, bool) {
	var at token.Pos
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && (id.Name == "regexp" || id.Name == "regexp2") &&
				strings.Contains(n.Sel.Name, "Compile") && at == token.NoPos {
				at = n.Pos()
			}
		}
		return true
	})
	return at, at != token.NoPos
}

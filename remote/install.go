package remote

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"
)

// unames are what `uname -s -m` says on a host this build runs on.
var unames = map[string][]string{
	"linux": {"Linux"}, "darwin": {"Darwin"}, "freebsd": {"FreeBSD"}, "openbsd": {"OpenBSD"}, "netbsd": {"NetBSD"},
	"amd64": {"x86_64", "amd64"}, "arm64": {"aarch64", "arm64"}, "386": {"i386", "i486", "i586", "i686"},
	"arm": {"armv6l", "armv7l", "armv7"}, "riscv64": {"riscv64"}, "ppc64le": {"ppc64le"}, "s390x": {"s390x"},
}

// versionTimeout bounds the installed binary's answer to "version".
const versionTimeout = 30 * time.Second

// Installed is what Install did.
type Installed struct {
	Path   string // the binary on the host, as a word for its shell
	SHA256 string
	Copied bool // false: the same binary was there already
}

// Install copies the binary exe (panectl of version) to InstallPath on t,
// when t's OS and architecture are this build's; else it refuses. The
// copy takes its name only once its sha256 matches, and the installed
// binary must then answer with version.
func (s SSH) Install(ctx context.Context, t Target, exe, version string) (Installed, error) {
	s.dropForwards(t) // the next call takes a session, so the installed copy wins
	path := InstallPath(version)
	if path == "" {
		return Installed{}, fmt.Errorf("version %q cannot name a file on the host", version)
	}
	if err := s.checkPlatform(ctx, t); err != nil {
		return Installed{}, err
	}
	bin, err := os.ReadFile(exe)
	if err != nil {
		return Installed{}, fmt.Errorf("reading this panectl: %w", err)
	}
	sum := sha256.Sum256(bin)
	in := Installed{Path: path, SHA256: hex.EncodeToString(sum[:])}
	have, err := s.output(ctx, t, nil, script(`f=`+path+`; [ ! -f "$f" ] || { sha256sum "$f" 2>/dev/null || shasum -a 256 "$f"; }`))
	if err != nil {
		return in, err
	}
	if !strings.HasPrefix(have, in.SHA256+" ") {
		in.Copied = true
		_, err = s.output(ctx, t, bytes.NewReader(bin), script(`set -e; umask 077; d=`+InstallDir+`; mkdir -p "$d"; f="$d/.panectl-`+version+`.$$"; `+
			`trap "rm -f \"$f\"" EXIT; cat > "$f"; chmod 700 "$f"; `+
			`h=$( { sha256sum "$f" 2>/dev/null || shasum -a 256 "$f"; } | cut -c1-64); `+
			`[ "$h" = `+in.SHA256+` ] || { echo "the sha256 of the copy is $h, not `+in.SHA256+`" >&2; exit 1; }; mv -f "$f" `+path))
		if err != nil {
			return in, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	said, err := s.output(ctx, t, nil, path, "version")
	if err != nil {
		return in, err
	}
	if want := "panectl " + version + " "; !strings.HasPrefix(said, want) {
		return in, fmt.Errorf("the installed %s says %q, not panectl %s", path, strings.TrimSpace(said), version)
	}
	return in, nil
}

// checkPlatform refuses a host whose uname is not this build's.
func (s SSH) checkPlatform(ctx context.Context, t Target) error {
	out, err := s.output(ctx, t, nil, "uname", "-s", "-m")
	if err != nil {
		return err
	}
	f := strings.Fields(out)
	if len(f) != 2 || !slices.Contains(unames[runtime.GOOS], f[0]) || !slices.Contains(unames[runtime.GOARCH], f[1]) {
		return fmt.Errorf("%s is %q and this panectl is built for %s/%s: put a panectl of this version built for that host (a release archive) on its PATH",
			t, strings.TrimSpace(out), runtime.GOOS, runtime.GOARCH)
	}
	return nil
}

// script is sh -c with text as one word for the remote login shell.
func script(text string) string {
	if strings.Contains(text, "'") {
		panic("remote: a script with a single quote: " + text)
	}
	return "sh -c '" + text + "'"
}

// output runs words on t with stdin and returns its stdout; a failure is
// an *Error with what ssh or the command said.
func (s SSH) output(ctx context.Context, t Target, stdin io.Reader, words ...string) (string, error) {
	c := s.command(ctx, t, words...)
	c.Stdin = stdin
	var stdout, stderr bytes.Buffer
	c.Stdout = &stdout
	c.Stderr = &limitWriter{w: &stderr, n: 64 << 10}
	c.WaitDelay = killAfter
	err := c.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return "", &Error{Target: t, Code: ee.ExitCode(), Stderr: stderr.String()}
	case err != nil:
		return "", &Error{Target: t, Code: -1, Stderr: err.Error()}
	}
	return stdout.String(), nil
}

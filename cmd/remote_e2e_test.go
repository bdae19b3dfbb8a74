package cmd_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/panectl/panectl/internal/sshdtest"
	"github.com/panectl/panectl/internal/tmuxtest"
)

// These tests run panectl -H against a private sshd on 127.0.0.1
// (internal/sshdtest) whose sessions find this test binary as panectl.

// remoteEnv is a private sshd and the environment that reaches it:
// PANECTL_SSH with its config, a private directory of control sockets.
type remoteEnv struct {
	sshd    *sshdtest.Server
	env     []string
	runtime string // $XDG_RUNTIME_DIR: the control sockets are under it
}

func startRemote(t *testing.T) *remoteEnv {
	t.Helper()
	bin, err := exec.LookPath("panectl")
	if err != nil {
		t.Fatal(err)
	}
	return startRemoteWith(t, filepath.Dir(bin)+":"+os.Getenv("PATH"))
}

// startRemoteWith starts an sshd whose sessions have path as $PATH.
func startRemoteWith(t *testing.T, path string) *remoteEnv {
	t.Helper()
	sshd := sshdtest.Start(t, path)
	runtime := t.TempDir()
	r := &remoteEnv{sshd: sshd, runtime: runtime, env: append(os.Environ(), "TMUX=", "TMUX_PANE=", "PANECTL_HOST=",
		"PANECTL_SSH="+sshd.SSH(), "XDG_RUNTIME_DIR="+runtime)}
	t.Cleanup(func() {
		// end the connection masters (ControlPersist) this test started
		for _, sock := range r.controlSockets() {
			_ = exec.Command("ssh", "-F", sshd.Config, "-o", "ControlPath="+sock, "-O", "exit", "local").Run()
		}
	})
	return r
}

// controlSockets are the ssh connections' control sockets, not the
// forwards to remote daemons beside them (NAME-HASH.d).
func (r *remoteEnv) controlSockets() []string {
	all, _ := filepath.Glob(filepath.Join(r.runtime, "panectl", "ssh", "*"))
	return slices.DeleteFunc(all, func(p string) bool { return strings.Contains(filepath.Base(p), ".") })
}

// panectl runs panectl ARGS with stdin in and returns its exit code,
// stdout and stderr.
func (r *remoteEnv) panectl(t *testing.T, in string, args ...string) (int, string, string) {
	t.Helper()
	bin, _ := exec.LookPath("panectl")
	c := exec.Command(bin, args...)
	c.Env = r.env
	c.Stdin = strings.NewReader(in)
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	code, _ := waitExit(t, c, 60*time.Second)
	return code, stdout.String(), stderr.String()
}

// tour runs the README tour on the server at socket, through host when
// it is not empty, and returns each step's exit code and output.
func (r *remoteEnv) tour(t *testing.T, socket, cwd, host string) []string {
	t.Helper()
	pre := []string{"-S", socket}
	if host != "" {
		pre = append([]string{"-H", host}, pre...)
	}
	var got []string
	step := func(in string, args ...string) string {
		code, out, errOut := r.panectl(t, in, append(pre, args...)...)
		got = append(got, strings.Join(args, " ")+"\n"+
			fmt.Sprintf("exit %d\n", code)+out+"\n--stderr--\n"+errOut)
		return strings.TrimSpace(out)
	}
	p := step("", "new", "--cwd", cwd, "--size", "80x20", "--env", "PS1=$ ", "--", "bash", "--norc", "--noprofile")
	c := step("", "send-text", p, "echo 'tour ''quoted'' $HOME; x'", "--submit")
	step("", "wait-for-text", p, "--cursor", c, "--pattern", "tour quoted")
	step("", "wait-for-text", p, "--regex", "--pattern", `[$#] ?$`, "--cursor", "screen")
	step("", "run", p, "printf 'a b\\n' && (exit 3)")
	step("", "--json", "run", p, "(exit 3)")
	step("piped text", "send-text", p, "--stdin")
	step("", "screen", p)
	step("", "kill", p)
	return got
}

// varying hides what differs between any two runs of the tour, local or
// not: cursors (they name their server), run's seconds and its end marker.
var varying = regexpReplacer{
	regexp.MustCompile(`pc[12][A-Za-z0-9_-]+`):      "CURSOR",
	regexp.MustCompile(`"seconds":[0-9.e-]+`):       `"seconds":S`,
	regexp.MustCompile(`ANECTL:(B|E):[0-9a-f]{16}`): "ANECTL:$1:MARK",
}

type regexpReplacer map[*regexp.Regexp]string

func (r regexpReplacer) Replace(s string) string {
	for re, with := range r {
		s = re.ReplaceAllString(s, with)
	}
	return s
}

func TestRemoteTourSameAsLocal(t *testing.T) {
	r := startRemote(t)
	here, there := tmuxtest.New(t), tmuxtest.New(t)
	cwd := t.TempDir()
	local := r.tour(t, here.Socket, cwd, "")
	if testing.Verbose() {
		t.Logf("the tour:\n%s", strings.Join(local, "\n"))
	}
	remote := r.tour(t, there.Socket, cwd, "local")
	for i := range local {
		if varying.Replace(local[i]) != varying.Replace(remote[i]) {
			t.Errorf("step %d differs over -H:\nlocal:\n%s\nremote:\n%s", i, local[i], remote[i])
		}
	}
	if socks := r.controlSockets(); len(socks) != 1 {
		t.Errorf("want one shared ssh connection, have control sockets %q", socks)
	}
	if c := there.Clients(); len(c) != 0 {
		t.Errorf("clients left attached on the remote server: %q", c)
	}
}

// ssh's own failures are exit 1 with ssh's message and what to do; the
// remote command's status, 255 included, is never taken for one.
func TestRemoteExitCodes(t *testing.T) {
	r := startRemote(t)
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "bash", "--norc", "--noprofile")
	code, out, errOut := r.panectl(t, "", "-H", "local", "-S", s.Socket, "run", p.ID, "echo ran && (exit 255)")
	if code != 255 || out != "ran\n" || errOut != "" {
		t.Errorf("run (exit 255) over -H: exit %d, stdout %q, stderr %q; want 255, \"ran\\n\", nothing", code, out, errOut)
	}
	code, _, errOut = r.panectl(t, "", "-H", "local", "-S", s.Socket, "--json", "kill", "%99")
	if code != 4 || !strings.Contains(errOut, `"exit_code":4`) {
		t.Errorf("kill %%99 over -H: exit %d, stderr %q; want 4 with the JSON error", code, errOut)
	}
	code, _, _ = r.panectl(t, "", "-H", "local", "-S", s.Socket, "wait-for-text", p.ID, "--pattern", "never", "--timeout", "0.2")
	if code != 124 {
		t.Errorf("a wait that times out over -H: exit %d, want 124", code)
	}
}

func TestRemoteWrongHostKey(t *testing.T) {
	r := startRemote(t)
	s := tmuxtest.New(t)
	r.sshd.NewKey(t, "other")
	r.sshd.WriteKnownHosts(t, "other.pub")
	before := s.Tmux("list-panes", "-a", "-F", "#{pane_id}")
	code, out, errOut := r.panectl(t, "", "-H", "local", "-S", s.Socket, "new")
	if code != 1 || out != "" || !strings.Contains(errOut, "does not match the one in known_hosts") || !strings.Contains(errOut, "Host key verification failed") {
		t.Errorf("wrong host key: exit %d, stdout %q, stderr %q; want 1 naming the mismatch", code, out, errOut)
	}
	if after := s.Tmux("list-panes", "-a", "-F", "#{pane_id}"); after != before {
		t.Errorf("panes changed though ssh failed: %q, were %q", after, before)
	}
}

func TestRemoteUnreachablePort(t *testing.T) {
	r := startRemote(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now
	start := time.Now()
	code, _, errOut := r.panectl(t, "", "-H", fmt.Sprintf("127.0.0.1:%d", port), "list")
	if took := time.Since(start); code != 1 || took > 5*time.Second || !strings.Contains(errOut, "cannot be reached") {
		t.Errorf("closed port: exit %d after %v, stderr %q; want 1 within 5 s saying so", code, took, errOut)
	}
	code, _, errOut = r.panectl(t, "", "-H", fmt.Sprintf("127.0.0.1:%d", port), "--json", "list")
	var obj struct {
		Error struct {
			ExitCode int `json:"exit_code"`
		}
	}
	if code != 1 || json.Unmarshal([]byte(errOut), &obj) != nil || obj.Error.ExitCode != 1 {
		t.Errorf("closed port with --json: exit %d, stderr %q; want 1 and the JSON error", code, errOut)
	}
}

// SIGINT reaches the remote call, which cleans up there (its control
// client detached) and exits 130.
func TestRemoteInterrupt(t *testing.T) {
	r := startRemote(t)
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "cat")
	bin, _ := exec.LookPath("panectl")
	c := exec.Command(bin, "-H", "local", "-S", s.Socket, "wait-for-text", p.ID, "--pattern", "never", "--timeout", "60")
	c.Env = r.env
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitClients(t, s, 1)
	if err := c.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	code, _ := waitExit(t, c, 3*time.Second)
	if code != 130 {
		t.Errorf("interrupted wait over -H: exit %d, stderr %q; want 130", code, stderr.String())
	}
	waitClients(t, s, 0)
}

// After the first call over a connection, calls go through the host's
// daemon (forwarded over that connection), with the same results; ssh
// itself is not run for them. A daemon that is gone is replaced.
func TestRemoteDaemon(t *testing.T) {
	r := startRemote(t)
	s := tmuxtest.New(t)
	p := s.NewPane([2]int{80, 24}, "bash", "--norc", "--noprofile")
	if code, out, errOut := r.panectl(t, "", "-H", "local", "-S", s.Socket, "run", p.ID, "echo first"); code != 0 || out != "first\n" {
		t.Fatalf("first call over -H: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	forwards, _ := filepath.Glob(filepath.Join(r.runtime, "panectl", "ssh", "*.d"))
	failed, _ := filepath.Glob(filepath.Join(r.runtime, "panectl", "ssh", "*.failed"))
	daemons, _ := filepath.Glob(filepath.Join(r.sshd.Home, ".local", "state", "panectl", "remote", "d-*.sock"))
	if len(forwards) != 1 || len(failed) != 0 || len(daemons) != 1 {
		t.Fatalf("after one call: forwards %q, failures %q, remote daemons %q; want one forward to one daemon", forwards, failed, daemons)
	}
	// no ssh from here on: only the forward can serve these
	viaDaemon := &remoteEnv{sshd: r.sshd, runtime: r.runtime, env: append(slices.Clone(r.env), "PANECTL_SSH=false")}
	if code, out, errOut := viaDaemon.panectl(t, "", "-H", "local", "-S", s.Socket, "run", p.ID, "echo second; (exit 3)", "--allow-multi"); code != 3 || out != "second\n" || errOut != "" {
		t.Errorf("run (exit 3) through the daemon: exit %d, stdout %q, stderr %q; want 3, \"second\\n\", nothing", code, out, errOut)
	}
	if code, _, errOut := viaDaemon.panectl(t, "echo pi''ped", "-H", "local", "-S", s.Socket, "send-text", p.ID, "--stdin", "--submit"); code != 0 {
		t.Errorf("send-text --stdin through the daemon: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := viaDaemon.panectl(t, "", "-H", "local", "-S", s.Socket, "wait-for-text", p.ID, "--pattern", "piped", "--cursor", "history", "--timeout", "10"); code != 0 {
		t.Errorf("wait-for-text through the daemon: exit %d, stderr %q", code, errOut)
	}
	bin, _ := exec.LookPath("panectl")
	c := exec.Command(bin, "-H", "local", "-S", s.Socket, "wait-for-text", p.ID, "--pattern", "never", "--timeout", "60")
	c.Env = viaDaemon.env
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitClients(t, s, 1)
	if err := c.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code, _ := waitExit(t, c, 3*time.Second); code != 130 {
		t.Errorf("interrupted wait through the daemon: exit %d, want 130", code)
	}
	waitClients(t, s, 0)
	// a pane made through the daemon starts where a session starts: $HOME
	if code, out, errOut := viaDaemon.panectl(t, "", "-H", "local", "-S", s.Socket, "new", "--", "sh"); code != 0 {
		t.Errorf("new through the daemon: exit %d, stderr %q", code, errOut)
	} else if cwd := s.Tmux("display-message", "-p", "-t", strings.TrimSpace(out), "#{pane_current_path}"); cwd != r.sshd.Home {
		t.Errorf("new through the daemon started in %q, want the session's %q", cwd, r.sshd.Home)
	}
	// the daemon exits once its socket is gone; the next call takes a
	// session of its own and starts another
	if err := os.Remove(daemons[0]); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := viaDaemon.panectl(t, "", "-H", "local", "-S", s.Socket, "run", p.ID, "true"); code != 1 || !strings.Contains(errOut, "ssh") {
		t.Errorf("with the daemon gone and no ssh: exit %d, stderr %q; want 1 naming ssh", code, errOut)
	}
	if code, out, errOut := r.panectl(t, "", "-H", "local", "-S", s.Socket, "run", p.ID, "echo again"); code != 0 || out != "again\n" {
		t.Errorf("with the daemon gone: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, out, errOut := viaDaemon.panectl(t, "", "-H", "local", "-S", s.Socket, "run", p.ID, "echo new daemon"); code != 0 || out != "new daemon\n" {
		t.Errorf("through the new daemon: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// remote install drops the forwards: the next call runs the installed copy
	if code, _, errOut := r.panectl(t, "", "remote", "install", "local"); code != 0 {
		t.Fatalf("remote install: exit %d, stderr %q", code, errOut)
	}
	if forwards, _ := filepath.Glob(filepath.Join(r.runtime, "panectl", "ssh", "*.d")); len(forwards) != 0 {
		t.Errorf("forwards left after remote install: %q", forwards)
	}
}

// remote install copies this panectl to the host, checked by sha256, and
// -H uses it there; a host without panectl says what to do.
func TestRemoteInstall(t *testing.T) {
	r := startRemoteWith(t, "/usr/local/bin:/usr/bin:/bin")
	// the copy is this test binary: it runs panectl only under a name that
	// TestMain maps (else it would run these tests again, there)
	if _, out, _ := r.panectl(t, "", "version"); !strings.HasPrefix(out, "panectl dev ") {
		t.Fatalf("panectl version says %q: TestMain maps only panectl-dev", out)
	}
	s := tmuxtest.New(t)
	code, _, errOut := r.panectl(t, "", "-H", "local", "-S", s.Socket, "list")
	if code != 1 || !strings.Contains(errOut, "panectl remote install local") {
		t.Errorf("-H before install: exit %d, stderr %q; want 1 saying to install", code, errOut)
	}
	code, out, errOut := r.panectl(t, "", "remote", "install", "local")
	if code != 0 || !strings.HasPrefix(out, "local: installed ") {
		t.Fatalf("remote install: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	bins, _ := filepath.Glob(filepath.Join(r.sshd.Home, ".local/share/panectl/bin/panectl-*"))
	if len(bins) != 1 || filepath.Base(bins[0]) != "panectl-dev" {
		t.Fatalf("installed %q, want panectl-dev (the test binary's version), which TestMain runs as panectl", bins)
	}
	fi, err := os.Stat(bins[0])
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("installed binary: %v, %v; want mode 0700", fi, err)
	}
	if code, out, errOut := r.panectl(t, "", "-H", "local", "-S", s.Socket, "list"); code != 0 || !strings.Contains(out, "keep") {
		t.Errorf("-H after install: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, out, _ := r.panectl(t, "", "remote", "install", "local"); code != 0 || !strings.HasPrefix(out, "local: already installed ") {
		t.Errorf("a second install: exit %d, stdout %q; want already installed", code, out)
	}
	// another build under the installed name (it still runs) is refused
	self, err := os.ReadFile(bins[0])
	if err != nil {
		t.Fatal(err)
	}
	r.replaceRemote(t, bins[0], append(self, "another build"...))
	code, _, errOut = r.panectl(t, "", "-H", "local", "-S", s.Socket, "list")
	if code != 1 || !strings.Contains(errOut, "not the caller's build") {
		t.Errorf("-H with another build installed: exit %d, stderr %q; want 1 saying so", code, errOut)
	}
	// a damaged binary does not match: install copies it again
	r.replaceRemote(t, bins[0], []byte("#!/bin/sh\necho damaged\n"))
	if code, out, _ := r.panectl(t, "", "remote", "install", "local"); code != 0 || !strings.HasPrefix(out, "local: installed ") {
		t.Errorf("install over a damaged binary: exit %d, stdout %q; want installed", code, out)
	}
}

// replaceRemote puts data at path on the host, as another build would be
// put there (a new file under the name). The daemons there are stopped
// first (their sockets removed): the panectl each keeps waiting is the
// build it started from, which would still serve.
func (r *remoteEnv) replaceRemote(t *testing.T, path string, data []byte) {
	t.Helper()
	socks, _ := filepath.Glob(filepath.Join(r.sshd.Home, ".local", "state", "panectl", "remote", "d-*.sock"))
	for _, sock := range socks {
		if err := os.Remove(sock); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path+".new", data, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
}

// A host of another OS or architecture is refused: nothing is copied.
func TestRemoteInstallRefusesAnotherPlatform(t *testing.T) {
	fake := t.TempDir()
	if err := os.WriteFile(filepath.Join(fake, "uname"), []byte("#!/bin/sh\necho Linux sparc64\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := startRemoteWith(t, fake+":/usr/bin:/bin")
	code, _, errOut := r.panectl(t, "", "remote", "install", "local")
	if code != 1 || !strings.Contains(errOut, `"Linux sparc64"`) {
		t.Errorf("install on sparc64: exit %d, stderr %q; want 1 naming the platform", code, errOut)
	}
	if bins, _ := filepath.Glob(filepath.Join(r.sshd.Home, ".local/share/panectl/bin/*")); len(bins) != 0 {
		t.Errorf("copied %q to a host of another platform", bins)
	}
}

// mcp --host local --host self: one MCP server, two hosts (two aliases of
// one sshd, each with its own tmux server for -L t), ids qualified.
func TestRemoteMCPHosts(t *testing.T) {
	r := startRemote(t)
	for _, host := range sshdtest.Aliases {
		dir := r.sshd.TmuxTmpdir(host)
		c := exec.Command("tmux", "-L", "t", "-f", "/dev/null", "new-session", "-d", "-s", "on-"+host, "-x", "80", "-y", "24",
			"env", "PS1=$ ", "bash", "--norc", "--noprofile")
		c.Env = append(os.Environ(), "TMUX_TMPDIR="+dir, "TMUX=")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("tmux: %v: %s", err, out)
		}
		t.Cleanup(func() {
			c := exec.Command("tmux", "-L", "t", "kill-server")
			c.Env = append(os.Environ(), "TMUX_TMPDIR="+dir, "TMUX=")
			_ = c.Run()
		})
	}
	bin, _ := exec.LookPath("panectl")
	c := exec.Command(bin, "-L", "t", "mcp", "--host", "local", "--host", "self")
	c.Env = r.env
	m := startMCPCmd(t, c)
	list := m.structuredCall(t, 2, "list_panes", map[string]any{})
	var got []string
	for _, p := range list["panes"].([]any) {
		p := p.(map[string]any)
		got = append(got, p["pane_id"].(string)+" "+p["session_name"].(string))
	}
	slices.Sort(got)
	if want := []string{"local:%0 on-local", "self:%0 on-self"}; !slices.Equal(got, want) {
		t.Errorf("list_panes over two hosts: %q, want %q", got, want)
	}
	run := m.structuredCall(t, 3, "run_shell_command", map[string]any{"pane_id": "self:%0", "command": "echo on $TMUX_TMPDIR"})
	if run["pane_id"] != "self:%0" || run["exit_code"] != 0.0 || fmt.Sprint(run["output"]) != "[on "+r.sshd.TmuxTmpdir("self")+"]" {
		t.Errorf("run_shell_command on self:%%0: %v", run)
	}
	// a wait's progress comes back from its host, with the caller's token
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": map[string]any{
		"name": "wait_for_text", "arguments": map[string]any{"pane_id": "local:%0", "patterns": []string{"never"}, "timeout": 1.5},
		"_meta": map[string]any{"progressToken": "tok"}}})
	var progress []string
	for v := m.next(t, 10*time.Second); v["id"] != 5.0; v = m.next(t, 10*time.Second) {
		if p, _ := v["params"].(map[string]any); v["method"] == "notifications/progress" && p["progressToken"] == "tok" {
			progress = append(progress, fmt.Sprint(p["message"]))
		}
	}
	if len(progress) == 0 || !strings.HasPrefix(progress[0], "host local: ") {
		t.Errorf("progress of a 1.5 s wait on local:%%0: %q, want notifications naming the host", progress)
	}
	res := m.request(t, 4, "tools/call", map[string]any{"name": "kill_pane", "arguments": map[string]any{"pane_id": "%0"}})
	if res["isError"] != true || !strings.Contains(fmt.Sprint(res["content"]), "HOST:ID") {
		t.Errorf("an unqualified pane id: %v, want an error asking for HOST:ID", res)
	}
}

// A host that cannot be reached fails only its own calls: list_panes
// names it in its note, the other host's calls work.
func TestRemoteMCPHostAway(t *testing.T) {
	r := startRemote(t)
	s := tmuxtest.New(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	away := l.Addr().String()
	l.Close()
	bin, _ := exec.LookPath("panectl")
	c := exec.Command(bin, "-S", s.Socket, "mcp", "--host", "local", "--host", away)
	c.Env = r.env
	m := startMCPCmd(t, c)
	list := m.structuredCall(t, 2, "list_panes", map[string]any{})
	if panes, _ := list["panes"].([]any); len(panes) != 1 || !strings.Contains(fmt.Sprint(list["note"]), "host "+away) {
		t.Errorf("list_panes with %s away: %v, want local's pane and a note naming %s", away, list, away)
	}
	res := m.request(t, 3, "tools/call", map[string]any{"name": "cursor", "arguments": map[string]any{"pane_id": away + ":%0"}})
	if res["isError"] != true || !strings.Contains(fmt.Sprint(res["content"]), "cannot be reached") {
		t.Errorf("a call on the host away: %v, want an error saying it cannot be reached", res)
	}
	if cur := m.structuredCall(t, 4, "cursor", map[string]any{"pane_id": "local:%0"}); cur["pane_id"] != "local:%0" {
		t.Errorf("cursor on local:%%0: %v", cur)
	}
}

// startMCPCmd starts c (a panectl mcp) and initializes the session.
func startMCPCmd(t *testing.T, c *exec.Cmd) *mcpLines {
	t.Helper()
	in, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	m := &mcpLines{in: in, lines: make(chan map[string]any, 10)}
	t.Cleanup(func() {
		in.Close()
		if code, _ := waitExit(t, c, 10*time.Second); code != 0 {
			t.Errorf("panectl mcp exited %d: %s", code, stderr.String())
		}
	})
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var v map[string]any
			if json.Unmarshal(sc.Bytes(), &v) == nil {
				m.lines <- v
			}
		}
		close(m.lines)
	}()
	m.request(t, 1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "t", "version": "0"}})
	m.send(t, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return m
}

// request sends a JSON-RPC request and returns its result.
func (m *mcpLines) request(t *testing.T, id int, method string, params any) map[string]any {
	t.Helper()
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	for {
		v := m.next(t, 60*time.Second)
		if v["id"] == float64(id) {
			res, _ := v["result"].(map[string]any)
			if res == nil {
				t.Fatalf("%s: %v", method, v)
			}
			return res
		}
	}
}

// structuredCall calls a tool and returns its structured result.
func (m *mcpLines) structuredCall(t *testing.T, id int, name string, args map[string]any) map[string]any {
	t.Helper()
	res := m.request(t, id, "tools/call", map[string]any{"name": name, "arguments": args})
	out, _ := res["structuredContent"].(map[string]any)
	if res["isError"] == true || out == nil {
		t.Fatalf("%s: %v", name, res)
	}
	return out
}

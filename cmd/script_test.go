package cmd_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/panectl/panectl/cmd"
	"github.com/panectl/panectl/internal/tmuxtest"
	"github.com/rogpeppe/go-internal/testscript"
)

// The end-to-end scripts run the real panectl binary (this test binary,
// re-executed as "panectl") against a real tmux server on a private socket:
// each script gets its own $TMUX_TMPDIR, so `panectl -L t` is private to it,
// and the server is killed and its socket removed when the script ends.

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"panectl":     func() { os.Exit(cmd.Main()) },
		"panectl-dev": func() { os.Exit(cmd.Main()) }, // as `remote install` names it (remote_e2e_test.go)
		"burst-stub":  burstStub,
		"slow-stub":   slowStub,
		"dialog-stub": dialogStub,
		"agent-stub":  agentStub,
		"answer-stub": answerStub,
	})
}

// shells are the interactive shells scripts under testdata/shell run in:
// the command that starts each without user configuration.
var shells = map[string]string{
	"bash": "bash --norc --noprofile",
	"zsh":  "zsh -f",
	"fish": "fish --no-config",
	"dash": "dash",
}

func requireTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is required for the end-to-end tests (scripts/test.sh installs it)")
	}
}

func TestScripts(t *testing.T) {
	requireTmux(t)
	testscript.Run(t, quick(t, params("testdata/script", "bash")))
}

func TestShellScripts(t *testing.T) {
	requireTmux(t)
	shells := []string{"bash"}
	if e2e {
		shells = append(shells, "zsh", "fish", "dash")
	}
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			if _, err := exec.LookPath(sh); err != nil {
				t.Fatalf("%s is required (scripts/test.sh installs it)", sh)
			}
			testscript.Run(t, quick(t, params("testdata/shell", sh)))
		})
	}
}

// slowScripts took 7 s or more each on a loaded 2-core machine (go test
// -json). Plain go test leaves them out to stay quick; -tags e2e runs them.
var slowScripts = map[string]bool{
	"script/echo-cleared-draft": true,
	"script/progress":           true,
	"script/ready":              true,
	"script/several-turn":       true,
	"script/submit":             true,
	"script/submit-slow":        true,
	"script/task-bounds":        true,
	"script/task-follow":        true,
	"script/task-journal":       true,
	"script/task-orphan":        true,
	"script/turn":               true,
	"script/turn-keylate":       true,
	"script/turn-keypress":      true,
}

// quick returns p without the slow scripts of its directory, unless the
// e2e tag is set. A listed script that is missing fails the test.
func quick(t *testing.T, p testscript.Params) testscript.Params {
	t.Helper()
	set := filepath.Base(p.Dir)
	for name := range slowScripts {
		dir, base := filepath.Split(name)
		if filepath.Clean(dir) != set {
			continue
		}
		if _, err := os.Stat(filepath.Join(p.Dir, base+".txtar")); err != nil {
			t.Fatalf("slowScripts names %s: %v", name, err)
		}
	}
	if e2e {
		return p
	}
	files, err := filepath.Glob(filepath.Join(p.Dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in %s (%v)", p.Dir, err)
	}
	p.Files = nil
	for _, f := range files {
		if !slowScripts[set+"/"+strings.TrimSuffix(filepath.Base(f), ".txtar")] {
			p.Files = append(p.Files, f)
		}
	}
	p.Dir = ""
	return p
}

func params(dir, shell string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			tmp, err := os.MkdirTemp("", "pctl")
			if err != nil {
				return err
			}
			env.Setenv("TMUX_TMPDIR", tmp)
			// tmux's socket directory for -L (tmux(1): $TMUX_TMPDIR/tmux-UID)
			env.Setenv("SOCKDIR", filepath.Join(tmp, fmt.Sprintf("tmux-%d", os.Getuid())))
			env.Setenv("TMUX", "")
			env.Setenv("TMUX_PANE", "")
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			env.Setenv("SH", shell)
			env.Setenv("SHELLCMD", shells[shell])
			env.Setenv("PS1", "$ ")
			env.Setenv("TERM", "xterm-256color")
			env.Setenv("LANG", "C.UTF-8")
			env.Setenv("LC_ALL", "C.UTF-8")
			// a tmux older than panectl's minimum (scripts/test.sh builds
			// Debian 11's 3.1c): the [oldtmux] scripts run only with it
			env.Setenv("OLD_TMUX", os.Getenv("PANECTL_TEST_OLD_TMUX"))
			env.Defer(func() {
				// Every server the script started has its socket in tmp:
				// kill each (by path: the test's own $TMUX_TMPDIR is not
				// the script's), then remove the directory.
				socks, _ := filepath.Glob(filepath.Join(tmp, "tmux-*", "*"))
				for _, sock := range socks {
					_ = exec.Command("tmux", "-S", sock, "kill-server").Run()
				}
				os.RemoveAll(tmp)
			})
			return nil
		},
		// [sh:NAME]: the script runs in shell NAME (testdata/shell scripts);
		// [tmux:3.6]: the tmux tests run is 3.6 or newer; [oldtmux]:
		// $PANECTL_TEST_OLD_TMUX names a tmux below the minimum
		Condition: func(cond string) (bool, error) {
			if name, ok := strings.CutPrefix(cond, "sh:"); ok {
				return name == shell, nil
			}
			if cond == "oldtmux" {
				return os.Getenv("PANECTL_TEST_OLD_TMUX") != "", nil
			}
			if min, ok := strings.CutPrefix(cond, "tmux:"); ok {
				return tmuxtest.AtLeast(min)
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"sleep":        cmdSleep,
			"jsonfield":    cmdJSONField,
			"tmux":         cmdTmux,
			"newshell":     cmdNewShell,
			"writefile":    cmdWriteFile,
			"envstdout":    cmdEnvStdout,
			"code":         cmdCode,
			"validate":     cmdValidate,
			"maxrss":       cmdMaxRSS,
			"noproc":       cmdNoProc,
			"jsoncount":    cmdJSONCount,
			"waitpanes":    cmdWaitPanes,
			"waitshown":    cmdWaitShown,
			"waitformat":   cmdWaitFormat,
			"waitfile":     cmdWaitFile,
			"waitproc":     cmdWaitProc,
			"waitclients":  cmdWaitClients,
			"waitnoserver": cmdWaitNoServer,
		},
	}
}

// maxrss MIB CODE panectl ARGS...: run panectl, which must exit CODE with a
// peak resident set size (ru_maxrss) under MIB MiB. Linux counts in a
// child's ru_maxrss the peak of the process it was started from, when that
// shares its memory until exec (Go starts children so): the test binary's
// own peak. So panectl is started from a small python3, which reports it.
func cmdMaxRSS(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 3 || args[2] != "panectl" {
		ts.Fatalf("usage: maxrss MIB CODE panectl ARGS...")
	}
	limit, err := strconv.Atoi(args[0])
	ts.Check(err)
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	const report = `import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)`
	c := exec.Command("python3", append([]string{"-c", report, lookPanectl(ts)}, args[3:]...)...)
	c.Env = panectlEnv(ts)
	c.Dir = ts.Getenv("WORK")
	out, err := c.Output()
	if err != nil {
		ts.Fatalf("python3 running panectl: %v", err)
	}
	var got int
	var kib float64
	if _, err := fmt.Sscan(string(out), &got, &kib); err != nil {
		ts.Fatalf("python3 said %q: %v", out, err)
	}
	if got != want {
		ts.Fatalf("panectl %s exited %d, want %d", strings.Join(args[3:], " "), got, want)
	}
	mib := kib / 1024 // Linux: kilobytes
	ts.Logf("peak RSS %.1f MiB", mib)
	if mib >= float64(limit) {
		ts.Fatalf("panectl %s peaked at %.1f MiB, want under %d MiB", strings.Join(args[3:], " "), mib, limit)
	}
}

// sleep SECONDS
func cmdSleep(ts *testscript.TestScript, neg bool, args []string) {
	d, err := strconv.ParseFloat(args[0], 64)
	ts.Check(err)
	time.Sleep(time.Duration(d * float64(time.Second)))
}

// tmux ARGS...: run tmux on the script's private server (-L t); stdout and
// stderr become the script's.
func cmdTmux(ts *testscript.TestScript, neg bool, args []string) {
	c := exec.Command("tmux", append([]string{"-L", "t"}, args...)...)
	c.Env = append(os.Environ(), "TMUX_TMPDIR="+ts.Getenv("TMUX_TMPDIR"), "TMUX=")
	var out, errb strings.Builder
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	ts.Logf("tmux %s\n%s%s", strings.Join(args, " "), out.String(), errb.String())
	if (err != nil) != neg {
		ts.Fatalf("tmux %s: %v %s", strings.Join(args, " "), err, errb.String())
	}
	// expose the output to stdout/stderr assertions
	ts.Check(os.WriteFile(ts.MkAbs(".tmux.out"), []byte(out.String()), 0o644))
}

// newshell VAR [SIZE]: start $SHELLCMD in a new session, wait for its
// prompt, and set $VAR to the pane id.
func cmdNewShell(ts *testscript.TestScript, neg bool, args []string) {
	size := "80x24"
	if len(args) > 1 {
		size = args[1]
	}
	argv := []string{"-L", "t", "new", "--size", size, "--cwd", ts.Getenv("WORK"), "--"}
	argv = append(argv, strings.Fields(ts.Getenv("SHELLCMD"))...)
	id := strings.TrimSpace(runPanectl(ts, argv...))
	ts.Setenv(args[0], id)
	// wait for the first prompt (any shell: it ends in $ % # or >)
	runPanectl(ts, "-L", "t", "wait-for-text", id, "--cursor", "history", "--regex", "--pattern", `[$%#>] ?$`, "--timeout", "10")
}

func runPanectl(ts *testscript.TestScript, args ...string) string {
	bin := lookPanectl(ts)
	c := exec.Command(bin, args...)
	c.Env = panectlEnv(ts)
	out, err := c.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		ts.Fatalf("panectl %s: %v %s", strings.Join(args, " "), err, msg)
	}
	return string(out)
}

// lookPanectl finds the panectl command testscript put on the script's PATH.
func lookPanectl(ts *testscript.TestScript) string {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, "panectl")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	ts.Fatalf("panectl is not on the script's PATH")
	return ""
}

// panectlEnv is the script's environment for a re-executed panectl.
func panectlEnv(ts *testscript.TestScript) []string {
	env := os.Environ()
	for _, k := range []string{"TMUX_TMPDIR", "HOME", "XDG_CONFIG_HOME", "PS1", "TERM", "LANG", "LC_ALL"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	env = append(env, "TMUX=", "TMUX_PANE=", "TESTSCRIPT_COMMAND=panectl")
	return env
}

// jsonfield FIELD REGEXP: the last stdout's JSON object has FIELD (a dotted
// path) whose JSON encoding matches REGEXP.
func cmdJSONField(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: jsonfield FIELD REGEXP")
	}
	got, ok := jsonPath(ts.ReadFile("stdout"), args[0])
	if !ok {
		if !neg {
			ts.Fatalf("stdout has no JSON field %s", args[0])
		}
		return
	}
	matched := regexpMatch(ts, args[1], got)
	if matched == neg {
		ts.Fatalf("JSON field %s = %s; want match for %q (neg=%v)", args[0], got, args[1], neg)
	}
}

// code N [<SECONDS] [>SECONDS] panectl ARGS...: run the command and check
// its exit status is N (and, with <S or >S, that it took less or more than S
// seconds of wall clock: the promptness promises of SPEC.md).
func cmdCode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: code N [<SECONDS] [>SECONDS] COMMAND ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	args = args[1:]
	var less, more float64
	for len(args) > 0 && (strings.HasPrefix(args[0], "<") || strings.HasPrefix(args[0], ">")) {
		v, err := strconv.ParseFloat(args[0][1:], 64)
		ts.Check(err)
		if args[0][0] == '<' {
			less = v
		} else {
			more = v
		}
		args = args[1:]
	}
	start := time.Now()
	err = ts.Exec(args[0], args[1:]...)
	el := time.Since(start).Seconds()
	got := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[0], err)
		}
		got = ee.ExitCode()
	}
	ts.Logf("exit %d after %.3fs", got, el)
	if got != want {
		ts.Fatalf("%s exited %d, want %d", strings.Join(args, " "), got, want)
	}
	if less > 0 && el >= less {
		ts.Fatalf("%s took %.3fs, want less than %.3fs", strings.Join(args, " "), el, less)
	}
	if more > 0 && el < more {
		ts.Fatalf("%s took %.3fs, want at least %.3fs", strings.Join(args, " "), el, more)
	}
}

// jsonPath returns the JSON encoding of the value at a dotted path
// (a.b.0.c) in the JSON object text.
func jsonPath(text, path string) (string, bool) {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return "", false
	}
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				return "", false
			}
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return "", false
			}
			v = x[i]
		default:
			return "", false
		}
	}
	b, _ := json.Marshal(v)
	return string(b), true
}

func regexpMatch(ts *testscript.TestScript, pattern, s string) bool {
	re, err := regexp.Compile(pattern)
	ts.Check(err)
	return re.MatchString(s)
}

// writefile FILE QUOTED: write the Go-quoted string (escapes such as \t,
// \n, \x03 allowed) to FILE, with no newline added.
func cmdWriteFile(ts *testscript.TestScript, neg bool, args []string) {
	text, err := strconv.Unquote(`"` + args[1] + `"`)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(text), 0o644))
}

// envstdout VAR [FIELD]: set $VAR to the last stdout, trimmed (or to the
// string value of a JSON field of it).
func cmdEnvStdout(ts *testscript.TestScript, neg bool, args []string) {
	v := strings.TrimSpace(ts.ReadFile("stdout"))
	if len(args) > 1 {
		raw, ok := jsonPath(v, args[1])
		if !ok {
			ts.Fatalf("stdout has no JSON field %s", args[1])
		}
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			v = raw
		}
	}
	ts.Setenv(args[0], v)
}

// noproc TEXT SECONDS: within SECONDS, no process of the machine has TEXT
// in its command line (arguments joined with spaces).
func cmdNoProc(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: noproc TEXT SECONDS")
	}
	d, err := strconv.ParseFloat(args[1], 64)
	ts.Check(err)
	deadline := time.Now().Add(time.Duration(d * float64(time.Second)))
	for {
		var hits []string
		dirs, _ := filepath.Glob("/proc/[0-9]*")
		for _, dir := range dirs {
			b, err := os.ReadFile(filepath.Join(dir, "cmdline"))
			if err != nil || filepath.Base(dir) == strconv.Itoa(os.Getpid()) {
				continue
			}
			if line := strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " ")); strings.Contains(line, args[0]) {
				hits = append(hits, filepath.Base(dir)+": "+line)
			}
		}
		if len(hits) == 0 {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("processes with %q in their command line after %ss:\n%s", args[0], args[1], strings.Join(hits, "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitproc REGEXP N: within 10 s, at least N processes of this script
// have a command line (arguments joined with spaces) that matches REGEXP.
// A process is the script's when its environment holds the script's
// $TMUX_TMPDIR, as its tmux server's do.
func cmdWaitProc(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "waitproc")
	if len(args) != 2 {
		ts.Fatalf("usage: waitproc REGEXP N")
	}
	re, err := regexp.Compile(args[0])
	ts.Check(err)
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	mine := []byte("\x00TMUX_TMPDIR=" + ts.Getenv("TMUX_TMPDIR") + "\x00")
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := 0
		dirs, _ := filepath.Glob("/proc/[0-9]*")
		for _, dir := range dirs {
			b, err := os.ReadFile(filepath.Join(dir, "cmdline"))
			if err != nil || !re.MatchString(strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))) {
				continue
			}
			env, err := os.ReadFile(filepath.Join(dir, "environ"))
			if err == nil && bytes.Contains(append([]byte{0}, env...), mine) {
				n++
			}
		}
		if n >= want {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%d processes of this script with %q in their command line after 10 s, want %d", n, args[0], want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// jsoncount FIELD REGEXP N: the last stdout's JSON array at FIELD has
// exactly N string elements matching REGEXP.
func cmdJSONCount(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: jsoncount FIELD REGEXP N")
	}
	raw, ok := jsonPath(ts.ReadFile("stdout"), args[0])
	if !ok {
		ts.Fatalf("stdout has no JSON field %s", args[0])
	}
	var items []string
	ts.Check(json.Unmarshal([]byte(raw), &items))
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	n := 0
	for _, it := range items {
		if re.MatchString(it) {
			n++
		}
	}
	want, err := strconv.Atoi(args[2])
	ts.Check(err)
	if n != want {
		ts.Fatalf("%s: %d of %d elements match %q; want %d", args[0], n, len(items), args[1], want)
	}
}

// waitpanes N SECONDS: within SECONDS, the script's server (-L t) has at
// least N panes (polled every 5 ms, so a script can act while a pane is
// young).
func cmdWaitPanes(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: waitpanes N SECONDS")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	d, err := strconv.ParseFloat(args[1], 64)
	ts.Check(err)
	deadline := time.Now().Add(time.Duration(d * float64(time.Second)))
	for {
		c := exec.Command("tmux", "-L", "t", "list-panes", "-a", "-F", "#{pane_id}")
		c.Env = append(os.Environ(), "TMUX_TMPDIR="+ts.Getenv("TMUX_TMPDIR"), "TMUX=")
		out, _ := c.Output()
		n := len(strings.Fields(string(out)))
		if n >= want {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("the server had %d panes after %ss, want %d", n, args[1], want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitshown PANE REGEXP: within 10 s, a row of the pane's visible screen
// matches REGEXP. It waits for typed text to be drawn, which wait-for-text
// discounts as the echo of input.
func cmdWaitShown(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "waitshown")
	if len(args) != 2 {
		ts.Fatalf("usage: waitshown PANE REGEXP")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	pollTmux(ts, "show "+args[1], func(out string, _ error) bool {
		for _, row := range strings.Split(out, "\n") {
			if re.MatchString(row) {
				return true
			}
		}
		return false
	}, "capture-pane", "-p", "-t", args[0])
}

// waitformat PANE FORMAT REGEXP: within 10 s, tmux's FORMAT for the pane
// (display -p, as '#{pane_current_command}') matches REGEXP. A FORMAT that
// reads pane_dead_status nudges the server to reap after each miss: Debian's
// tmux 3.3a can lose a pane's SIGCHLD to utempter (tmux issue 4559), and its
// dead pane then shows no status until another child exits.
func cmdWaitFormat(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "waitformat")
	if len(args) != 3 {
		ts.Fatalf("usage: waitformat PANE FORMAT REGEXP")
	}
	re, err := regexp.Compile(args[2])
	ts.Check(err)
	reap := strings.Contains(args[1], "pane_dead_status")
	pollTmux(ts, args[1]+" match "+args[2], func(out string, _ error) bool {
		if re.MatchString(strings.TrimSuffix(out, "\n")) {
			return true
		}
		if reap {
			nudgeReap(ts)
		}
		return false
	}, "display", "-p", "-t", args[0], args[1])
}

// nudgeReap sends SIGCHLD to the script's tmux server, as panectl does
// (tmux.Client.NudgeReap).
func nudgeReap(ts *testscript.TestScript) {
	c := exec.Command("tmux", "-L", "t", "display", "-p", "#{pid}")
	c.Env = append(os.Environ(), "TMUX_TMPDIR="+ts.Getenv("TMUX_TMPDIR"), "TMUX=")
	out, err := c.Output()
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil && pid > 1 {
		_ = syscall.Kill(pid, syscall.SIGCHLD)
	}
}

// waitfile FILE REGEXP: within 10 s, a line of FILE (a stub's log)
// matches REGEXP.
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "waitfile")
	if len(args) != 2 {
		ts.Fatalf("usage: waitfile FILE REGEXP")
	}
	re, err := regexp.Compile("(?m)" + args[1])
	ts.Check(err)
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(ts.MkAbs(args[0]))
		if re.Match(b) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("no line of %s matches %q within 10 s; it holds:\n%s", args[0], args[1], b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitclients N: within 10 s, at least N clients (a wait's control
// client) are attached to the script's server.
func cmdWaitClients(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "waitclients")
	if len(args) != 1 {
		ts.Fatalf("usage: waitclients N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	pollTmux(ts, fmt.Sprintf("%d clients attached", want), func(out string, _ error) bool {
		return len(strings.Fields(out)) >= want
	}, "list-clients", "-F", "#{client_name}")
}

// waitnoserver: within 10 s, the script's server (-L t) is gone.
func cmdWaitNoServer(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "waitnoserver")
	pollTmux(ts, "no server", func(_ string, err error) bool { return err != nil }, "list-sessions")
}

// noNeg fails the script when a wait command is negated: "! waitshown"
// would otherwise pass as the plain wait.
func noNeg(ts *testscript.TestScript, neg bool, name string) {
	if neg {
		ts.Fatalf("%s does not take !", name)
	}
}

// pollTmux runs tmux ARGS on the script's server every 20 ms until ok
// accepts its output; after 10 s the script fails, showing the last one.
func pollTmux(ts *testscript.TestScript, what string, ok func(out string, err error) bool, args ...string) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c := exec.Command("tmux", append([]string{"-L", "t"}, args...)...)
		c.Env = append(os.Environ(), "TMUX_TMPDIR="+ts.Getenv("TMUX_TMPDIR"), "TMUX=")
		var errb strings.Builder
		c.Stderr = &errb
		out, err := c.Output()
		if ok(string(out), err) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s: not within 10 s; tmux %s gave (%v %s):\n%s", what, strings.Join(args, " "), err, errb.String(), out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

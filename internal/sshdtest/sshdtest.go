// Package sshdtest gives tests a private OpenSSH server on 127.0.0.1: its
// own host key, user key, known_hosts and client config, run as the current
// user (root included), stopped when the test ends. Tests that need it fail
// (never skip) when sshd is missing.
package sshdtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Aliases are the Host names the client config gives the server: two
// names for one sshd, as two hosts for panectl.
var Aliases = []string{"local", "self"}

// Server is a private sshd for one test.
type Server struct {
	Dir    string // keys, configs and logs
	Port   int
	Config string // the client's ssh config (-F)
	// KnownHosts is the client's known_hosts; tests may overwrite it.
	KnownHosts string
	// Home is $HOME in the server's sessions (the user's own stays
	// untouched): a fresh directory.
	Home string
}

// SSHD finds sshd ($PATH, then /usr/sbin).
func SSHD() (string, error) {
	if p, err := exec.LookPath("sshd"); err == nil {
		return p, nil
	}
	if _, err := os.Stat("/usr/sbin/sshd"); err != nil {
		return "", fmt.Errorf("sshd is required (scripts/test.sh installs openssh-server): %w", err)
	}
	return "/usr/sbin/sshd", nil
}

// Start starts sshd. Its sessions get path as $PATH, so a test's panectl
// is the one found there, and Home as $HOME.
func Start(t testing.TB, path string) *Server {
	t.Helper()
	sshd, err := SSHD()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Dir: t.TempDir(), Home: t.TempDir()}
	s.KnownHosts = s.file("known_hosts")
	for _, alias := range Aliases {
		if err := os.Mkdir(s.TmuxTmpdir(alias), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	s.Config = s.file("ssh_config")
	for _, k := range []string{"host_key", "id"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", s.file(k)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	s.copy(t, "id.pub", "authorized_keys")
	s.WriteKnownHosts(t, "host_key.pub")
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	if os.Getuid() == 0 {
		_ = os.MkdirAll("/run/sshd", 0o755) // sshd's privilege separation directory
	}
	var cmd *exec.Cmd
	for try := 0; cmd == nil; try++ {
		s.Port = freePort(t)
		s.writeConfigs(t, me.Username, path)
		c := exec.Command(sshd, "-D", "-e", "-f", s.file("sshd_config"))
		log, err := os.Create(s.file("sshd.log"))
		if err != nil {
			t.Fatal(err)
		}
		c.Stdout, c.Stderr = log, log
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		if s.listening(c) {
			cmd = c
		} else if try == 3 {
			b, _ := os.ReadFile(s.file("sshd.log"))
			t.Fatalf("sshd did not start: %s", b)
		}
		log.Close()
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return s
}

func (s *Server) file(name string) string { return filepath.Join(s.Dir, name) }

func (s *Server) copy(t testing.TB, from, to string) {
	b, err := os.ReadFile(s.file(from))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.file(to), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// WriteKnownHosts makes the client trust the public key in the file key
// (of s.Dir) for the server, under its HostKeyAlias.
func (s *Server) WriteKnownHosts(t testing.TB, key string) {
	t.Helper()
	b, err := os.ReadFile(s.file(key))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if err := os.WriteFile(s.KnownHosts, []byte("panectl-test-sshd "+f[0]+" "+f[1]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// NewKey makes another key pair named name in s.Dir.
func (s *Server) NewKey(t testing.TB, name string) {
	t.Helper()
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", s.file(name)).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
}

func (s *Server) writeConfigs(t testing.TB, username, path string) {
	t.Helper()
	sshd := fmt.Sprintf(`ListenAddress 127.0.0.1
Port %d
HostKey %s
AuthorizedKeysFile %s
PidFile %s
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
MaxSessions 100
MaxStartups 100
SetEnv PATH=%s HOME=%s
AcceptEnv TMUX_TMPDIR
LogLevel ERROR
`, s.Port, s.file("host_key"), s.file("authorized_keys"), s.file("sshd.pid"), path, s.Home)
	var client string
	for _, alias := range Aliases {
		client += fmt.Sprintf("Host %s\n  SetEnv TMUX_TMPDIR=%s\n", alias, s.TmuxTmpdir(alias))
	}
	client += fmt.Sprintf(`Host %s
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s
  IdentitiesOnly yes
  UserKnownHostsFile %s
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  HostKeyAlias panectl-test-sshd
  LogLevel ERROR
`, strings.Join(Aliases, " "), s.Port, username, s.file("id"), s.KnownHosts)
	for name, text := range map[string]string{"sshd_config": sshd, "ssh_config": client} {
		if err := os.WriteFile(s.file(name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// listening waits until sshd accepts connections, or exits.
func (s *Server) listening(c *exec.Cmd) bool {
	exited := make(chan struct{})
	go func() { _, _ = c.Process.Wait(); close(exited) }()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		select {
		case <-exited:
			return false
		default:
		}
		if conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", s.Port)); err == nil {
			conn.Close()
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TmuxTmpdir is $TMUX_TMPDIR in the sessions of one alias: so -L NAME is
// another tmux server on each, as on two hosts.
func (s *Server) TmuxTmpdir(alias string) string { return s.file("tmux-" + alias) }

// SSH is the PANECTL_SSH value that reaches this server.
func (s *Server) SSH() string { return "ssh -F " + s.Config }

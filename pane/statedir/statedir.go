// Package statedir is panectl's own state directory of each tmux server: where
// it is, and the checks that make a path read back from tmux panectl's own
// before anything is deleted, chmodded or signalled because of it.
package statedir

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/panectl/panectl/pane/proc"
	"github.com/panectl/panectl/tmux"
)

// The state directory holds what panectl keeps on disk for one tmux server.
// It holds the journals of background tasks and of journaled panes. It also
// holds the task records, so a task stays readable after its pane is gone.
//
// Which directory? It is the server option @panectl_state when that is set.
// So every panectl process on one server uses the same directory, whatever
// its own environment. The first panectl that needs one sets it to
//
//	$XDG_STATE_HOME/panectl/servers/HOST/KEY   ($XDG_STATE_HOME wins when set and absolute)
//	$HOME/.local/state/panectl/servers/HOST/KEY (its XDG default)
//	SOCKET.panectl/HOST/KEY                     (next to the tmux socket: only with no home directory)
//
// HOST is the machine's name, so a shared home directory keeps machines
// apart. KEY names the server instance. It is made of the socket name, a
// hash of the socket path, and the server's pid and start time. A server
// restarted on the same socket starts its pane and task numbers again at 0.
// Thanks to KEY it never sees the records of the previous one. Every
// directory panectl makes there is mode 0700, and its files 0600. A
// directory that is not the user's, or that others can enter, is refused.
//
// The option is read back as data, not trusted: its value is used only
// when it is BASE/HOST/KEY for this server, with BASE one this user's
// panectl would pick, and every directory from BASE down is private
// (checkStateDir). panectl changes the mode of no directory.
const stateOption = "@panectl_state"

// ErrDir says the state directory cannot be made or is not private.
var ErrDir = errors.New("panectl state directory")

// StateBase is where state directories of servers are made when the server
// has none yet. See the package doc of state.go for the order.
func Base(socket string, getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if x := getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "panectl", "servers")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "panectl", "servers")
	}
	return socket + ".panectl"
}

var unsafeKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]+`) })

// serverKey names one server instance inside StateBase.
func serverKey(socket string, pid, started int64) string {
	name := unsafeKey().ReplaceAllString(filepath.Base(socket), "_")
	if len(name) > 40 {
		name = name[:40]
	}
	return fmt.Sprintf("%s-%08x-%d-%d", name, crc32.ChecksumIEEE([]byte(socket)), pid, started)
}

// FindStateDir returns the server's state directory when one was made. It
// returns "" when none was, as the server has no task and no journaled pane
// yet. It makes nothing. The option's value is checked (checkStateDir): a
// value that fails is not used, and the error says why.
func Find(ctx context.Context, c *tmux.Client) (string, error) {
	out, err := c.Run(ctx, "show-options", "-sqv", stateOption)
	dir := strings.TrimSuffix(out, "\n")
	if err != nil || dir == "" {
		return "", err
	}
	if err := checkDir(ctx, c, dir); err != nil {
		return "", err
	}
	return dir, nil
}

// checkStateDir checks that dir is this user's state directory of the
// server c talks to. A tmux option is data, not a capability: whoever can
// set options on the server could point it anywhere. So dir must be
// BASE/HOST/KEY, with BASE one of stateBases, HOST this machine and KEY
// this server instance. From BASE down, each directory is lstat'ed, as
// tmux checks its socket directory: see checkPrivate. Errors wrap
// ErrDir, or are tmux errors.
func checkDir(ctx context.Context, c *tmux.Client, dir string) error {
	key, err := thisServerKey(ctx, c)
	if err != nil {
		return err
	}
	for _, base := range stateBases(c.Server.Socket) {
		if dir == filepath.Join(base, hostKey(), key) {
			if err := checkPrivate(base, dir); err != nil {
				return fmt.Errorf("%w: %s %q is not used: %v", ErrDir, stateOption, dir, err)
			}
			return nil
		}
	}
	return fmt.Errorf("%w: %s %q is not used: it is not %s/%s under %s",
		ErrDir, stateOption, dir, hostKey(), key, strings.Join(stateBases(c.Server.Socket), " or "))
}

// stateBases are the bases a panectl of this user may have picked: from
// this process's environment, the user's home directory in the password
// database, and next to the socket. So a panectl started with another
// HOME, or none, still finds the directory.
func stateBases(socket string) []string {
	home := func(h string) func(string) string {
		return func(k string) string {
			if k == "HOME" {
				return h
			}
			return ""
		}
	}
	bases := []string{Base(socket, nil), Base(socket, home(os.Getenv("HOME")))}
	if u, err := user.Current(); err == nil {
		bases = append(bases, Base(socket, home(u.HomeDir)))
	}
	var uniq []string
	for _, b := range append(bases, Base(socket, home(""))) {
		if !slices.Contains(uniq, b) {
			uniq = append(uniq, b)
		}
	}
	return uniq
}

// thisServerKey is serverKey of the server c talks to.
func thisServerKey(ctx context.Context, c *tmux.Client) (string, error) {
	out, err := c.Run(ctx, "display-message", "-p", "#{pid} #{start_time}")
	if err != nil {
		return "", err
	}
	f := strings.Fields(out)
	if len(f) != 2 {
		return "", fmt.Errorf("tmux returned a malformed server description %q", out)
	}
	pid, err1 := strconv.ParseInt(f[0], 10, 64)
	started, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil {
		return "", fmt.Errorf("tmux returned a malformed server description %q", out)
	}
	return serverKey(c.Server.Socket, pid, started), nil
}

// hostKey names this machine. A home directory shared by several machines
// keeps each one's servers apart, and pruning judges only its own.
func hostKey() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	return unsafeKey().ReplaceAllString(h, "_")
}

// StateDir returns the state directory of the server c talks to. It makes
// it when needed, and records it in the server option @panectl_state.
// Errors are tmux errors (ErrNoServer when no server runs), and
// ErrDir.
func Dir(ctx context.Context, c *tmux.Client) (string, error) {
	dir, err := Find(ctx, c)
	if err != nil || dir != "" {
		return dir, err
	}
	key, err := thisServerKey(ctx, c)
	if err != nil {
		return "", err
	}
	base := Base(c.Server.Socket, nil)
	dir = filepath.Join(base, hostKey(), key)
	if err := ensurePrivateDir(base, dir); err != nil {
		return "", err
	}
	// -o means only the first process to get here sets it. The others read
	// it.
	if _, err := c.Run(ctx, "set-option", "-so", stateOption, dir); err != nil {
		if dir, err2 := Find(ctx, c); err2 != nil || dir != "" {
			return dir, err2
		}
		return "", err
	}
	// A new server's directory was made. Those of servers that no longer
	// run go, unless changed within pruneGrace. So they do not pile up.
	pruneServers(filepath.Dir(dir), dir, pruneGrace)
	return dir, nil
}

// ensurePrivateDir makes dir, and its parents, with mode 0700. Then it
// checks it from base down (checkPrivate). It changes no mode.
func ensurePrivateDir(base, dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("%w: %v", ErrDir, err)
	}
	if err := checkPrivate(base, dir); err != nil {
		return fmt.Errorf("%w: %v", ErrDir, err)
	}
	return nil
}

// checkPrivate checks each directory from base down to dir, as tmux checks
// its socket directory. Each is a directory, not a symbolic link, of this
// user, that group and others cannot write. Those below base (HOST and
// KEY, which panectl makes) are closed to group and others.
func checkPrivate(base, dir string) error {
	rel, err := filepath.Rel(base, dir)
	if err != nil || !filepath.IsAbs(base) || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("%s is not inside %s", dir, base)
	}
	path, closed := base, os.FileMode(0o022)
	for _, name := range append([]string{""}, strings.Split(rel, string(filepath.Separator))...) {
		path = filepath.Join(path, name)
		st, err := os.Lstat(path)
		if err != nil {
			return err
		}
		sys, _ := st.Sys().(*syscall.Stat_t)
		switch {
		case st.Mode()&os.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link", path)
		case !st.IsDir():
			return fmt.Errorf("%s is not a directory", path)
		case sys == nil || int(sys.Uid) != os.Getuid():
			return fmt.Errorf("%s belongs to another user; set XDG_STATE_HOME to a directory of yours", path)
		case st.Mode().Perm()&closed != 0:
			return fmt.Errorf("%s has unsafe permissions %04o (panectl changes none)", path, st.Mode().Perm())
		}
		closed = 0o077
	}
	return nil
}

// PruneServers removes the state directories of servers that no longer run,
// as their pid is gone. It looks next to this server's directory, so only
// at this machine's. stateDir must be checked (FindStateDir). It returns
// how many it removed.
func PruneServers(stateDir string) int {
	return pruneServers(filepath.Dir(stateDir), stateDir, 0)
}

// PruneServersAt removes the state directories of servers of this machine
// that no longer run. It looks where a server at socket would have its own,
// the base StateBase picks from this process's environment. It asks no
// server. `tasks --prune` uses it when no server runs. It returns how many
// it removed.
func PruneServersAt(socket string) int {
	base := Base(socket, nil)
	parent := filepath.Join(base, hostKey())
	if checkPrivate(base, parent) != nil {
		return 0
	}
	return pruneServers(parent, "", 0)
}

// pruneGrace is how long the state directory of a server that no longer
// runs is kept after its last change. It applies when the directory is
// pruned on the way, as a new state directory is made. The supervisors of
// the server's tasks record them killed as the server goes away. A task
// wait reading those records (waiter.WaitTask) must still find them.
const pruneGrace = time.Minute

// serverKeyRE matches the names serverKey makes.
var serverKeyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._-]{1,40}-[0-9a-f]{8}-([0-9]+)-[0-9]+$`) })

// pruneServers removes the directories in parent named by serverKey whose
// server pid no longer runs. Only this user's directories go. It spares
// keep, and those changed within grace. A change counts in the directory or one of its entries. A pid that
// runs again, reused by another process, keeps its directory. That is a
// leak, never a loss.
func pruneServers(parent, keep string, grace time.Duration) int {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		dir := filepath.Join(parent, e.Name())
		m := serverKeyRE().FindStringSubmatch(e.Name())
		if !e.IsDir() || m == nil || dir == keep || checkPrivate(parent, dir) != nil {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid <= 0 || proc.Alive(pid) {
			continue
		}
		if grace > 0 && time.Since(lastChange(dir)) < grace {
			continue
		}
		if os.RemoveAll(dir) == nil {
			n++
		}
	}
	return n
}

// lastChange is the newest modification time of dir and its entries. A
// task's directory changes when its supervisor records its end.
func lastChange(dir string) time.Time {
	var t time.Time
	if st, err := os.Stat(dir); err == nil {
		t = st.ModTime()
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.ModTime().After(t) {
			t = info.ModTime()
		}
	}
	return t
}

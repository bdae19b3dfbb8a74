package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/panectl/panectl/tmux/versioncache"
)

// SelfSHA256 is the sha256 of this process's executable, found once. It
// is cached in $XDG_CACHE_HOME/panectl/panectl-sha256, keyed by the
// file's identity (device, inode, size, times), so a call pays for hashing
// only after the binary changed. A daemon's waiting panectl finds it
// before the file can be replaced under it.
var SelfSHA256 = sync.OnceValues(selfSHA256)

func selfSHA256() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	file := ""
	if dir, err := os.UserCacheDir(); err == nil {
		file = filepath.Join(dir, "panectl", "panectl-sha256")
	}
	return versioncache.LookupIn(file, exe, fileSHA256)
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

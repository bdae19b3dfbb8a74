package lock

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func TestLockStale(t *testing.T) {
	now := time.Now()
	ns := pidNamespace()
	future := now.Add(time.Hour).UnixMilli()
	for v, want := range map[string]bool{
		"":        false,
		"garbage": true, // not a lock value: never blocks anyone
		fmt.Sprintf("run.%d.%s.abc.%d", os.Getpid(), ns, future):                            false,
		fmt.Sprintf("run.%d.%s.abc.%d", os.Getpid(), ns, now.Add(-time.Second).UnixMilli()): true,
		fmt.Sprintf("run.%d.other-ns.abc.%d", 1<<30, future):                                false, // another namespace: only the lease counts
		fmt.Sprintf("run.x.%s.abc.%d", ns, future):                                          true,
	} {
		if got := lockStale(v, now); got != want {
			t.Errorf("lockStale(%q) = %v, want %v", v, got, want)
		}
	}
	if ns != "" {
		// a pid that does not exist in this namespace
		v := fmt.Sprintf("send-text.%d.%s.abc.%d", 1<<30, ns, future)
		if !lockStale(v, now) {
			t.Errorf("a lock of a gone process is not stale: %q", v)
		}
	}
	if got := lockHolder(fmt.Sprintf("run.42.%s.abc.%d", ns, future)); got != "run (pid 42)" {
		t.Errorf("lockHolder = %q", got)
	}
}

func FuzzLockFields(f *testing.F) {
	f.Add("run.1.4026531836.0123456789abcdef.1700000000000")
	f.Add("....")
	f.Add("a.b.c.d.e")
	f.Fuzz(func(t *testing.T, v string) {
		action, _, _, _, ok := lockFields(v)
		if ok && (strings.Count(v, ".") != 4 || !strings.HasPrefix(v, action+".")) {
			t.Errorf("lockFields(%q) accepted a value of another shape", v)
		}
		_ = lockStale(v, time.Now())
		_ = lockHolder(v)
	})
}

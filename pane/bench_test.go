package pane

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/panectl/panectl/tmux"
)

// BenchmarkReadSinceCursor measures P3 (SPEC.md section 11): reading 100
// lines after a cursor in a pane with 50,000 lines of history, against the
// same read in a pane with (almost) no history. Budget: at most 2x.
//
//	go test ./pane -run x -bench ReadSinceCursor
func BenchmarkReadSinceCursor(b *testing.B) {
	if _, err := exec.LookPath("tmux"); err != nil {
		b.Fatal("tmux is required")
	}
	dir, err := os.MkdirTemp("", "pctlb")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	c, err := tmux.NewClient(tmux.Server{Socket: filepath.Join(dir, "s"), From: "-S"})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	defer c.KillServer(ctx)
	for _, history := range []int{0, 50000} {
		b.Run(fmt.Sprintf("history=%d", history), func(b *testing.B) {
			p, err := c.NewPane(ctx, tmux.NewOptions{Width: 80, Height: 24, HistoryLimit: 60000, Command: []string{"sh"}})
			if err != nil {
				b.Fatal(err)
			}
			defer c.KillPane(ctx, p.ID)
			if history > 0 {
				fill(b, c, p.ID, fmt.Sprintf("seq 1 %d\n", history), history-100)
			}
			cur, _, err := Now(ctx, c, p.ID)
			if err != nil {
				b.Fatal(err)
			}
			fill(b, c, p.ID, "seq 1 100\n", 0)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := Read(ctx, c, p.ID, cur, ReadOptions{MaxLines: 200})
				if err != nil {
					b.Fatal(err)
				}
				if len(r.Lines) < 100 {
					b.Fatalf("read %d lines, want >= 100", len(r.Lines))
				}
			}
		})
	}
}

// fill types a command and waits until the pane's history holds at least
// minHistory rows and output has settled.
func fill(b *testing.B, c *tmux.Client, id, command string, minHistory int) {
	ctx := context.Background()
	if err := c.SendText(ctx, id, command, false); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	last := -1
	for time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		p, err := c.Pane(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		if p.HistorySize >= minHistory && p.HistorySize == last {
			return
		}
		last = p.HistorySize
	}
	b.Fatal("the pane did not settle")
}

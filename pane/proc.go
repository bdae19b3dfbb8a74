package pane

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ForegroundArgs returns the argv of the foreground process of the pane's
// terminal, best effort: on Linux it reads the terminal's foreground process
// group from /proc/PANE_PID/stat (tpgid) and that leader's
// /proc/PID/cmdline. Anywhere else, or when the process is gone, nil. The
// recognizers use it to look through node/bun wrappers.
func ForegroundArgs(panePID int) []string {
	if panePID <= 0 {
		return nil
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", panePID))
	if err != nil {
		return nil
	}
	// the command name (field 2) is in parentheses and may hold spaces
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	f := strings.Fields(s[i+1:])
	// after ")": state ppid pgrp session tty_nr tpgid ...
	if len(f) < 6 {
		return nil
	}
	tpgid, err := strconv.Atoi(f[5])
	if err != nil || tpgid <= 0 {
		return nil
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", tpgid))
	if err != nil || len(cmdline) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
}

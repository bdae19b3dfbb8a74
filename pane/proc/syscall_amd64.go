//go:build linux

package proc

import "strconv"

// syscallName names a few system calls by their number on linux/amd64
// (a shell's blocking calls); another number is named by the number.
func syscallName(nr int) string {
	switch nr {
	case 0:
		return "read"
	case 7:
		return "poll"
	case 23:
		return "select"
	case 35:
		return "nanosleep"
	case 61:
		return "wait4"
	case 130:
		return "rt_sigsuspend"
	case 202:
		return "futex"
	case 230:
		return "clock_nanosleep"
	case 247:
		return "waitid"
	case 270:
		return "pselect6"
	case 271:
		return "ppoll"
	}
	return "#" + strconv.Itoa(nr)
}

//go:build linux

package proc

import "strconv"

// syscallName names a few system calls by their number on linux/arm64
// (the blocking calls of shells and event loops); another number is named by the number.
func syscallName(nr int) string {
	switch nr {
	case 22:
		return "epoll_pwait"
	case 63:
		return "read"
	case 72:
		return "pselect6"
	case 73:
		return "ppoll"
	case 95:
		return "waitid"
	case 98:
		return "futex"
	case 101:
		return "nanosleep"
	case 115:
		return "clock_nanosleep"
	case 133:
		return "rt_sigsuspend"
	case 260:
		return "wait4"
	case 441:
		return "epoll_pwait2"
	}
	return "#" + strconv.Itoa(nr)
}

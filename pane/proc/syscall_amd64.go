//go:build linux

package proc

import "strconv"

// syscallName names a few system calls by their number on linux/amd64
// (the blocking calls of shells and event loops); another number is named by the number.
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
	case 232:
		return "epoll_wait"
	case 247:
		return "waitid"
	case 270:
		return "pselect6"
	case 271:
		return "ppoll"
	case 281:
		return "epoll_pwait"
	case 441:
		return "epoll_pwait2"
	}
	return "#" + strconv.Itoa(nr)
}

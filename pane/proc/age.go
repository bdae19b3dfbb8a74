package proc

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of /proc/PID/stat's times: USER_HZ, 100 on every
// Linux (proc(5): sysconf(_SC_CLK_TCK)).
const userHZ = 100

// Age is how long ago process pid started: /proc/uptime less the start
// time in /proc/PID/stat. ok is false where /proc cannot tell.
func Age(pid int) (_ time.Duration, ok bool) {
	f, ok := procStat(pid)
	if !ok || len(f) < 20 {
		return 0, false
	}
	// after ")": state is field 3 of proc(5), so starttime (22) is f[19]
	ticks, err := strconv.ParseInt(f[19], 10, 64)
	if err != nil {
		return 0, false
	}
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0, false
	}
	up, err := strconv.ParseFloat(strings.Fields(string(b) + " x")[0], 64)
	if err != nil {
		return 0, false
	}
	age := time.Duration(up*float64(time.Second)) - time.Duration(ticks)*time.Second/userHZ
	return max(age, 0), true
}

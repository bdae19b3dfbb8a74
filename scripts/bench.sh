#!/bin/sh
# Measure panectl against every budget of SPEC.md section 11 on a private tmux
# server and print one table with pass/fail: P1 detection latency against a
# capture-pane poll loop, P2 CPU of a 5 s wait, P3 a read since a cursor with
# 50,000 lines of history against none, P5 `panectl version` against a Go
# hello-world built in the same run, P6 peak RSS of the 5 s wait, P7
# detection through `panectl mcp` and the CLI against a bare control client
# seeing the line, P8 `run true` through both against one `tmux display -p`,
# P12 a wait-for-text over -H against `ssh host true` on one warm connection
# to a private sshd (openssh-server, as scripts/test.sh installs it). With
# --idle, also P9: CPU of `panectl mcp` idle for 60 s with a control client
# kept attached (a minute longer). With --peer DIR (a libtmux-go checkout or
# bare git mirror), also P10: libtmux-go's MCP server, built from DIR, in the
# same interleaved trials (detection, `run true` and capture_since). Then
# P11: `panectl events` supervising 50 stub agents in 50 sessions through 10
# state changes a second (latency, idle CPU, peak RSS), against 50
# `recognize` polls a second. Exit status 1 when a budget is missed.
set -eu
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { echo "bench.sh: tmux is required (apt-get install tmux)" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--idle) export PANECTL_BENCH_IDLE=1 ;;
	--peer) PANECTL_BENCH_PEER=$(cd "$2" && pwd); export PANECTL_BENCH_PEER; shift ;;
	*) break ;;
	esac
	shift
done
exec go test -run '^$' -bench '^Benchmark(Budgets|Supervise)$' -benchtime 1x -count 1 -timeout 20m ./bench "$@"

#!/bin/sh
# Measure panectl against every budget of SPEC.md section 11 on a private tmux
# server and print one table with pass/fail: P1 detection latency against a
# capture-pane poll loop, P2 CPU of a 5 s wait, P3 a read since a cursor with
# 50,000 lines of history against none, P4 `run PANE true` end to end, P5
# `panectl version` start-up, P6 peak RSS of the 5 s wait, P7 detection
# through `panectl mcp` and the CLI against a bare control client seeing the
# line, P8 `run true` through both against one `tmux display -p`, P12 a
# wait-for-text over -H against `ssh host true` on one warm connection to a
# private sshd (openssh-server, as scripts/test.sh installs it). With
# --idle, also P9: CPU of `panectl mcp` idle for 60 s with a control client
# kept attached (a minute longer). Exit status 1 when a budget is missed.
set -eu
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { echo "bench.sh: tmux is required (apt-get install tmux)" >&2; exit 1; }
if [ "${1:-}" = "--idle" ]; then
	shift
	export PANECTL_BENCH_IDLE=1
fi
exec go test -run '^$' -bench '^BenchmarkBudgets$' -benchtime 1x -count 1 -timeout 20m ./bench "$@"

#!/bin/sh
# Measure panectl against SPEC.md section 11's budgets (P1 detection latency
# against a capture-pane poll loop, P2 CPU and P6 peak RSS of a 5 s wait) on a
# private tmux server, and print a table with pass/fail. Exit status 1 when a
# budget is missed.
set -eu
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { echo "bench.sh: tmux is required (apt-get install tmux)" >&2; exit 1; }
exec go test -run '^$' -bench '^BenchmarkBudgets$' -benchtime 1x -count 1 ./bench "$@"

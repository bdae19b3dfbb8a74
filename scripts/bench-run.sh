#!/usr/bin/env bash
# P4 (SPEC.md section 11): `panectl run PANE true` end to end, median of N
# runs (default 20) against a warm bash pane on a private tmux server.
# Budget: median <= 60 ms. Prints "P4 run-true median_ms=X budget_ms=60 ok|over".
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-20}
tmp=$(mktemp -d)
trap 'tmux -S "$tmp/tmux-$(id -u)/bench" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/panectl" .
export TMUX_TMPDIR=$tmp TMUX= TMUX_PANE= PS1='$ '
p="$tmp/panectl"
P=$("$p" -L bench --json new --size 80x24 -- bash --norc --noprofile | sed -n 's/.*"pane_id":"\(%[0-9]*\)".*/\1/p')
"$p" -L bench wait-for-text "$P" --cursor history --regex --pattern '\$$' --timeout 10 >/dev/null
"$p" -L bench run "$P" true # warm up
times=()
for _ in $(seq "$N"); do
	s=$(date +%s%N)
	"$p" -L bench run "$P" true
	e=$(date +%s%N)
	times+=($(((e - s) / 1000)))
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1000}')
verdict=$(awk -v m="$median" 'BEGIN {print (m <= 60) ? "ok" : "over"}')
echo "P4 run-true median_ms=$median budget_ms=60 n=$N $verdict"

#!/usr/bin/env bash
# The README's test command: checks for (and on a fresh Debian/Ubuntu machine
# installs) tmux, zsh, fish, dash and the programs the end-to-end tests drive
# (python3, vim, less, top, node, and sshd for -H), then runs every test on the system's tmux
# and the end-to-end tests again on tmux 3.5a, both with -tags e2e (the
# slow suites plain go test leaves out). Missing tmux fails loudly;
# nothing is skipped silently.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for tool in tmux zsh fish dash vim less top python3 node; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
# The -H tests start their own sshd (internal/sshdtest).
command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ] || need+=(sshd)
# Cobra's bash completion script needs the bash-completion package.
bashcomp=(/usr/share/bash-completion/bash_completion /opt/homebrew/etc/profile.d/bash_completion.sh /usr/local/etc/profile.d/bash_completion.sh)
found=""
for f in "${bashcomp[@]}"; do [ -f "$f" ] && found=1; done
[ -n "$found" ] || need+=(bash-completion)
if ((${#need[@]})); then
  echo "scripts/test.sh: installing missing tools: ${need[*]}" >&2
  if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    pkgs=()
    for t in "${need[@]}"; do
      case $t in
        node) pkgs+=(nodejs) ;;
        top) pkgs+=(procps) ;;
        sshd) pkgs+=(openssh-server) ;;
        *) pkgs+=("$t") ;;
      esac
    done
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${pkgs[@]}" >/dev/null
  elif command -v brew >/dev/null 2>&1; then
    brew install "${need[@]}"
  else
    echo "scripts/test.sh: cannot install ${need[*]}: no apt-get or brew; install them and rerun" >&2
    exit 1
  fi
fi
for tool in tmux zsh fish dash; do
  command -v "$tool" >/dev/null 2>&1 || { echo "scripts/test.sh: $tool is required and could not be installed" >&2; exit 1; }
done
command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ] || { echo "scripts/test.sh: sshd (openssh-server) is required and could not be installed" >&2; exit 1; }
# A second tmux for the end-to-end scripts (Debian 13's 3.5a, whose command
# output passes through vis(3)) and one below panectl's minimum (Debian 11's
# 3.1c, which panectl must refuse), built from Debian's source packages and
# cached (scripts/tmux-debian.sh).
tmux35="" tmux31=""
if command -v apt-get >/dev/null 2>&1; then
  tmux35=$(scripts/tmux-debian.sh trixie)
  tmux31=$(scripts/tmux-debian.sh bullseye)
  export PANECTL_TEST_OLD_TMUX=$tmux31
  echo "scripts/test.sh: $(tmux -V) (every test), $("$tmux35" -V) (./cmd), $("$tmux31" -V) (must be refused), $(go version)" >&2
else
  echo "scripts/test.sh: no apt-get: the tests run on $(tmux -V) only (not on 3.5a, nor the 3.1c refusal), $(go version)" >&2
fi

go vet ./...
go vet -tags e2e ./...
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "scripts/test.sh: gofmt would change:" >&2
  echo "$unformatted" >&2
  exit 1
fi
# Every test, with a bounded run time; -count=1 so tmux-backed tests never
# come from the cache. The e2e tag adds the slow end-to-end suites that
# plain go test leaves out (cmd/tag_quick_test.go).
go test -tags e2e -count=1 -timeout 25m ./... "$@"
# The end-to-end tests and scripts (./cmd) again, on tmux 3.5a.
[ -z "$tmux35" ] || PATH=$(dirname "$tmux35"):$PATH go test -tags e2e -count=1 -timeout 25m ./cmd "$@"
# Every fuzz target, a few seconds each, on top of its seed corpus (which
# the runs above already check). A failing input is written to the
# package's testdata/fuzz, so the one retry (for a worker lost to a loaded
# machine) fails again on a real defect.
fuzztime=${PANECTL_FUZZTIME:-3s}
fuzzlog=$(mktemp)
trap 'rm -f "$fuzzlog"' EXIT
for file in $(git ls-files '*_test.go' | xargs grep -l '^func Fuzz'); do
  pkg=./$(dirname "$file")
  for target in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | cut -d' ' -f2); do
    if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" >"$fuzzlog" 2>&1; then
      echo "scripts/test.sh: fuzz target $target in $pkg failed once; again:" >&2
      tail -n 20 "$fuzzlog" >&2
      go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" >&2
    fi
  done
done
echo "scripts/test.sh: every fuzz target ran for $fuzztime" >&2

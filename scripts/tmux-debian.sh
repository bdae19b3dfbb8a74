#!/usr/bin/env bash
# Build tmux from a Debian suite's source package and print the binary's path.
#
#   scripts/tmux-debian.sh SUITE     # SUITE: trixie (tmux 3.5a), bullseye (3.1c), ...
#
# stdout carries only the absolute path of the built tmux; progress goes to
# stderr and build output to SUITE/build.log in the cache directory
# (${PANECTL_TMUX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/panectl/tmux-builds}).
# A second call with the binary in place returns at once. The source comes
# from `apt-get source tmux` through a private apt configuration, so the
# system's apt sources and lists are left unchanged. Run as root or with sudo
# (needed only to install missing build dependencies).
set -euo pipefail
export LC_ALL=C # predictable tool output whatever the caller's locale

usage() { echo "usage: $0 SUITE   (e.g. trixie, bullseye)" >&2; exit 2; }
[ $# -eq 1 ] || usage
suite=$1
case $suite in '' | */* | .*) usage ;; esac

log() { echo "tmux-debian: $*" >&2; }
die() { log "$*"; exit 1; }

cache=${PANECTL_TMUX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/panectl/tmux-builds}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd -P) # absolute
dir=$cache/$suite
bin=$dir/bin/tmux

# Cached: the binary exists and runs.
if [ -x "$bin" ] && "$bin" -V >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi

mkdir -p "$dir"
buildlog=$dir/build.log
: >"$buildlog"
fail() {
  log "$1; last lines of $buildlog:"
  tail -n 40 "$buildlog" >&2
  exit 1
}
# run CMD...: append its output to the log, fail with the log's tail.
run() {
  echo "+ $*" >>"$buildlog"
  "$@" >>"$buildlog" 2>&1 </dev/null || fail "failed: $*"
}

# Install the Debian packages named, only those not installed yet.
apt_updated=""
need_pkgs() {
  local missing=() p st
  for p in "$@"; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ $st == *"ok installed"* ]] || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  log "installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "missing ${missing[*]}: not root and no sudo to install them"
    sudo="sudo"
  fi
  if [ -z "$apt_updated" ]; then
    run $sudo apt-get update -qq
    apt_updated=1
  fi
  run $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

command -v dpkg-source >/dev/null 2>&1 || need_pkgs dpkg-dev
need_pkgs libevent-dev libncurses-dev bison pkg-config build-essential debian-archive-keyring

# Private apt setup: only this suite's deb-src, lists and caches under $dir/apt.
apt=$dir/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
  >"$apt/sources.list"
aptopts=(
  -o Dir::Etc::SourceList="$apt/sources.list"
  -o Dir::Etc::SourceParts=/dev/null
  -o Dir::State::Lists="$apt/lists"
  -o Dir::Cache="$apt/cache"
  -o Dir::Cache::pkgcache=
  -o Dir::Cache::srcpkgcache=
  -o Acquire::Languages=none
)
# As root apt downloads as _apt, which may not reach a private dir under $HOME.
[ "$(id -u)" = 0 ] && aptopts+=(-o APT::Sandbox::User=root)

log "fetching tmux source for $suite (log: $buildlog)"
run apt-get "${aptopts[@]}" update
src=$dir/src
rm -rf "$src"
mkdir -p "$src"
# apt-get source runs dpkg-source -x, which applies Debian's patches.
(cd "$src" && run apt-get "${aptopts[@]}" source tmux)
tree=$(find "$src" -mindepth 1 -maxdepth 1 -type d -name 'tmux-*' | head -n 1)
[ -n "$tree" ] || fail "no tmux-* source tree under $src"
echo "source tree: $tree" >>"$buildlog"

# Regenerate configure only if the tree lacks one (or a patch changed autotools input).
if [ ! -x "$tree/configure" ] || [ "$tree/configure.ac" -nt "$tree/configure" ]; then
  need_pkgs autoconf automake
  (cd "$tree" && run autoreconf -fi)
fi

log "building tmux ($suite) into $dir"
(cd "$tree" && run ./configure --prefix="$dir")
(cd "$tree" && run make -j2)
(cd "$tree" && run make install)

"$bin" -V >>"$buildlog" 2>&1 || fail "built $bin does not run"
echo "$bin"

#!/usr/bin/env bash
# Builds the usrsctp peer of sctpj's interop harness.
#
#   build.sh [upeer]        upeer against Debian's libusrsctp-dev -> interop/.cache/upeer
#   build.sh release        usrsctp 0.9.5.0 from Debian's source package, CMake Release
#                           (no debug, no invariants) -> interop/.cache/upeer-release
#   build.sh tsctp          usrsctp's own benchmark program tsctp, CMake Release from the same
#                           source package -> interop/.cache/tsctp-release (the benchmark's
#                           second usrsctp contender: usrsctp at its best, by its authors' tool)
#   build.sh all            upeer and release
#
# Options (before the target):
#   --no-install            never call apt-get; fail with a message when something is missing
#
# Packages are installed only when missing and only as root. Everything built lands under
# interop/.cache/ (git-ignored); nothing of usrsctp's is committed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="$(cd "$HERE/.." && pwd)/.cache"
INSTALL=1
if [[ "${1:-}" == "--no-install" ]]; then
  INSTALL=0
  shift
fi
TARGET="${1:-upeer}"
USRSCTP_VERSION=0.9.5.0
CFLAGS_COMMON=(-std=gnu11 -O2 -Wall -Wextra -Wno-unused-parameter -pthread)

mkdir -p "$CACHE"
# The cache ignores itself: no shared .gitignore to edit (the kernel harness shares the folder).
[[ -f "$CACHE/.gitignore" ]] || echo '*' >"$CACHE/.gitignore"

need_packages() {
  # need_packages CHECK-COMMAND PACKAGE...: installs the packages when the check fails.
  local check="$1"
  shift
  if eval "$check" >/dev/null 2>&1; then
    return 0
  fi
  if [[ $INSTALL -eq 0 ]]; then
    echo "build.sh: missing $*; install with: apt-get install -y $*" >&2
    exit 3
  fi
  if [[ $(id -u) -ne 0 ]]; then
    echo "build.sh: missing $*; run as root or: sudo apt-get install -y $*" >&2
    exit 3
  fi
  echo "build.sh: installing $*" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2 ||
    { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2; }
}

build_upeer() {
  need_packages "command -v gcc" gcc libc6-dev
  need_packages "test -f /usr/include/usrsctp.h" libusrsctp-dev
  local out="$CACHE/upeer"
  if [[ "$out" -nt "$HERE/upeer.c" && "$out" -nt "$HERE/build.sh" ]]; then
    echo "$out (up to date)"
    return 0
  fi
  gcc "${CFLAGS_COMMON[@]}" -o "$out.tmp" "$HERE/upeer.c" -lusrsctp
  mv "$out.tmp" "$out"
  echo "$out"
}

# Adds a deb-src twin of Debian's deb entries (PEERS.md), once.
ensure_deb_src() {
  if grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ || grep -qs '^deb-src' /etc/apt/sources.list; then
    return 0
  fi
  if [[ $INSTALL -eq 0 || $(id -u) -ne 0 ]]; then
    echo "build.sh: no deb-src entry in APT's sources; as root, add one (Types: deb-src copy of" \
      "/etc/apt/sources.list.d/debian.sources) and run apt-get update" >&2
    exit 3
  fi
  echo "build.sh: adding /etc/apt/sources.list.d/sctpj-deb-src.sources" >&2
  cat >/etc/apt/sources.list.d/sctpj-deb-src.sources <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  apt-get update -q >&2
}

# Unpacks usrsctp's Debian source package under interop/.cache/usrsctp-src (downloaded once).
fetch_source() {
  local src="$CACHE/usrsctp-src"
  local tree="$src/usrsctp-$USRSCTP_VERSION"
  mkdir -p "$src"
  if [[ ! -f "$tree/CMakeLists.txt" ]]; then
    if ! ls "$src"/libusrsctp_"$USRSCTP_VERSION".orig.tar.* >/dev/null 2>&1; then
      ensure_deb_src
      (cd "$src" && apt-get source --download-only "libusrsctp=$USRSCTP_VERSION-2" >&2 ||
        apt-get source --download-only libusrsctp >&2)
    fi
    tar -xf "$src"/libusrsctp_"$USRSCTP_VERSION".orig.tar.* -C "$src"
  fi
}

build_release() {
  need_packages "command -v gcc" gcc libc6-dev
  need_packages "command -v cmake" cmake
  need_packages "command -v make" make
  fetch_source
  local tree="$CACHE/usrsctp-src/usrsctp-$USRSCTP_VERSION"
  local bld="$CACHE/usrsctp-release-build"
  local lib="$bld/usrsctplib/libusrsctp.a"
  if [[ ! -f "$lib" ]]; then
    cmake -S "$tree" -B "$bld" -DCMAKE_BUILD_TYPE=Release \
      -Dsctp_debug=0 -Dsctp_invariants=0 -Dsctp_werror=0 \
      -Dsctp_build_programs=0 -Dsctp_build_fuzzer=0 -Dsctp_build_shared_lib=0 >&2
    cmake --build "$bld" -j "$(nproc)" >&2
  fi
  local out="$CACHE/upeer-release"
  if [[ "$out" -nt "$HERE/upeer.c" && "$out" -nt "$lib" ]]; then
    echo "$out (up to date)"
    return 0
  fi
  # The headers of the same source tree, the static library: no clash with the installed one.
  gcc "${CFLAGS_COMMON[@]}" -O3 -I"$tree/usrsctplib" -o "$out.tmp" "$HERE/upeer.c" "$lib"
  mv "$out.tmp" "$out"
  echo "$out"
}

build_tsctp() {
  need_packages "command -v gcc" gcc libc6-dev
  need_packages "command -v cmake" cmake
  need_packages "command -v make" make
  fetch_source
  local tree="$CACHE/usrsctp-src/usrsctp-$USRSCTP_VERSION"
  # Its own build tree: the programs need the library built with them, as usrsctp's authors build it.
  local bld="$CACHE/usrsctp-release-programs"
  local out="$CACHE/tsctp-release"
  if [[ -x "$out" ]]; then
    echo "$out (up to date)"
    return 0
  fi
  cmake -S "$tree" -B "$bld" -DCMAKE_BUILD_TYPE=Release \
    -Dsctp_debug=0 -Dsctp_invariants=0 -Dsctp_werror=0 \
    -Dsctp_build_programs=1 -Dsctp_build_fuzzer=0 -Dsctp_build_shared_lib=0 >&2
  cmake --build "$bld" -j "$(nproc)" --target tsctp >&2
  cp "$bld/programs/tsctp" "$out.tmp"
  mv "$out.tmp" "$out"
  echo "$out"
}

case "$TARGET" in
  upeer) build_upeer ;;
  release) build_release ;;
  tsctp) build_tsctp ;;
  all)
    build_upeer
    build_release
    ;;
  *)
    echo "usage: build.sh [--no-install] [upeer|release|tsctp|all]" >&2
    exit 64
    ;;
esac

#!/usr/bin/env bash
# The clang matrix: every clang major that a Debian release packages side by side, each proven on
# what the course promises. For each, in a minimal root of that release (debian_root.sh), the
# course is built with that clang (CMAKE_CXX_COMPILER=clang++-N, CPU backend) and
#   - every broken kernel of tests/broken must give its finding (the corpus test),
#   - every reference solution must pass its checker in every thread order (the checkers' test),
#   - the instrumentation canaries must hold (a build that lost a check refuses to build).
#
#   tests/platforms/clang_matrix.sh [--release bookworm|trixie|...] [--clang "N M ..."] [--keep] [--log-dir DIR]
#
# As root. The majors are those the release's archive has as clang-N packages (apt-cache), unless
# --clang names some. It prints one line per major and writes matrix.json and each major's logs
# to the log folder; it exits non-zero when any major misses a finding or fails a solution.
# CTest label clang-matrix (on demand: configure with -DPUZZLES_PLATFORM_TESTS=ON). It takes
# about ten minutes per major on 2 cores.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
checkout="$(cd "$here/../.." && pwd)"
name=clang-matrix
# shellcheck source=debian_root.sh
. "$here/debian_root.sh"

keep=0
log_dir=""
release=bookworm
majors=""
usage="usage: $0 [--release RELEASE] [--clang \"N M ...\"] [--keep] [--log-dir DIR]"
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=1 ;;
    --log-dir) log_dir="${2:?--log-dir needs a folder}"; shift ;;
    --release) release="${2:?--release needs a Debian release}"; shift ;;
    --clang) majors="${2:?--clang needs clang majors, such as \"14 15\"}"; shift ;;
    *) say "unknown option '$1' ($usage)"; exit 2 ;;
  esac
  shift
done

root_require_tools
root_make "$release" "$log_dir" "$keep"
root_copy_checkout /srv/course
root_enter "$here/clang_matrix_inside.sh" "$root" "$log_dir" "$release" "$majors"

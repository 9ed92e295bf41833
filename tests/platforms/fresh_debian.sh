#!/usr/bin/env bash
# The fresh-machine test: the README's two commands, as a new user types them, on a minimal
# Debian that has nothing but its base system.
#
#   tests/platforms/fresh_debian.sh [--release RELEASE] [--at FOLDER] [--keep] [--log-dir DIR]
#
# As root. It makes a root with `mmdebstrap --variant=minbase RELEASE` (bookworm, Debian 12, by
# default; trixie is Debian 13, forky or testing the next release; the Debian mirror must be
# reachable), copies the checkout's committed files into it at FOLDER (/srv/course by default;
# /root/course is where a root user on a cloud machine clones), and inside it (chroot, with
# /proc, /sys and /dev, /dev/pts included, mounted; tests/platforms/debian_root.sh) runs
#   checker/run p01    which must install the core packages and print a clean FAIL of the stub (exit 1)
#   checker/run test   which must install what the suite needs, build, and pass (exit 0), with no
#                      test skipped for a package it did not install
# and prints how long each took. Everything inside runs in private mount and PID namespaces: when
# the test ends, however it ends, every process in it is killed and every mount goes away; the
# root is then deleted (--keep leaves it, and says where).
# --allow-expired-release accepts Release files past their Valid-Until date (a mirror that is a
# snapshot serves testing's so). --log-dir DIR keeps both commands' output and a summary there. CTest label: fresh-machine
# (on demand: configure with -DPUZZLES_PLATFORM_TESTS=ON, run ctest -L fresh-machine).
# It takes 15 to 30 minutes on 2 cores; most of it is `checker/run test` building everything.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
checkout="$(cd "$here/../.." && pwd)"
name=fresh-debian
# shellcheck source=debian_root.sh
. "$here/debian_root.sh"

keep=0
log_dir=""
release=bookworm
course=/srv/course
usage="usage: $0 [--release bookworm|trixie|forky|testing] [--at FOLDER] [--allow-expired-release] [--keep] [--log-dir DIR]"
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=1 ;;
    --log-dir) log_dir="${2:?--log-dir needs a folder}"; shift ;;
    --release) release="${2:?--release needs a Debian release}"; shift ;;
    --at) course="${2:?--at needs a folder inside the root, such as /root/course}"; shift ;;
    --allow-expired-release) allow_expired_release=1 ;;
    *) say "unknown option '$1' ($usage)"; exit 2 ;;
  esac
  shift
done
[[ "$course" == /* ]] || { say "--at needs an absolute folder inside the root ($usage)"; exit 2; }

root_require_tools
root_make "$release" "$log_dir" "$keep"
root_copy_checkout "$course"
root_enter "$here/fresh_debian_inside.sh" "$root" "$log_dir" "$release" "$course"

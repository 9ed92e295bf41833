#!/usr/bin/env bash
# The fresh-machine test: the README's two commands, as a new user types them, on a minimal
# Debian 12 that has nothing but its base system.
#
#   tests/platforms/fresh_debian.sh [--keep] [--log-dir DIR]
#
# As root. It makes a root with `mmdebstrap --variant=minbase bookworm` (the Debian mirror must be
# reachable), copies the checkout's committed files into it (git archive HEAD: what a clone has),
# and inside it (chroot, with /proc, /sys and /dev, /dev/pts included, mounted) runs
#   checker/run p01    which must install the core packages and print a clean FAIL of the stub (exit 1)
#   checker/run test   which must install what the suite needs, build, and pass (exit 0), with no
#                      test skipped for a package it did not install
# and prints how long each took. Everything inside runs in private mount and PID namespaces: when
# the test ends, however it ends, every process in it is killed and every mount goes away; the
# root is then deleted (--keep leaves it, and says where).
# --log-dir DIR keeps both commands' output and a summary there. CTest label: fresh-machine
# (on demand: configure with -DPUZZLES_PLATFORM_TESTS=ON, run ctest -L fresh-machine).
# It takes 15 to 30 minutes on 2 cores; most of it is `checker/run test` building everything.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
checkout="$(cd "$here/../.." && pwd)"
say() { printf 'fresh-debian: %s\n' "$*" >&2; }

keep=0
log_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=1 ;;
    --log-dir) log_dir="${2:?--log-dir needs a folder}"; shift ;;
    *) say "unknown option '$1' (usage: $0 [--keep] [--log-dir DIR])"; exit 2 ;;
  esac
  shift
done

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIPPED: the fresh-machine test makes a Debian root and chroots into it, which needs root"
  exit 77
fi
if ! command -v git >/dev/null || ! git -C "$checkout" rev-parse --verify -q HEAD >/dev/null; then
  echo "SKIPPED: the fresh-machine test copies a git checkout's committed files (Debian package git)"
  exit 77
fi
for tool in mmdebstrap unshare; do
  if ! command -v "$tool" >/dev/null; then
    # The test's own tool, not the course's: installed here rather than listed in
    # checker/debian-packages.txt, which lists what the course needs.
    say "installing mmdebstrap (the test's tool for making the Debian root)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap util-linux >/dev/null
    break
  fi
done

work="$(mktemp -d "${TMPDIR:-/tmp}/fresh-debian.XXXXXX")"
root="$work/root"
[ -n "$log_dir" ] || log_dir="$work/logs"
mkdir -p "$log_dir"
log_dir="$(cd "$log_dir" && pwd)"

# Processes whose root directory is in the test's folder (none once the namespaces have ended).
processes_inside() {
  local p
  for p in /proc/[0-9]*; do
    [[ "$(readlink "$p/root" 2>/dev/null)" == "$work"/* ]] && echo "${p#/proc/}"
  done
  return 0
}

cleanup() {
  local status=$?
  # The mounts and processes were in namespaces that have ended; make sure before deleting.
  if [ -n "$(processes_inside)" ]; then
    say "processes $(processes_inside | tr '\n' ' ')still run in $work; not deleting it"
  elif grep " $work/" /proc/self/mounts >/dev/null; then
    say "mounts under $work are still there; not deleting it (umount -R them first)"
  elif [ "$keep" = 1 ]; then
    say "the root is kept at $root"
  else
    rm -rf --one-file-system "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "making a minimal Debian 12 root (mmdebstrap --variant=minbase bookworm)"
start=$(date +%s)
mmdebstrap --quiet --variant=minbase bookworm "$root" >"$log_dir/mmdebstrap.log" 2>&1 ||
  { cat "$log_dir/mmdebstrap.log" >&2; say "mmdebstrap failed"; exit 1; }
say "root made in $(( $(date +%s) - start )) s"
cp /etc/resolv.conf "$root/etc/resolv.conf"  # apt-get inside needs the host's name servers

commit="$(git -C "$checkout" rev-parse --short HEAD)"
mkdir -p "$root/srv/course"
git -C "$checkout" archive --format=tar HEAD | tar -x -C "$root/srv/course"
say "copied the checkout's committed files (commit $commit) to /srv/course in the root (outside /root, which the grading sandbox must hide)"

# Private mount and PID namespaces: when their first process (the script) ends, or unshare is
# killed (--kill-child), the kernel kills every process left in them and drops every mount.
unshare --mount --propagation private --pid --fork --kill-child "$here/fresh_debian_inside.sh" "$root" "$log_dir"

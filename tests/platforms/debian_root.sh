# A fresh Debian root for the platform proofs (fresh_debian.sh, clang_matrix.sh), sourced by
# them. Each proof makes a minimal root of a Debian release with mmdebstrap, copies the
# checkout's committed files into it (git archive HEAD: what a clone has), and runs a script of
# its own in it, in private mount and PID namespaces: when that script ends, however it ends,
# every process in them is killed and every mount goes away; the root is then deleted (or kept).
#
# The caller sets `name` (for messages and the work folder) and `checkout`, then calls
#   root_require_tools                       skips (exit 77) without root or git; installs mmdebstrap
#   root_make RELEASE LOG_DIR KEEP           makes $work and $root, and the cleanup on exit
#   root_copy_checkout DEST                  the committed files at DEST inside the root
#   root_enter SCRIPT ARGS...                runs SCRIPT ROOT ARGS... in the namespaces
# Inside, SCRIPT sources debian_root_inside.sh for the mounts and run_in_root.

say() { printf '%s: %s\n' "$name" "$*" >&2; }

# The release's name as people say it; any suite mmdebstrap knows is accepted.
release_title() {
  case "$1" in
    bookworm) echo "Debian 12 (bookworm)" ;;
    trixie) echo "Debian 13 (trixie)" ;;
    forky) echo "Debian 14 (forky, testing)" ;;
    testing) echo "Debian testing" ;;
    *) echo "Debian $1" ;;
  esac
}

root_require_tools() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "SKIPPED: $name makes a Debian root and chroots into it, which needs root"
    exit 77
  fi
  if ! command -v git >/dev/null || ! git -C "$checkout" rev-parse --verify -q HEAD >/dev/null; then
    echo "SKIPPED: $name copies a git checkout's committed files (Debian package git)"
    exit 77
  fi
  local tool
  for tool in mmdebstrap unshare; do
    if ! command -v "$tool" >/dev/null; then
      # The proof's own tool, not the course's: installed here rather than listed in
      # checker/debian-packages.txt, which lists what the course needs.
      say "installing mmdebstrap (the tool that makes the Debian root)"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap util-linux >/dev/null
      break
    fi
  done
}

# Processes whose root directory is in the work folder (none once the namespaces have ended).
processes_inside() {
  local p
  for p in /proc/[0-9]*; do
    [[ "$(readlink "$p/root" 2>/dev/null)" == "$work"/* ]] && echo "${p#/proc/}"
  done
  return 0
}

root_cleanup() {
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

root_make() {
  local release="$1"
  log_dir="$2"
  keep="$3"
  work="$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")"
  root="$work/root"
  [ -n "$log_dir" ] || log_dir="$work/logs"
  mkdir -p "$log_dir"
  log_dir="$(cd "$log_dir" && pwd)"
  trap root_cleanup EXIT
  trap 'exit 130' INT TERM

  say "making a minimal $(release_title "$release") root (mmdebstrap --variant=minbase $release)"
  local start
  start=$(date +%s)
  local options=()
  # A mirror that is a snapshot serves testing's Release files past their short Valid-Until date;
  # apt refuses them unless told (the root keeps the setting for the course's own apt-get).
  [ "${allow_expired_release:-0}" = 1 ] && options+=(--aptopt='Acquire::Check-Valid-Until "false"')
  mmdebstrap --verbose --variant=minbase "${options[@]}" "$release" "$root" >"$log_dir/mmdebstrap.log" 2>&1 ||
    { cat "$log_dir/mmdebstrap.log" >&2; say "mmdebstrap failed"; exit 1; }
  say "root made in $(( $(date +%s) - start )) s"
  cp /etc/resolv.conf "$root/etc/resolv.conf"  # apt-get inside needs the host's name servers
}

root_copy_checkout() {
  local dest="$1"
  mkdir -p "$root$dest"
  git -C "$checkout" archive --format=tar HEAD | tar -x -C "$root$dest"
  say "copied the checkout's committed files (commit $(git -C "$checkout" rev-parse --short HEAD)) to $dest in the root"
}

root_enter() {
  # Private mount and PID namespaces: when their first process (the script) ends, or unshare is
  # killed (--kill-child), the kernel kills every process left in them and drops every mount.
  unshare --mount --propagation private --pid --fork --kill-child "$@"
}

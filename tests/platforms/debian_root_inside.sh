# The inside half of debian_root.sh, sourced by a proof's script once it runs as the first
# process of the private namespaces: mounts what a booted machine has, and run_in_root runs a
# command in the root as a new user types it. The caller sets `root`.

# The root is made a mount point of its own, as a machine's / is: bubblewrap (the grading tests'
# sandbox) pivots its root and cannot where / is a plain directory. /dev with /dev/pts and
# /dev/shm: the watch-mode tests run the checker on a pseudo-terminal.
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"  # this PID namespace's processes only
mount -t sysfs sysfs "$root/sys"
mount --rbind /dev "$root/dev"

# run_in_root FOLDER COMMAND: COMMAND in FOLDER of the root, with a login shell's variables and
# nothing of this machine's.
run_in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=xterm \
    LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd '$1' && $2" </dev/null
}

minutes() { printf '%d min %02d s' $(( $1 / 60 )) $(( $1 % 60 )); }

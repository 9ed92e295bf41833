"""The sandbox around every build and every run of a student's file during grading.

On the CPU backend a kernel is host code, and a submission can also run code in a static
initialiser: grading must assume it will try anything. Each build step and checker run is
wrapped in bubblewrap (Debian's `bubblewrap`; docs/dev/grading.md says why this tool):

- no network (a network namespace of its own, with only a loopback nobody listens on);
- a read-only view of the toolchain (/usr, a few files of /etc, /opt) and of exactly what a
  submission's build reads of the course and of the instructor's build (what_grading_reads():
  the grading project, the course's CMake modules, the headers it compiles against, and the
  libraries and program the build exports); nothing else of the machine. Each folder above one
  of those is shown as an empty folder that holds only the way down to it: a course in a home
  folder shows the home's name and the course's, never the home's other files (dotfiles, keys,
  other checkouts), the course's neighbours or the rest of the course (solutions/, .git, other
  build trees, classes and grades kept there). Where the course or the build lies in a
  toolchain folder (/opt/course), an empty folder covers it there too (show(covering=...)), so
  only its neighbours in that folder show. The class folder, the results folder and the
  course's backups are hidden under empty folders wherever they lie inside what is shown;
- one writable folder: the submission's own scratch folder (its copy of the file and its
  build tree), always at the same path, SCRATCH_AT, whichever submission it is (so that a
  build tree configured there once per puzzle works in each submission's copy), and an empty
  /tmp of its own;
- its own process, IPC and host-name namespaces, a session of its own, and death with grading;
- an unprivileged user: as root, bubblewrap sets the namespaces up and the command then drops
  to a uid of its own (one per job slot, so that the process limit of one submission never
  counts another's) with no capabilities; as anyone else, a user namespace maps the grader to
  "nobody";
- the limits of LIMITS (CPU seconds, memory, processes, file size), set with prlimit
  inside the sandbox.

`checker/run grade --no-sandbox` runs the same commands bare (and without the limits), where
each scratch folder stays at its own path.
"""
import contextlib
import math
import os
import queue
import random
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from course.grading_processes import run as run_process


@dataclass(frozen=True)
class Limits:
    """Resource limits inside the sandbox: the one place they are set (docs/instructors.md
    lists them). CPU seconds come from each step's time limit."""
    # Bytes of private writable memory (RLIMIT_DATA, which every malloc and new counts). Not
    # RLIMIT_AS: the CPU backend reserves a terabyte of address space it never backs.
    memory: int = 8 * 1024 ** 3
    processes: int = 128  # per submission: a build runs about 10, a fork bomb stops here
    file_size: int = 512 * 1024 ** 2  # bytes per file written: a checker binary is tens of MB
    open_files: int = 1024

    def prlimit(self, cpu_seconds):
        return ["prlimit", f"--cpu={max(1, math.ceil(cpu_seconds))}", f"--data={self.memory}",
                f"--nproc={self.processes}", f"--fsize={self.file_size}", f"--nofile={self.open_files}",
                "--core=0", "--"]

    def words(self):
        return (f"CPU time as the time limits, {self.memory // 1024 ** 3} GiB of memory, "
                f"{self.processes} processes, files up to {self.file_size // 1024 ** 2} MiB")


LIMITS = Limits()
# As root, each job slot runs as a uid of its own, from a block of uids above UID_BASE: ids no
# account uses (below the kernel's 2^32 - 1, above every range useradd and subuid hand out). Each
# grading run takes a block no process uses, at random (free_uid_block): the process limit counts
# every process of a uid on the machine, so two runs at once (shards on one machine, or two tests)
# sharing a uid would let a fork bomb in one fail a classmate's fork in the other.
UID_BASE = 2_000_000_000
UID_END = 2**32 - 2  # (uid_t) -1 means "no change" to the kernel
NOBODY = 65534
PATH = "/usr/local/bin:/usr/bin:/bin"
TOOLCHAIN = ["/usr", "/opt"]
MERGED_USR = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]
ETC = ["ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "passwd", "group", "nsswitch.conf",
       "localtime"]
# The instructor's choices that reach a submission: the GPU to use, the language, and the CPU
# backend's execution model (PUZZLES_CPU_EXECUTION_MODEL=fibers grades every kernel on fibers).
PASSED_ENV = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "LANG", "PUZZLES_CPU_EXECUTION_MODEL")
# Where the sandbox shows a submission's scratch folder: one path for every submission, as
# each has a mount namespace of its own.
SCRATCH_AT = Path("/submission")


class SandboxUnavailable(Exception):
    """The sandbox cannot be set up here: the message says why and what to do."""


class Bare:
    """--no-sandbox: the commands run as they are, with the grader's rights."""
    used = False
    scratch_at = None  # each scratch folder stays where it is

    def words(self):
        return "none (--no-sandbox): students' code ran with the grader's rights"

    @contextlib.contextmanager
    def slot(self):
        yield self

    def show(self, paths, covering=()):
        pass

    def prepare(self, scratch):
        pass

    def reclaim(self, folder):
        pass

    def exit_status(self, status):
        return status

    def wrap(self, command, scratch, cpu_seconds, env, at=None):
        return command, dict(os.environ, **env)


class Bubblewrap:
    """Wraps commands in bubblewrap; see the top of this file."""
    used = True
    scratch_at = SCRATCH_AT

    def __init__(self, readable, hidden, jobs, gpu=False, bwrap=None):
        self.bwrap = bwrap or shutil.which("bwrap")
        self.root = os.geteuid() == 0
        self.readable, self.covered = [], []
        self.show(readable)
        self.hidden = [Path(p).resolve() for p in hidden]
        self.gpu = gpu
        self.version = ""
        self.disable_userns = False
        self._uids = queue.Queue()
        slots = max(1, jobs) + 1  # + 1: the preflight
        base = free_uid_block(slots) if self.root else None
        for slot in range(slots):
            self._uids.put(base + slot if self.root else os.getuid())

    def words(self):
        who = "a uid of its own per job, no capabilities" if self.root else "a user namespace, as nobody"
        return (f"bubblewrap {self.version} (no network; read-only toolchain and what the build reads of the "
                f"course; a private scratch folder; {who}; {LIMITS.words()})").replace("  ", " ")

    def show(self, paths, covering=()):
        """From now on the sandbox shows these files and folders (read-only) besides the toolchain,
        and nothing else of the machine. covering: folders (the course, the build) of which
        nothing else may show, even where they lie in a toolchain folder that is shown whole
        (/opt/course, /usr/local/src/course): an empty folder covers each, and paths inside it
        are shown on top."""
        toolchain = [Path(t) for t in TOOLCHAIN + MERGED_USR]
        self.covered = _outermost([c for c in (Path(p).resolve() for p in covering) if _within(c, toolchain)])
        shown = [Path(p).resolve() for p in paths]
        self.readable = _outermost([p for p in shown if not _within(p, toolchain) or _within(p, self.covered)])

    @contextlib.contextmanager
    def slot(self):
        """A uid for one submission at a time (as root); given back when it is graded."""
        uid = self._uids.get()
        try:
            yield _Slot(self, uid)
        finally:
            self._uids.put(uid)

    def probe(self, scratch):
        """Runs a trivial command in the sandbox; raises SandboxUnavailable with bwrap's words."""
        if not self.bwrap or not os.access(self.bwrap, os.X_OK):
            raise SandboxUnavailable(
                "bubblewrap (bwrap) is not installed, so students' code cannot be sandboxed. Install it "
                "(sudo apt-get install -y bubblewrap), or grade without a sandbox, knowingly, with --no-sandbox.")
        done = subprocess.run([self.bwrap, "--version"], capture_output=True, text=True)
        self.version = done.stdout.strip().split()[-1] if done.returncode == 0 and done.stdout.strip() else "?"
        helped = subprocess.run([self.bwrap, "--help"], capture_output=True, text=True)
        self.disable_userns = "--disable-userns" in helped.stdout + helped.stderr  # bubblewrap 0.8 and later
        with self.slot() as slot:
            slot.prepare(scratch)
            command, env = slot.wrap(["sh", "-c", "test -w ."], scratch, 10, {})
            done = run_process(command, cwd=scratch, time_limit=30, env=env)
        if done.status != 0:
            said = done.output.strip() or f"exit status {done.status}"
            raise SandboxUnavailable(
                f"the sandbox (bubblewrap) cannot be set up here: {said}\n"
                "It needs user namespaces (or root): see docs/instructors.md, 'The sandbox'. To grade "
                "without it, knowingly, add --no-sandbox.")


class _Slot:
    def __init__(self, sandbox, uid):
        self.sandbox = sandbox
        self.uid = uid
        self.scratch_at = sandbox.scratch_at

    def exit_status(self, status):
        """The command's exit status as subprocess gives it (-N for signal N): bubblewrap reports a
        command that a signal ended as 128 + N."""
        return -(status - 128) if status is not None and 128 < status < 128 + 65 else status

    def prepare(self, scratch):
        """The scratch folder and what is in it belong to the sandbox's user (as root)."""
        if not self.sandbox.root:
            return
        _chown_tree(scratch, self.uid)

    def reclaim(self, folder):
        """folder and what is in it belong to the grader again (as root): what a sandbox built for
        everyone (a template tree) is then out of reach of the uid that built it."""
        if self.sandbox.root:
            _chown_tree(folder, os.getuid())

    def wrap(self, command, scratch, cpu_seconds, env, at=None):
        """(bwrap's command line, the environment to start it with). The scratch folder is shown
        at `at` (SCRATCH_AT) where given, else at its own path."""
        s = self.sandbox
        source = str(Path(scratch).resolve())
        scratch = str(at or source)
        args = [s.bwrap, "--die-with-parent", "--new-session", "--unshare-net", "--unshare-pid",
                "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--hostname", "grading"]
        if not s.root:
            args += ["--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY)]
            args += ["--disable-userns"] if s.disable_userns else []
        made = {Path("/"), Path("/tmp")}
        bound = []

        def reachable(path):
            """bwrap makes a bind's missing parents private (0700): the user must pass through."""
            extra = []
            for parent in reversed(Path(path).parents):
                if parent in made or any(parent == b or b in parent.parents for b in bound):
                    continue
                made.add(parent)
                extra += ["--perms", "0755", "--dir", str(parent)]
            return extra
        args += ["--perms", "1777", "--tmpfs", "/tmp"]  # first: what is shown may lie in /tmp
        for top in MERGED_USR:
            if os.path.islink(top):
                args += ["--symlink", os.readlink(top), top]
            elif os.path.isdir(top):
                args += ["--ro-bind", top, top]
        for folder in TOOLCHAIN:
            args += reachable(folder) + ["--ro-bind-try", folder, folder]
        for name in ETC:
            args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
        args += ["--dev", "/dev", "--proc", "/proc"]
        for folder in s.covered:  # the course or the build inside /opt or /usr: nothing of it shows
            args += ["--tmpfs", str(folder)]
            made |= {folder, *folder.parents}
        if s.gpu:  # the GPU's device files and what the driver reads of /sys
            for device in sorted(Path("/dev").glob("nvidia*")):
                args += ["--dev-bind", str(device), str(device)]
            args += ["--ro-bind-try", "/sys", "/sys"]
        for folder in s.readable:
            args += reachable(folder) + ["--ro-bind", str(folder), str(folder)]
            bound.append(folder)
        for folder in s.hidden:  # an empty folder over it, where it lies inside what is shown
            toolchain = [Path(t) for t in TOOLCHAIN]
            if folder.exists() and (_within(folder, s.readable) or
                                    _within(folder, toolchain) and not _within(folder, s.covered)):
                args += ["--tmpfs", str(folder)]
        args += reachable(scratch) + ["--bind", source, scratch, "--chdir", scratch, "--clearenv",
                 "--setenv", "PATH", PATH, "--setenv", "HOME", scratch, "--setenv", "TMPDIR", "/tmp"]
        for name, value in list(env.items()) + [(n, os.environ[n]) for n in PASSED_ENV if n in os.environ]:
            args += ["--setenv", name, value]
        args.append("--")
        if s.root:
            args += ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                     "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
        return args + LIMITS.prlimit(cpu_seconds) + list(command), {"PATH": os.environ.get("PATH", PATH)}


def uids_in_use():
    """The real, effective, saved and file-system uids of every process this machine shows."""
    used = set()
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            for line in status.read_text(encoding="utf-8", errors="replace").splitlines():
                if line.startswith("Uid:"):
                    used.update(int(u) for u in line.split()[1:])
                    break
        except (OSError, ValueError):  # a process that ended while we looked
            continue
    return used


def free_uid_block(count, in_use=None, rng=random):
    """The first of `count` consecutive uids at or above UID_BASE that no process uses, the block
    picked at random among blocks of at least 1024: another grading run started at the same moment
    picks the same block once in about two million."""
    in_use = uids_in_use() if in_use is None else in_use
    size = max(1024, count)
    blocks = (UID_END - UID_BASE) // size
    for _ in range(1000):
        base = UID_BASE + rng.randrange(blocks) * size
        if not any(base <= uid < base + count for uid in in_use):
            return base
    raise SandboxUnavailable("every block of uids grading may use has a process in it")


def _chown_tree(folder, uid):
    for current, dirs, files in os.walk(folder):
        for name in [current] + [os.path.join(current, n) for n in dirs + files]:
            os.lchown(name, uid, uid)


def _within(path, folders):
    """Whether path is one of folders or lies inside one."""
    return any(path == f or f in path.parents for f in folders)


def _outermost(folders):
    """The folders that are not inside another of them (a bind of each is enough)."""
    folders = sorted(set(folders))
    return [f for f in folders if not any(o != f and o in f.parents for o in folders)]


def what_grading_reads(grading_project, build_dir, source_dir):
    """The files and folders a submission's build and run read outside the toolchain: the
    grading project (checker/grading), the course's CMake modules it includes (checker/cmake of
    source_dir, the course the build was configured from), the build's grading export, and
    every path that export names: the engine's and checker library's headers, the libraries
    and ptx_rewrite, and whatever they link to. Nothing else of the course or of the build."""
    export = Path(build_dir) / "grading"
    paths = [Path(grading_project), Path(source_dir) / "checker" / "cmake", export]
    for name in ("targets.cmake", "imported.cmake"):
        text = (export / name).read_text(encoding="utf-8") if (export / name).exists() else ""
        # Values as export() writes them ("a;b") and as GradingExport.cmake does ([==[a;b]==]).
        for quoted, bracketed in re.findall(r'"([^"]*)"|\[==\[(.*?)\]==\]', text, re.S):
            for item in (quoted or bracketed).split(";"):
                item = re.sub(r"^(\$<[^:>]*:)+|>+$", "", item.strip())  # $<LINK_ONLY:/path>
                if item.startswith("/") and item.rstrip("/") and os.path.exists(item):  # never all of /
                    paths.append(Path(item))
    return paths


def choose(no_sandbox, hidden, jobs, gpu, scratch_root):
    """The sandbox to grade with: bubblewrap, probed once, or Bare for --no-sandbox. It shows
    nothing of the course until show() is given what_grading_reads()."""
    if no_sandbox:
        return Bare()
    sandbox = Bubblewrap([], hidden, jobs, gpu)
    scratch = Path(tempfile.mkdtemp(prefix="probe-", dir=scratch_root))
    try:
        sandbox.probe(scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return sandbox

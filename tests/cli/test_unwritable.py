"""A course folder the command line cannot write: every command that writes ends in one message
(which folder, why, how to fix it) and exit 2, never a traceback, and writes nothing.

The copy of the course (the source tree, as fixture.py copies it) belongs to another user (uid
4242), and the command line runs as uid 1000, the dev container's user: the case of a checkout
mounted from a Linux host whose uid is not 1000, or from rootless Podman. Tests run as root, which
writes anything, so the commands run through setpriv as uid 1000; run by a user who is not root,
the copy is made read-only for that user instead (chmod). A read-only mount of the copy (unshare
and mount --bind -o ro, as root) is the third case. Standard library only.

  python3 test_unwritable.py <test name>        (CTest runs each; see CMakeLists.txt)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import fixture  # noqa: E402  (its copy of the source tree: no build/, .git or backups/)

OWNER = 4242        # the copy's owner: not the user the commands run as
CONTAINER_USER = 1000  # the dev container's user (.devcontainer/Dockerfile's USER_UID)
SKIP = 77
PUZZLE = "p01_naive"


def missing_packages(*groups):
    """What checker/run would install first (it cannot, as a user without sudo): a command that
    needs it cannot reach its writes here."""
    done = subprocess.run([str(ROOT / "checker" / "install-packages"), "--missing", *groups],
                          capture_output=True, text=True)
    return done.stdout.split()


def files_of(folder):
    """Every file and folder under folder with its size and modification time: what a command
    that wrote nothing leaves as it was."""
    seen = {}
    for place, folders, names in os.walk(folder):
        for name in folders + names:
            path = os.path.join(place, name)
            status = os.lstat(path)
            seen[os.path.relpath(path, folder)] = (status.st_size, status.st_mtime_ns)
    return seen


class Unwritable(unittest.TestCase):
    """The copy, unwritable for the user who runs the commands."""

    def setUp(self):
        self.work = Path(tempfile.mkdtemp(prefix="course-unwritable-"))
        self.work.chmod(0o755)  # the other user must reach the copy
        self.copy = self.work / "course"
        self.outside = self.work / "elsewhere"  # a folder outside the course (handout's OUT)
        fixture.sync(ROOT, self.copy)
        self.outside.mkdir()
        self.as_root = os.geteuid() == 0

    def tearDown(self):
        if not self.as_root:
            for place, folders, _ in os.walk(self.work):
                os.chmod(place, 0o755)
        shutil.rmtree(self.work)

    def prepare(self, with_build):
        """with_build: build/ holds what a first `checker/run list` keeps (the stubs' copies), so
        that a command gets past that to its own writes. Then the copy stops being writable."""
        if with_build:
            done = subprocess.run([str(self.copy / "checker" / "run"), "list"], cwd=self.copy,
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            # A student's edit, so that reset has something to back up.
            puzzle = self.copy / "puzzles" / f"{PUZZLE}.cu"
            puzzle.write_text(puzzle.read_text() + "// my attempt\n")
        if self.as_root:
            probe = subprocess.run(["setpriv", "--reuid", str(CONTAINER_USER), "--regid", str(CONTAINER_USER),
                                    "--clear-groups", "true"], capture_output=True, text=True) \
                if shutil.which("setpriv") else None
            if probe is None or probe.returncode != 0:
                self.skipTest("setpriv cannot run a command as another user here: "
                              + (probe.stderr.strip() if probe else "no setpriv (util-linux, on every Debian system)"))
            for place, folders, names in os.walk(self.work):
                for name in [place] + [os.path.join(place, n) for n in folders + names]:
                    os.lchown(name, OWNER, OWNER)
        else:
            for place, folders, _ in os.walk(self.work):
                os.chmod(place, 0o555)

    def run_cli(self, *args, read_only_mount=False):
        """checker/run in the copy as the other user (or self, or as root under a read-only mount):
        (exit status, stdout + stderr)."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.work), "LC_ALL": "C.UTF-8",
               "NO_COLOR": "1", "GIT_CEILING_DIRECTORIES": str(self.work)}
        command = [str(self.copy / "checker" / "run"), *args]
        if read_only_mount:
            command = ["unshare", "--mount", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"',
                       str(self.copy), *command]
        elif self.as_root:
            command = ["setpriv", "--reuid", str(CONTAINER_USER), "--regid", str(CONTAINER_USER), "--clear-groups",
                       *command]
        done = subprocess.run(command, cwd=self.copy, env=env, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=300)
        return done.returncode, done.stdout + done.stderr

    def assert_one_message(self, args, wanted, folder, read_only_mount=False):
        """The command ends in the message about folder (as shown: relative to the course, or
        whole), exit 2, no traceback, and nothing written."""
        before = files_of(self.work)
        status, output = self.run_cli(*args, read_only_mount=read_only_mount)
        said = f"checker/run {' '.join(args)} said:\n{output}"
        self.assertEqual(status, 2, said)
        self.assertNotIn("Traceback", output, said)
        self.assertEqual(output.count("checker/run: cannot write "), 1, said)
        self.assertIn(f"cannot write {wanted}", output, said)
        paragraphs = []  # the message's lines, each with its continuation lines (indented)
        for line in output.splitlines():
            if line.startswith("  ") and paragraphs:
                paragraphs[-1] += " " + line.strip()
            else:
                paragraphs.append(line)
        why = next((p for p in paragraphs if p.startswith("Why: ")), "")
        self.assertIn(folder, why, said)
        if read_only_mount:
            self.assertIn("read-only file system", why, said)
        elif self.as_root:
            self.assertIn(f"belongs to uid {OWNER}", why, said)
            self.assertIn(f"runs as uid {CONTAINER_USER}", why, said)
        else:
            self.assertIn("has no write permission", why, said)
        self.assertTrue(any(p.startswith("Fix") for p in paragraphs), said)
        self.assertEqual(files_of(self.work), before, f"{said}\nIt wrote in the course.")

    def test_a_fresh_checkout_nobody_can_write_fails_at_the_first_command(self):
        self.prepare(with_build=False)
        for args in (["list"], ["hint", "1"], ["p01"]):
            with self.subTest(command=args):
                self.skip_if_packages_are_missing(args)
                self.assert_one_message(args, "build", f"{self.copy} (the course's folder)")

    def test_every_command_that_writes_names_the_folder_why_and_how_to_fix_it(self):
        self.prepare(with_build=True)
        out = self.outside / "handout"
        cases = [
            (["hint", "1"], "build/course-state.lock", "build/"),      # progress (course/state.py)
            (["p01"], "build/configure-", "build/"),                  # the build (course/build.py)
            (["reset", "1"], "backups", "(the course's folder)"),      # the student's backup
            (["docs"], "build/site", "build/"),                         # the site, before MkDocs runs
            (["handout", str(out)], str(out), str(self.outside)),       # a folder outside the course
            (["test"], "build/default", "build/"),                      # checker/run's own shell part
        ]
        for args, wanted, folder in cases:
            with self.subTest(command=args):
                self.skip_if_packages_are_missing(args)
                self.assert_one_message(args, wanted, folder)

    def skip_if_packages_are_missing(self, args):
        """checker/run p01 and test install Debian packages first, which the other user cannot:
        where some are missing, that is all they would say."""
        groups = {"p01": ["core"], "test": []}.get(args[0])
        missing = missing_packages(*groups) if groups is not None else []
        if missing:
            self.skipTest(f"checker/run {args[0]} first installs missing Debian packages, which checker/run "
                          f"test installs: {', '.join(missing)}")

    def test_a_read_only_mount_is_named_as_such(self):
        if not self.as_root or not shutil.which("unshare"):
            self.skipTest("a read-only bind mount needs root and unshare (util-linux, on every Debian system)")
        probe = subprocess.run(["unshare", "--mount", "sh", "-c", 'mount --bind -o ro "$0" "$0"', str(self.copy)],
                               capture_output=True, text=True)
        if probe.returncode != 0:
            self.skipTest(f"no read-only bind mount here: {probe.stderr.strip()}")
        for args, wanted in ((["list"], "build"), (["hint", "1"], "build")):
            with self.subTest(command=args):
                self.assert_one_message(args, wanted, f"{self.copy} (the course's folder)", read_only_mount=True)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test_unwritable.py <test name>")
    name = sys.argv[1]
    if not hasattr(Unwritable, name):
        sys.exit(f"no test called {name}")
    result = unittest.TextTestRunner(verbosity=2).run(Unwritable(name))
    if result.skipped and result.wasSuccessful() and not result.testsRun - len(result.skipped):
        print(f"SKIPPED: {result.skipped[0][1]}")
        sys.exit(SKIP)
    for _, reason in result.skipped:
        print(f"(skipped part: {reason})")
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()

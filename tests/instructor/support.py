"""What the instructor tests share: paths, running checker/run, a work folder, and the
convention that a test that cannot run here prints SKIPPED and exits 77 (CTest's "Skipped")."""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "checker" / "cli"))
sys.path.insert(0, str(ROOT / "tests" / "support"))
from run_one_test import run_tests  # noqa: E402


def build_dir():
    """The build whose libraries grading reuses: CTest passes its own; by hand, build/default."""
    return Path(os.environ.get("PUZZLES_BUILD_DIR") or ROOT / "build" / "default")


def work_dir(name):
    """A fresh folder for one test class, under the build tree when CTest runs the test."""
    base = os.environ.get("PUZZLES_TEST_WORK")
    if base:
        path = Path(base) / name
        shutil.rmtree(path, ignore_errors=True)
        path.mkdir(parents=True)
        return path
    return Path(tempfile.mkdtemp(prefix=f"instructor-{name}-"))


def checker_run(*args, cwd=None, timeout=900):
    """checker/run with these arguments, as an instructor types it: (status, stdout, stderr)."""
    env = dict(os.environ, NO_COLOR="1")
    done = subprocess.run([str(ROOT / "checker" / "run"), *map(str, args)], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def tree_fingerprint(folder):
    """Every entry under folder: its path, kind, mode, size, modification time and content."""
    digest = hashlib.sha256()
    for current, dirs, files in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in sorted(dirs + files):
            path = Path(current) / name
            info = path.lstat()
            digest.update(f"{path.relative_to(folder)}|{info.st_mode}|{info.st_size}|{info.st_mtime_ns}\n".encode())
            if path.is_symlink():
                digest.update(os.readlink(path).encode())
            elif path.is_file():
                digest.update(path.read_bytes())
    return digest.hexdigest()


def main():
    """unittest.main for one class; exits 77 when every test it ran was skipped."""
    run_tests()

"""The command-line tests' copy of the course, made once per test run (CTest fixture "cli_copy").

The tests edit puzzle files, reset them and record progress, so they work on a copy of the
source tree, never on the real puzzles/. The copy is kept between runs in the main build tree
(tests/cli/sandbox/src) and brought up to date file by file, so its build is incremental; its
first build reuses the main build's objects where it can (tests/support/reuse_objects.py). The
checkers the tests run are built here, so that no test pays for a cold build.

  python3 fixture.py --source S --main-build B --work W
"""
import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
import reuse_objects  # noqa: E402

# Not copied: build trees, version control, the student's backups and caches.
SKIPPED = {"build", ".git", "backups", ".device", "__pycache__"}
PRESET = "cpu-only"


def sync(source, target, also_skipped=()):
    """Makes target a copy of source (minus SKIPPED); unchanged files keep their times."""
    target.mkdir(parents=True, exist_ok=True)
    wanted = set()
    for entry in os.scandir(source):
        wanted.add(entry.name)
        if entry.name in SKIPPED or entry.name in also_skipped:
            continue
        there = target / entry.name
        if entry.is_dir(follow_symlinks=False):
            if there.exists() and not there.is_dir():
                there.unlink()
            sync(Path(entry.path), there)
        elif entry.is_file(follow_symlinks=False):
            if there.is_dir():
                shutil.rmtree(there)
            if not there.exists() or not filecmp.cmp(entry.path, there, shallow=False):
                shutil.copy2(entry.path, there)
    for entry in os.scandir(target):
        if entry.name in wanted or entry.name in SKIPPED:  # SKIPPED: the copy's own build tree stays
            continue
        path = Path(entry.path)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


def course_stub(source, puzzle_id):
    """The stub as handed out, even where a student has solved the puzzle in the real tree:
    git's HEAD, the file itself, or the copy checker/run kept, whichever has the marker."""
    texts = []
    if shutil.which("git"):
        shown = subprocess.run(["git", "show", f"HEAD:./puzzles/{puzzle_id}.cu"], cwd=source,
                               capture_output=True, text=True)
        texts.append(shown.stdout if shown.returncode == 0 else "")
    for path in (source / "puzzles" / f"{puzzle_id}.cu", source / "build" / "pristine" / f"{puzzle_id}.cu"):
        texts.append(path.read_text() if path.exists() else "")
    return next((t for t in texts if "FILL ME IN" in t), None)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--main-build", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    started = time.monotonic()
    source = Path(args.source).resolve()
    work = Path(args.work).resolve()
    copy = work / "src"
    build = copy / "build" / PRESET
    sync(source, copy, also_skipped={"puzzles"})  # the puzzles are the stubs, below
    (copy / "puzzles").mkdir(exist_ok=True)
    stubs = work / "stubs"  # what each test puts back in puzzles/ first (test_workflow.py)
    stubs.mkdir(exist_ok=True)
    for spec in sorted((copy / "checker" / "specs").glob("p*.json")):
        text = course_stub(source, spec.stem)
        if text is None:
            print(f"no stub with its FILL ME IN marker for {spec.stem}")
            return 1
        for target in (stubs / f"{spec.stem}.cu", copy / "puzzles" / f"{spec.stem}.cu"):
            if not target.exists() or target.read_text() != text:
                target.write_text(text)

    configured = (build / "CMakeCache.txt").exists()
    if not configured:
        launcher, count = reuse_objects.best_launcher(args.main_build, source, copy, build, work)
        command = ["cmake", "--preset", PRESET, "-DPUZZLES_BUILD_TESTS=OFF"]
        if launcher:
            command.append(f"-DCMAKE_CXX_COMPILER_LAUNCHER={';'.join(launcher)}")
        result = subprocess.run(command, cwd=copy, capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout + result.stderr)
            print("configuring the copy failed")
            return 1
        print(f"configured {build.relative_to(work)}; objects to reuse: {count}")
    # Every puzzle's checker, against the stubs: the tests start from a handout's state.
    ids = sorted(p.stem for p in (copy / "checker" / "specs").glob("p*.json"))
    result = subprocess.run(["cmake", "--build", str(build), "--target", *ids],
                            capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout[-5000:] + result.stderr[-2000:])
        print("building the copy's checkers failed")
        return 1
    print(f"the copy is ready in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

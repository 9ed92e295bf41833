"""Where things are, relative to the repository root (never an absolute path of a machine)."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SPECS = ROOT / "checker" / "specs"
PUZZLES = ROOT / "puzzles"
SOLUTIONS = ROOT / "solutions"
DOCS = ROOT / "docs"
# Everything the command line writes for itself lives in the build tree, so the student's files
# hold only their work: deleting build/ forgets progress and hints, never a kernel.
BUILD = ROOT / "build"
STATE = BUILD / "course-state.json"
PRISTINE = BUILD / "pristine"  # the stubs as first seen, for `reset` outside a git checkout
LOGS = BUILD / "logs"
REPORTS = BUILD / "reports"  # each checker's last --json document (runner.py reads them)
# Backups are the student's work, so they stay out of build/ (which students delete to start
# a build afresh).
BACKUPS = ROOT / "backups"


def preset():
    """The CMake preset named by PRESET (PRESET=cpu-only checker/run ...), or "default".

    checker/run itself picks cpu-only where nvcc is installed but no GPU is listed: see
    course.build.choose_preset()."""
    return os.environ.get("PRESET", "default")


def build_dir(name=None):
    return BUILD / (name or preset())


def checker_binary(puzzle_id, name=None):
    return build_dir(name) / "bin" / puzzle_id


def puzzle_file(puzzle_id):
    return PUZZLES / f"{puzzle_id}.cu"


def solution_file(puzzle_id):
    return SOLUTIONS / f"{puzzle_id}.cu"


def doc_page(puzzle_id):
    return DOCS / f"{puzzle_id}.md"


def relative(path):
    """A path as the student would type it from the repository root."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)

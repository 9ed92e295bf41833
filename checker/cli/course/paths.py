"""Where things are, relative to the repository root (never an absolute path of a machine)."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SPECS = ROOT / "checker" / "specs"
PUZZLES = ROOT / "puzzles"
SOLUTIONS = ROOT / "solutions"
DOCS = ROOT / "docs"


def preset():
    """The CMake preset checker/run builds with (PRESET=cpu-only checker/run ...)."""
    return os.environ.get("PRESET", "default")


def build_dir(name=None):
    return ROOT / "build" / (name or preset())


def checker_binary(puzzle_id, name=None):
    return build_dir(name) / "bin" / puzzle_id

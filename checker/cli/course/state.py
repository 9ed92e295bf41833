"""What the course remembers between runs, in build/course-state.json (never in the student's files).

Per puzzle:
  status       "passed", "failing" or "compile-error": the verdict of the last full run
               (absent: not started)
  passed_once  true once a full run has passed; `solution` opens from then on
  last_exit    the last run's exit status (2: a usage or environment problem, which leaves the
               status as it was: a typo in an option says nothing about the kernel)
  last_run     when, in local time
  hints_shown  how many of the spec's hints `hint` has shown

Watch mode and a run in another terminal may write at the same moment: every change is a
read-modify-write under a lock, and the file is replaced atomically.
"""
import contextlib
import fcntl
import json
import os
import time

from course import paths

VERSION = 1
PASSED, FAILING, COMPILE_ERROR = "passed", "failing", "compile-error"
LABELS = {PASSED: "passed", FAILING: "failing", COMPILE_ERROR: "does not compile", None: "not started"}


def load():
    try:
        data = json.loads(paths.STATE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"version": VERSION, "puzzles": {}}
    if not isinstance(data, dict) or not isinstance(data.get("puzzles"), dict):
        return {"version": VERSION, "puzzles": {}}
    return data


def puzzle(puzzle_id, data=None):
    """One puzzle's entry (a copy: change it through update())."""
    data = data if data is not None else load()
    entry = data["puzzles"].get(puzzle_id)
    return dict(entry) if isinstance(entry, dict) else {}


def status(puzzle_id, data=None):
    return puzzle(puzzle_id, data).get("status")


@contextlib.contextmanager
def _locked():
    paths.BUILD.mkdir(parents=True, exist_ok=True)
    with open(paths.BUILD / "course-state.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def update(puzzle_id, change):
    """Applies change(entry) to one puzzle's entry and saves; returns the new entry."""
    with _locked():
        data = load()
        entry = data["puzzles"].setdefault(puzzle_id, {})
        change(entry)
        data["version"] = VERSION
        temporary = paths.STATE.with_name(paths.STATE.name + f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(temporary, paths.STATE)
        return dict(entry)


def record_run(puzzle_id, exit_status, verdict, backend=None):
    """Records a run: verdict is PASSED, FAILING, COMPILE_ERROR or None (no verdict: exit 2,
    or a partial run such as --size that cannot count as a pass)."""

    def change(entry):
        entry["last_exit"] = exit_status
        entry["last_run"] = time.strftime("%Y-%m-%d %H:%M:%S")
        if backend:
            entry["backend"] = backend
        if verdict is not None:
            entry["status"] = verdict
        if verdict == PASSED:
            entry["passed_once"] = True

    return update(puzzle_id, change)


def forget_status(puzzle_id):
    """After `reset`: the file is the stub again, so the puzzle is not started. passed_once
    stays: a student who solved it once keeps access to the solution."""
    return update(puzzle_id, lambda entry: entry.pop("status", None))


def next_hint(puzzle_id, available):
    """Counts one more hint shown (at most `available`); returns how many are shown now."""
    def change(entry):
        entry["hints_shown"] = min(int(entry.get("hints_shown", 0)) + 1, available)

    return update(puzzle_id, change)["hints_shown"]


def first_unsolved(specs, data=None):
    """The first puzzle, in order, whose last verdict is not a pass; None when all pass."""
    data = data if data is not None else load()
    for spec in specs:
        if status(spec["id"], data) != PASSED:
            return spec
    return None

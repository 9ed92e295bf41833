"""checker/run reset N: puts the stub back, after copying the student's file to a timestamped backup."""
import os
import shutil
import sys
import time

from course import paths, specs, state, stubs, writable

USAGE = "reset N"  # for checker/run help
HELP = "put puzzle N's stub back (your file is first saved under backups/)"


def add_arguments(parser):
    parser.add_argument("puzzle", help="4, p04 or p04_tiled")


def backup_path(puzzle_id):
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    candidate = paths.BACKUPS / f"{puzzle_id}.{stamp}.cu"
    count = 2
    while candidate.exists():  # two resets within a second keep both files
        candidate = paths.BACKUPS / f"{puzzle_id}.{stamp}-{count}.cu"
        count += 1
    return candidate


def run(args):
    try:
        spec = specs.find(args.puzzle)
    except specs.PuzzleNotFound as error:
        print(f"checker/run reset: {error}", file=sys.stderr)
        return 2
    puzzle_id = spec["id"]
    target = paths.puzzle_file(puzzle_id)
    shown = paths.relative(target)
    stub, source = stubs.stub(puzzle_id)
    if stub is None:
        print(f"checker/run reset: cannot restore {shown}: {source}. Your file is unchanged.", file=sys.stderr)
        return 2
    current = target.read_bytes() if target.exists() else None
    if current == stub.encode("utf-8"):
        print(f"{shown} is already the stub: nothing to reset.")
        return 0
    if current is not None:
        backup = backup_path(puzzle_id)
        try:
            paths.BACKUPS.mkdir(parents=True, exist_ok=True)
            with open(backup, "xb") as handle:  # "x": never over another backup
                handle.write(current)
            if backup.read_bytes() != current:
                raise OSError(0, "the backup reads back different")
        except OSError as error:
            if writable.from_error(error):
                raise  # main's message: which folder, why, how to fix it
            print(f"checker/run reset: could not save a backup ({error.strerror or error}), so {shown} "
                  "is unchanged.", file=sys.stderr)
            return 2
        print(f"Saved your file as {paths.relative(backup)}")
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.write_text(stub, encoding="utf-8")
    if target.exists():
        shutil.copymode(target, temporary)
    os.replace(temporary, target)  # all at once: an editor or watch mode never reads half a file
    state.forget_status(puzzle_id)
    print(f"Restored {shown} to its stub (from {source}).")
    return 0

"""checker/run handout OUT: the students' copy of the course (docs/instructors.md)."""
import os
import sys
from pathlib import Path

from course import handout, paths, writable

USAGE = "handout OUT"  # for checker/run help
HELP = "write the students' copy of the course: no solutions, no instructors' tools (instructors)"


def add_arguments(parser):
    parser.usage = "checker/run handout OUT [--keep-broken] [--github OWNER/NAME]"
    parser.add_argument("out", metavar="OUT", help="a new or empty folder, outside the course (or under build/)")
    parser.add_argument("--keep-broken", action="store_true",
                        help="keep tests/broken/, each change written out as the kernel it makes (a solution with "
                             "one mistake, so it is left out by default)")
    parser.add_argument("--github", metavar="OWNER/NAME",
                        help="the GitHub repository you publish the copy as: the README's Open in Colab badge and "
                             "the notebook (docs/colab.ipynb) then open and clone it")


def user_path(text):
    """checker/run runs from the course folder; CHECKER_RUN_CWD, when it passes it, is where the
    instructor typed the command."""
    path = Path(text).expanduser()
    return path if path.is_absolute() else Path(os.environ.get("CHECKER_RUN_CWD") or os.getcwd()) / path


def fail(message):
    print(f"checker/run handout: {message}", file=sys.stderr)
    return 2


def run(args):
    if args.github is not None and not handout.GITHUB_REPOSITORY.fullmatch(args.github):
        return fail(f"--github {args.github}: give the repository as OWNER/NAME, e.g. --github my-school/matmul-puzzles")
    out = user_path(args.out)
    root = paths.ROOT.resolve()
    resolved = out.resolve()
    if out.exists() and not out.is_dir():
        return fail(f"{args.out} is a file: give a new or empty folder.")
    if out.is_dir() and any(out.iterdir()):
        return fail(f"{args.out} is not empty: give a new or empty folder, so that nothing is overwritten.")
    inside_course = resolved == root or root in resolved.parents
    if inside_course and not (root / "build") in [resolved] + list(resolved.parents):
        return fail(f"{args.out} is inside the course: give a folder outside it, or under build/.")
    if resolved in root.parents:
        return fail(f"{args.out} holds the course itself: give a new or empty folder.")
    try:
        plan = handout.plan(root, args.keep_broken, args.github)
    except handout.HandoutError as error:
        return fail(str(error))
    except (OSError, ValueError) as error:
        return fail(f"could not read the course: {error}")
    try:
        handout.write(plan, out)
    except OSError as error:
        if writable.from_error(error):
            raise  # main's message: which folder, why, how to fix it
        return fail(f"could not write {args.out}: {error}")

    print(f"Wrote the students' copy of the course to {args.out}: {len(plan.files) + 1} files.")
    print("Left out:")
    for why, shown in plan.left_out_shown.items():
        print(f"  {', '.join(sorted(shown))}: {why}")
    if plan.notes:
        print("Changed:")
        for note in plan.notes:
            print(f"  {note}")
    print(f"Added: {handout.MARKER} (says what this copy is; the tests that need solutions see it and skip).")
    if not args.github:
        print(f"The Colab badge and notebook name {handout.REPOSITORY_PLACEHOLDER}: make the handout with "
              "--github OWNER/NAME, the repository you publish it as, to point them at it.")
    print(f"Students start with: cd {args.out} && checker/run p01")
    return 0


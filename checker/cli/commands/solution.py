"""checker/run solution N: the reference kernel beside the student's, once the student's has passed."""
import difflib
import sys

from course import paths, specs, state, stubs
from course.style import Style

USAGE = "solution N"  # for checker/run help
HELP = "the reference solution of puzzle N next to your kernel, once yours passes"


def add_arguments(parser):
    parser.add_argument("puzzle", help="4, p04 or p04_tiled")


def run(args):
    try:
        spec = specs.find(args.puzzle)
    except specs.PuzzleNotFound as error:
        print(f"checker/run solution: {error}", file=sys.stderr)
        return 2
    style = Style.for_stdout()
    puzzle_id, number = spec["id"], spec["number"]
    entry = state.puzzle(puzzle_id)
    if not entry.get("passed_once"):
        shown = entry.get("hints_shown", 0)
        total = len(spec.get("hints") or [])
        print(f"The solution of puzzle {number} opens once your kernel passes (checker/run p{number:02d}); "
              "it has not yet.")
        if shown < total:
            print(f"Stuck? checker/run hint {number} gives the next hint ({shown} of {total} seen so far).")
        else:
            print(f"You have seen every hint; the walkthrough at the end of docs/{puzzle_id}.md goes "
                  "through the kernel line by line.")
        return 1
    reference = paths.solution_file(puzzle_id)
    if not reference.exists():
        print(f"This copy of the course has no {paths.relative(reference)}: solutions are not part of "
              f"a student handout. The walkthrough at the end of docs/{puzzle_id}.md explains the kernel.")
        return 1
    mine_path = paths.puzzle_file(puzzle_id)
    mine_text = mine_path.read_text(encoding="utf-8", errors="replace") if mine_path.exists() else ""
    reference_text = reference.read_text(encoding="utf-8", errors="replace")
    mine = stubs.kernel_bodies(mine_text, spec["kernels"])
    theirs = stubs.kernel_bodies(reference_text, spec["kernels"])

    print(style.bold(f"Puzzle {number}: {spec['title']}"))
    print(f"Your kernel against the reference ({paths.relative(reference)}):")
    print(style.dim("lines with - are only in yours, lines with + only in the reference"))
    for kernel in [specs.kernel_name(k) for k in spec["kernels"]]:
        if kernel not in theirs:
            continue
        ours_lines = mine[kernel][1] if kernel in mine else []
        reference_lines = theirs[kernel][1]
        print()
        print(style.bold(f"{kernel}:"))
        if ours_lines == reference_lines:
            print("  Your kernel is the reference solution, line for line.")
            continue
        width = max(len(ours_lines), len(reference_lines))
        diff = list(difflib.unified_diff(ours_lines, reference_lines, lineterm="", n=width))[2:]
        for line in diff:
            if line.startswith("@@"):
                continue
            sign, text = line[0], line[1:]
            shown = f"{sign} {text}"
            print(style.red(shown) if sign == "-" else style.green(shown) if sign == "+" else shown)
    print()
    print(f"The walkthrough at the end of docs/{puzzle_id}.md explains the reference line by line.")
    return 0

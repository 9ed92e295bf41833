"""checker/run hint [N]: the puzzle's hints from its spec, one more each time it is asked."""
import shutil
import sys
import textwrap

from course import paths, specs, state
from course.style import Style

USAGE = "hint [N]"  # for checker/run help
HELP = "one more hint for puzzle N (default: your current puzzle) each time you ask"


def add_arguments(parser):
    parser.add_argument("puzzle", nargs="?", help="4, p04 or p04_tiled (default: the first puzzle not passed)")


def hints_of(spec):
    """The spec's hints; the last one points to the doc page's walkthrough (docs/dev/spec.md)."""
    hints = list(spec.get("hints") or [])
    page = f"docs/{spec['id']}.md"
    if not hints or page not in hints[-1]:
        hints.append(f"The solution walkthrough at the end of {page} goes through the kernel line by line.")
    return hints


def lines(spec, stream=None):
    """Shows one more hint (counted in the state), with the ones shown before; as lines."""
    stream = stream or sys.stdout
    style = Style.for_stream(stream)
    hints = hints_of(spec)
    shown = state.next_hint(spec["id"], len(hints))
    width = min(shutil.get_terminal_size((100, 24)).columns, 100)
    out = [style.bold(f"Puzzle {spec['number']}: {spec['title']}") + f" - hint {shown} of {len(hints)}", ""]
    for i, hint in enumerate(hints[:shown], 1):
        wrapped = textwrap.wrap(hint, width - 6) or [""]
        text = [f"  {i}.  {wrapped[0]}"] + [f"      {line}" for line in wrapped[1:]]
        out.extend(text if i == shown else [style.dim(line) for line in text])
    out.append("")
    if shown < len(hints):
        out.append(f"Ask again (checker/run hint {spec['number']}) for the next one.")
    else:
        out.append(f"That was the last hint. Your kernel is in {paths.relative(paths.puzzle_file(spec['id']))}.")
    return out


def run(args):
    all_specs = specs.load_all()
    if args.puzzle is None:
        spec = state.first_unsolved(all_specs)
        if spec is None:
            print("Every puzzle passes: no hint needed. checker/run hint N shows puzzle N's hints.")
            return 0
    else:
        try:
            spec = specs.find(args.puzzle, all_specs)
        except specs.PuzzleNotFound as error:
            print(f"checker/run hint: {error}", file=sys.stderr)
            return 2
    print("\n".join(lines(spec)))
    return 0

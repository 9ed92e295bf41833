"""checker/run verify: every puzzle built and run, one summary table; exit 0 only when all pass."""
import io
import sys

from course import build, paths, runner, specs, state
from course.style import Style, marks, progress_bar

USAGE = "verify"  # for checker/run help
HELP = "build and run every puzzle: one table, exit status 0 only when all pass"
DETAIL_WIDTH = 48  # keeps a row within 100 columns


def add_arguments(parser):
    runner.add_checker_options(parser)
    parser.add_argument("--quick", action="store_true",
                        help="only the worked example and the two smallest sizes of each puzzle: a quick "
                             "look, which does not count as solving a puzzle")


def run(args):
    style = Style.for_stdout()
    passed_mark, failing_mark, _ = marks()
    all_specs = specs.load_all()
    options = runner.checker_options(args) + (["--quick"] if args.quick else [])
    preset = build.choose_preset(args.backend)
    print(style.dim(preset.line()), flush=True)
    if not build.configure(preset.name, out=sys.stdout):
        return 2
    if not all(paths.checker_binary(s["id"], preset.name).exists() for s in all_specs):
        print(style.dim("Some checkers are built for the first time: the first takes a minute or two."))
    # Every checker first, in parallel where the machine has cores: each run below then finds its
    # checker built, or builds it again to show what failed (the compiler's messages, as
    # checker/run pNN shows them).
    build.build(preset.name, *(s["id"] for s in all_specs), keep_going=True)
    id_width = max(len(s["id"]) for s in all_specs)
    print(f"\n   #  {'puzzle':<{id_width}}  result")
    outcomes = []
    for spec in all_specs:
        quiet = io.StringIO()  # the table gives one line per puzzle; checker/run pNN shows all
        outcome = runner.run(spec, options, preset, capture=True, out=quiet)
        outcomes.append((spec, outcome))
        label = state.LABELS.get(outcome.verdict) if outcome.verdict else "problem"
        detail = outcome.summary if len(outcome.summary) <= DETAIL_WIDTH else outcome.summary[:DETAIL_WIDTH - 3] + "..."
        if outcome.status == 0:
            result = style.green(f"{passed_mark} {label:<17}")
        else:
            result = style.red(f"{failing_mark} {label:<17}")
        print(f"  {spec['number']:>2}  {spec['id']:<{id_width}}  {result} {detail}", flush=True)
    passed = sum(o.status == 0 for _, o in outcomes)
    print(f"\n{progress_bar(passed, len(outcomes))} puzzles pass")
    failing = [(s, o) for s, o in outcomes if o.status != 0]
    if not failing:
        if args.quick:
            print(style.green("Every puzzle passes its quick cases."))
            print("checker/run verify without --quick runs every case, and records the passes.")
        else:
            print(style.green("Every puzzle passes."))
        return 0
    spec = failing[0][0]
    print(f"checker/run p{spec['number']:02d} shows what is wrong with {paths.relative(paths.puzzle_file(spec['id']))}.")
    return 2 if any(o.status == 2 for _, o in failing) else 1

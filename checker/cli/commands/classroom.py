"""checker/run classroom OUT: GitHub Classroom autograding for the students' repositories.

Writes OUT/.github/workflows/classroom.yml in the format GitHub Classroom generates itself since
2024 (docs/instructors/grading-classroom.md): one step per puzzle with
classroom-resources/autograding-command-grader (its test is the puzzle's own checker, on the CPU
backend, and its max-score the puzzle's points), then classroom-resources/autograding-grading-reporter,
which adds up the points. OUT is usually the handout (checker/run handout) that the assignment's
template repository is made from.
"""
import json
import os
import sys
from pathlib import Path

from course import paths, specs, writable

USAGE = "classroom OUT"  # for checker/run help
HELP = "write GitHub Classroom's autograding workflow: one test per puzzle, with points (instructors)"
WORKFLOW = Path(".github") / "workflows" / "classroom.yml"
COMMAND_GRADER = "classroom-resources/autograding-command-grader@v1"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"


def add_arguments(parser):
    parser.usage = "checker/run classroom OUT [--points N | --points p01=5,p04=20] [--puzzles LIST]"
    parser.add_argument("out", metavar="OUT", help="the template repository's folder (the handout)")
    parser.add_argument("--points", action="append", default=[], metavar="N|pNN=N,...",
                        help="points per puzzle: one number for all (default 10), or puzzle=points pairs")
    parser.add_argument("--puzzles", action="append", default=[], metavar="LIST",
                        help="only these puzzles, e.g. p01,p04 (default: every puzzle)")
    parser.add_argument("--timeout", type=int, default=20, metavar="MINUTES",
                        help="time limit of each test, in minutes (the first one builds the checkers; default 20)")


def fail(message):
    print(f"checker/run classroom: {message}", file=sys.stderr)
    return 2


def user_path(text):
    path = Path(text).expanduser()
    return path if path.is_absolute() else Path(os.environ.get("CHECKER_RUN_CWD") or os.getcwd()) / path


def points_for(chosen, texts):
    """{puzzle id: points}, or a message saying what is wrong with texts."""
    points = {s["id"]: 10 for s in chosen}
    for text in texts:
        for item in filter(None, (t.strip() for t in text.split(","))):
            name, _, value = item.rpartition("=")
            if not value.isdigit() or int(value) < 1:
                return f"--points={item}: give a positive whole number, or puzzle=number (e.g. p04=20)"
            if not name:
                points = {p: int(value) for p in points}
                continue
            try:
                spec = specs.find(name, chosen)
            except specs.PuzzleNotFound as error:
                return str(error)
            points[spec["id"]] = int(value)
    return points


def core_packages():
    """The Debian packages checker/run needs (checker/debian-packages.txt, group core)."""
    listed = (paths.ROOT / "checker" / "debian-packages.txt").read_text(encoding="utf-8").splitlines()
    return [line.split()[0] for line in listed if line.split()[1:2] == ["core"] and not line.startswith("#")]


def q(text):
    """A YAML scalar (JSON's double-quoted strings are YAML)."""
    return json.dumps(text)


def workflow(chosen, points, timeout):
    step_ids = [s["id"].replace("_", "-") for s in chosen]
    setup = "sudo apt-get update -qq && sudo apt-get install -y -qq " + " ".join(core_packages())
    out = ["# GitHub Classroom autograding, written by checker/run classroom from the puzzles' specs.",
           "# Each test is a puzzle's own checker on the CPU backend; it passes when the checker does.",
           "name: Autograding Tests",
           "'on':", "- push", "- workflow_dispatch", "- repository_dispatch",
           "permissions:", "  checks: write", "  actions: read", "  contents: read",
           "jobs:", "  run-autograding-tests:", "    runs-on: ubuntu-latest",
           "    if: github.actor != 'github-classroom[bot]'", "    steps:",
           "    - name: Checkout code", "      uses: actions/checkout@v4"]
    for index, (spec, step) in enumerate(zip(chosen, step_ids)):
        out += [f"    - name: {q(spec['id'])}", f"      id: {step}", f"      uses: {COMMAND_GRADER}", "      with:",
                f"        test-name: {q(spec['id'] + ': ' + spec['title'])}",
                f"        setup-command: {q(setup if index == 0 else '')}",
                f"        command: {q('checker/run ' + spec['id'] + ' --backend=cpu')}",
                f"        timeout: {timeout}", f"        max-score: {points[spec['id']]}"]
    out += ["    - name: Autograding Reporter", f"      uses: {REPORTER}", "      env:"]
    out += [f"        {step.upper()}_RESULTS: \"${{{{steps.{step}.outputs.result}}}}\"" for step in step_ids]
    out += ["      with:", f"        runners: {','.join(step_ids)}"]
    return "\n".join(out) + "\n"


def run(args):
    all_specs = specs.load_all()
    chosen = []
    for item in args.puzzles:
        for name in filter(None, (n.strip() for n in item.split(","))):
            try:
                spec = specs.find(name, all_specs)
            except specs.PuzzleNotFound as error:
                return fail(str(error))
            if spec not in chosen:
                chosen.append(spec)
    chosen = sorted(chosen, key=lambda s: s["number"]) or all_specs
    if args.timeout < 1:
        return fail("--timeout takes a positive number of minutes")
    points = points_for(chosen, args.points)
    if isinstance(points, str):
        return fail(points)
    out = user_path(args.out)
    if out.exists() and not out.is_dir():
        return fail(f"{args.out} is a file: give the template repository's folder")
    target = out / WORKFLOW
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(workflow(chosen, points, args.timeout), encoding="utf-8")
    except OSError as error:
        if writable.from_error(error):
            raise  # main's message: which folder, why, how to fix it
        return fail(f"could not write {target}: {error}")
    total = sum(points.values())
    print(f"Wrote {args.out}/{WORKFLOW.as_posix()}: {len(chosen)} tests, {total} points in all.")
    for spec in chosen:
        print(f"  {spec['id']:<28} {points[spec['id']]:>3} points")
    print("Commit it to the assignment's template repository; each student's push then runs the checkers.")
    return 0

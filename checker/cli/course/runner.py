"""One puzzle, from the student's file to a verdict: build its checker, run it, record the verdict.

Exit status, as the checkers' own: 0 every case passed, 1 a case failed, 2 a usage or
environment problem. A compile error in the student's file is 1: the puzzle is not solved, and
the student's file is what to fix (`verify` and graders count it as failing); 2 stays for what
the student's kernel cannot cause (a broken toolchain, a bad option, no GPU for --backend=gpu).
State records it apart, as "does not compile".
"""
import signal
import subprocess
import sys

from course import build, paths, state
from course import report as checker_report  # `report` names the compiler's report below
from course.style import Style

# Options after which a pass is not a full pass: fewer cases ran, or none.
PARTIAL = ("--size", "--quick")
NO_RUN = ("--help", "-h")


class Outcome:
    def __init__(self, status, verdict, summary, output=""):
        self.status = status    # the exit status
        self.verdict = verdict  # state.PASSED, FAILING, COMPILE_ERROR, or None (no verdict)
        self.summary = summary  # one line: "6 of 6 cases passed", the first compile error, the problem
        self.output = output    # what the checker printed, when captured


def option_value(options, name):
    """The value of --name=VALUE or --name VALUE among the checker's options, or None."""
    for i, option in enumerate(options):
        if option.startswith(name + "="):
            return option.split("=", 1)[1]
        if option == name and i + 1 < len(options):
            return options[i + 1]
    return None


def _report_option(options, puzzle_id):
    """The --json=FILE option that has the checker write its report for us (report.py), and the
    file; none when the student asked for --json themselves (the document is theirs to read)."""
    if any(o == "--json" or o.startswith("--json=") for o in options) or any(o in NO_RUN for o in options):
        return [], None
    paths.REPORTS.mkdir(parents=True, exist_ok=True)
    where = paths.REPORTS / f"{puzzle_id}.json"
    where.unlink(missing_ok=True)
    return [f"--json={where}"], where


def run(spec, options, preset, capture=False, out=None):
    """Builds and runs one puzzle's checker with the given checker options.

    capture=False: the checker writes to the terminal itself (colour and all); True: its
    output is kept in the Outcome (verify). Messages of this module go to `out`."""
    out = out or sys.stdout
    style = Style.for_stream(out)
    puzzle_id = spec["id"]
    student_file = paths.puzzle_file(puzzle_id)

    if not student_file.exists():
        print(f"{paths.relative(student_file)} is missing: checker/run reset {spec['number']} puts the stub "
              "back.", file=out)
        return _record(spec, preset, options, out, Outcome(2, None, "the puzzle's file is missing"))
    if not build.configure(preset.name, out=out):
        return _record(spec, preset, options, out, Outcome(2, None, "configuring the build failed"))
    binary = paths.checker_binary(puzzle_id, preset.name)
    if not binary.exists():
        print(style.dim(f"Building the checker of puzzle {spec['number']} for the first time: the first "
                        "one takes a minute or two (the engine is built once), later builds a second."),
              file=out, flush=True)
    status, log = build.build(preset.name, puzzle_id)
    refusal = build.canary_refusal(preset.name) if status != 0 else None
    if refusal:
        print(refusal.rstrip(), file=out, flush=True)
        return _record(spec, preset, options, out, Outcome(2, None, "this compiler lost checks (the canaries)"))
    if status != 0:
        from course import compiler  # only when a build fails: the loop's common case stays lean
        text = log.read_text(encoding="utf-8", errors="replace")
        report = compiler.reduce(text, student_file)
        if report.in_student_file:
            count = len(report.errors)
            print(style.bold(f"{paths.relative(student_file)} does not compile:"), file=out)
            print("", file=out)
            for line in compiler.format_report(report, style):
                print(line, file=out)
            warnings = f" and {report.warnings} warning{'s' * (report.warnings != 1)}" if report.warnings else ""
            print(f"{count} error{'s' * (count != 1)}{warnings}. The compiler's full output: "
                  f"{paths.relative(log)}", file=out, flush=True)
            first = report.errors[0]
            where = f"line {first.line}: " if first.line else ""
            return _record(spec, preset, options, out, Outcome(1, state.COMPILE_ERROR, f"{where}{first.message}"))
        print(style.bold("The build failed, and not because of your file:"), file=out)
        for line in report.other_lines:
            print("  " + line, file=out)
        print(f"The full log: {paths.relative(log)}", file=out, flush=True)
        return _record(spec, preset, options, out, Outcome(2, None, "the build failed outside your file"))

    out.flush()
    report_option, report_file = _report_option(options, puzzle_id)
    try:
        if capture:
            result = subprocess.run([str(binary), *options, *report_option], stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            text = result.stdout.decode("utf-8", errors="replace")
        else:
            result = subprocess.run([str(binary), *options, *report_option], stdin=subprocess.DEVNULL)
            text = ""
    except OSError as error:
        print(f"Could not run {paths.relative(binary)}: {error.strerror}.", file=out)
        return _record(spec, preset, options, out, Outcome(2, None, "the checker could not run"))
    code = result.returncode
    if code == -signal.SIGINT:
        raise KeyboardInterrupt
    if code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        print(f"The checker stopped on signal {name}.", file=out)
        return _record(spec, preset, options, out, Outcome(2, None, f"the checker stopped ({name})", text))
    verdict = {0: state.PASSED, 1: state.FAILING}.get(code)
    said = checker_report.read(report_file) if report_file else None
    summary = (checker_report.summary(said) if said else "") or {0: "passed", 1: "failing"}.get(code) or \
        "a usage or environment problem"
    return _record(spec, preset, options, out, Outcome(code, verdict, summary, text))


def _record(spec, preset, options, out, outcome):
    if any(o in NO_RUN for o in options) or build.checks_solution(preset.name, spec["id"]):
        return outcome
    verdict = outcome.verdict
    if verdict == state.PASSED and any(o.split("=", 1)[0] in PARTIAL for o in options):
        verdict = None  # only some of the cases ran
        print(f"(Only some cases ran, so this does not count as solving puzzle {spec['number']}: "
              f"run checker/run p{spec['number']:02d} without {'/'.join(PARTIAL)} for that.)", file=out)
    state.record_run(spec["id"], outcome.status, verdict, option_value(options, "--backend") or "auto")
    return outcome


def add_checker_options(parser):
    """The checker options that watch mode and verify pass on to every checker."""
    parser.add_argument("--backend", choices=("auto", "gpu", "cpu"), help="where kernels run (default auto)")
    parser.add_argument("--seed", type=int, help="seed for the random matrices")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="stop a kernel that runs longer")
    parser.add_argument("--all-orders", action="store_true",
                        help="CPU backend: every case in forward, reverse and shuffled thread order")


def checker_options(args):
    options = []
    if args.backend:
        options.append(f"--backend={args.backend}")
    if args.seed is not None:
        options.append(f"--seed={args.seed}")
    if args.timeout is not None:
        options.append(f"--timeout={args.timeout:g}")
    if args.all_orders:
        options.append("--all-orders")
    return options

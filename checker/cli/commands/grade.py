"""checker/run grade DIR: build and check every student's kernels, and tabulate the results.

DIR holds one folder (or .tar.gz/.tgz/.zip archive) per student with any of the puzzle files.
Each file is built into its puzzle's checker in a build tree of its own, in a sandbox, and run
with a time limit; the results go to RESULTS_DIR (results.md, results.csv, results.json,
details/<student>.txt). --shard K/N grades a part of the class; --merge puts the parts together.
docs/instructors.md explains the results; docs/dev/grading.md the design.
"""
import datetime
import functools
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

from course import grading, grading_cpus, grading_results, grading_sandbox, paths, specs, writable
from course.grading_report import MISSING, PASS, cell_csv_text
from course.grading_submissions import read_class
from course.style import Style

USAGE = "grade DIR"  # for checker/run help
HELP = "grade a class: every student's kernels, built and checked in a sandbox (instructors)"


def add_arguments(parser):
    parser.usage = "checker/run grade DIR [options]\n       checker/run grade --merge RESULTS_DIR... --out RESULTS_DIR"
    parser.add_argument("dir", metavar="DIR", nargs="?", help="one folder or archive (.tar.gz, .tgz, .zip) per student")
    parser.add_argument("--backend", choices=["cpu", "gpu", "auto"], default="auto",
                        help="where the kernels run, as the checkers' own option (default auto: the GPU "
                             "when one can be used)")
    parser.add_argument("--seed", type=int, action="append", default=[], metavar="N",
                        help="also run every checker with this seed (repeatable), so that outputs "
                             "cannot be hard-coded")
    parser.add_argument("--size", action="append", default=[], metavar="N|MxNxK",
                        help="also run every checker at this size (repeatable)")
    parser.add_argument("--puzzles", action="append", default=[], metavar="LIST",
                        help="grade only these puzzles, e.g. p01,p04 (default: every puzzle someone submitted)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="submissions built and checked at once (default: the number of cores)")
    parser.add_argument("--out", metavar="RESULTS_DIR",
                        help="where the results go (default: DIR-grades, or DIR-grades-shardKofN, next to DIR)")
    parser.add_argument("--timeout", type=float, metavar="SECONDS",
                        help="the checker's time limit per kernel launch (default: the checker's own)")
    parser.add_argument("--all-orders", action="store_true",
                        help="CPU backend: run every case with threads in forward, reverse and shuffled order")
    parser.add_argument("--build-timeout", type=float, default=300, metavar="SECONDS",
                        help="time limit on building one submission (default 300)")
    parser.add_argument("--run-timeout", type=float, default=300, metavar="SECONDS",
                        help="time limit on one checker run (default 300)")
    parser.add_argument("--build-dir", metavar="BUILD",
                        help="the build whose engine and checker library are reused (default: the one "
                             "checker/run pNN uses, configured and built when needed)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the submissions' build trees, and say where they are")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="build and run students' code without the sandbox, with your own rights (only "
                             "where bubblewrap cannot run, and only for code you trust)")
    parser.add_argument("--shard", metavar="K/N",
                        help="grade only shard K of N of the class (every N-th student, by name), for a "
                             "job array; --merge puts the N results folders together")
    parser.add_argument("--merge", nargs="+", metavar="RESULTS_DIR",
                        help="merge the results folders of the N shards into one (with --out)")


def user_path(text):
    """checker/run runs from the course folder; CHECKER_RUN_CWD, when it passes it, is where the
    instructor typed the command, so relative paths mean what they meant there."""
    path = Path(text).expanduser()
    if path.is_absolute():
        return path
    return Path(os.environ.get("CHECKER_RUN_CWD") or os.getcwd()) / path


def plural(count, word):
    return f"{count} {word}" + ("" if count == 1 else "s")


def fail(message):
    print(f"checker/run grade: {message}", file=sys.stderr)
    return 2


def inside(path, folder):
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def default_preset(backend):
    """The preset checker/run builds puzzles with here (cpu-only where no GPU is listed), so that
    grading reuses the build the instructor already has."""
    try:
        from course import build
    except ImportError:
        return paths.preset()
    return build.choose_preset(backend if backend != "auto" else None).name


def prepare_out(out, class_dir):
    """RESULTS_DIR: new, empty, or the results of an earlier grading (replaced). Never under DIR."""
    if class_dir and (inside(out, class_dir) or inside(class_dir, out)):
        return f"the results cannot go to {out}: it overlaps {class_dir}, which grading never writes to"
    if out.exists() and not out.is_dir():
        return f"{out} is a file, not a folder: choose another --out"
    if out.is_dir() and any(out.iterdir()):
        ours = grading_results.RESULTS_FILES
        if not (out / "results.csv").exists() or any(p.name not in ours for p in out.iterdir()):
            return f"{out} already holds other files: choose an empty or new --out"
        shutil.rmtree(out / "details", ignore_errors=True)
    return None


def run(args):
    if args.merge:
        return run_merge(args)
    if not args.dir:
        return fail("give the class folder (DIR), or --merge with the shards' results folders")
    shard = None
    if args.shard:
        shard = grading_results.parse_shard(args.shard)
        if not shard:
            return fail(f"--shard={args.shard}: give K/N, shard K of N, with 1 <= K <= N (e.g. 2/4)")
    class_dir = user_path(args.dir)
    if not class_dir.exists():
        return fail(f"{args.dir}: no such folder. Give the folder that holds one folder or archive per student.")
    if not class_dir.is_dir():
        return fail(f"{args.dir} is not a folder. Give the folder that holds one folder or archive per student.")
    if args.jobs < 1 or args.build_timeout <= 0 or args.run_timeout <= 0 or (args.timeout is not None and args.timeout <= 0):
        return fail("--jobs, --timeout, --build-timeout and --run-timeout take positive numbers")

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
    sizes = []
    for text in args.size:
        numbers = grading.parse_size(text)
        if not numbers:
            return fail(f"--size={text}: give N, or M x N x K written as MxNxK (e.g. 33 or 64x32x16)")
        sizes.append(numbers)

    found = read_class(class_dir, [s["id"] for s in all_specs])
    students = found.students
    if not students:
        loose = sorted(n for n in found.ignored if n.endswith(".cu"))
        hint = (f" It holds puzzle files itself ({', '.join(loose[:3])}): put each student's files in "
                f"a folder of their own, {args.dir}/<student>/." if loose else "")
        return fail(f"{args.dir} holds no student folders or archives (.tar.gz, .tgz, .zip).{hint}")
    if not any(s.files for s in students):
        example = ", ".join(s["id"] + ".cu" for s in all_specs[:2])
        return fail(f"no puzzle files found in {args.dir}: each student's folder or archive should hold files "
                    f"named like {example} (the names of puzzles/).")
    submitted = {p for s in students for p in s.files}
    puzzles = [s["id"] for s in (chosen or all_specs) if chosen or s["id"] in submitted]
    if not submitted & set(puzzles):
        return fail(f"nobody in {args.dir} submitted " + ", ".join(p + ".cu" for p in puzzles) + ".")
    for student in students:
        for puzzle in sorted(set(student.files) - set(puzzles)):
            student.notes.append(f"{student.found_at[puzzle]}: not graded (not among --puzzles)")
    by_id = {s["id"]: s for s in all_specs}
    roster = [s.name for s in students]
    students = grading_results.shard_of(students, shard)  # the puzzles above are the whole class's

    # Each shard has a folder of its own by default, so that a job array's tasks never share one.
    default_out = class_dir.resolve().name + "-grades" + (f"-shard{shard[0]}of{shard[1]}" if shard else "")
    out = user_path(args.out) if args.out else class_dir.resolve().parent / default_out
    problem = prepare_out(out, class_dir)
    if problem:
        return fail(problem)
    writable.require(out)  # now, not after grading the class

    style = Style.for_stdout()
    say = functools.partial(print, flush=True)  # progress shows as it happens, even in a pipe
    work = Path(tempfile.mkdtemp(prefix="puzzle-grading-"))
    try:
        preset = default_preset(args.backend)
        build_dir = user_path(args.build_dir) if args.build_dir else paths.build_dir(preset)
        writable.require(build_dir)  # CMake and the checkers write there
        try:
            # What students' code must not see even where it lies inside what the sandbox shows:
            # the class, the results, grading's work folder, the course's backups.
            sandbox = grading_sandbox.choose(args.no_sandbox, [class_dir, out, work, paths.BACKUPS], args.jobs,
                                             args.backend != "cpu", work)
        except grading_sandbox.SandboxUnavailable as error:
            return fail(str(error))
        if not sandbox.used:
            say(style.yellow("No sandbox (--no-sandbox): students' code runs with your rights."))
        try:
            settings = grading.prepare_build(build_dir, preset, args.jobs, say)
            # What students' code may read besides the toolchain: what its build reads, no more.
            source_dir = settings.get("PUZZLES_SOURCE_DIR", paths.ROOT)
            sandbox.show(grading_sandbox.what_grading_reads(grading.GRADING_PROJECT, build_dir, source_dir),
                         covering=[paths.ROOT, source_dir, build_dir])
            limits = grading.Limits(args.build_timeout, args.run_timeout)
            templates = grading.Templates(build_dir, settings, work / "templates")
            backend, gpu, backend_words = grading.resolve_backend(build_dir, settings, work, puzzles[0],
                                                                  args.backend, limits, sandbox, templates)
        except grading.GradingError as error:
            return fail(str(error))
        if settings.get("PUZZLES_INSTRUMENTED") != "ON" and backend != "gpu":
            say(style.yellow("Note: this build compiles kernels without instrumentation (not with clang++), so "
                             "the CPU backend checks less: each detail file's 'Checks:' line says what."))

        base = [f"--backend={backend}"]
        if args.timeout is not None:
            base.append(f"--timeout={args.timeout:g}")
        if args.all_orders:
            base.append("--all-orders")
        runs_words = ["the checker's own cases"] + [f"--seed={s}" for s in args.seed] + \
                     [f"--size={'x'.join(map(str, z))}" for z in sizes]
        result = grading_results.Grading(
            class_dir.name, roster, puzzles, backend_words,
            ", ".join(runs_words) + (" (each run with " + " ".join(base[1:]) + ")" if base[1:] else ""),
            sandbox.words(), datetime.datetime.now().strftime('%Y-%m-%d %H:%M'), shard, students)
        for fact in result.facts()[:4]:
            say(fact)

        gpu_lock = threading.Lock() if gpu else None  # one GPU: its runs go one at a time
        tasks = []
        for index, student in enumerate(students, 1):
            for puzzle in puzzles:
                if puzzle not in student.files:
                    continue
                take, notes = grading.sizes_for(by_id[puzzle], sizes)
                runs = grading.check_runs(base, args.seed, take)
                cell_dir = work / f"{index:03d}-{grading.safe_name(student.name)}" / puzzle

                def task(student=student, puzzle=puzzle, cell_dir=cell_dir, runs=runs, notes=notes):
                    return grading.grade_one(build_dir, settings, cell_dir, puzzle, student.files[puzzle],
                                             gpu, runs, notes, limits, gpu_lock, sandbox, templates, args.keep,
                                             cores)
                tasks.append(((student.name, puzzle), task))
        at_once = min(args.jobs, max(1, len(tasks)))
        cores = grading_cpus.CoreShares(at_once)  # each job on cores of its own (the tasks read it when they run)
        say(f"Grading {plural(len(tasks), 'submission')}, {at_once} at a time...")
        width = max([len(s.name) for s in students] + [1])
        done_count = [0]

        def on_done(key, cell):
            done_count[0] += 1
            colour = style.green if cell.status == PASS else style.red
            say(f"  [{done_count[0]}/{len(tasks)}] {key[0]:<{width}}  {key[1]:<24} {colour(cell.text())}")

        result.cells = grading.grade_cells(tasks, args.jobs, on_done)

        grading_results.write(out, result)
        say("")
        print_summary(students, puzzles, result.cells, style, say)
        for name in found.ignored:
            say(style.dim(f"Ignored {args.dir}/{name}: not a folder or an archive."))
        for student in students:
            if not student.files:
                say(style.dim(f"{student.name}: no puzzle files found ({student.origin})."))
        say(f"\nResults: {grading.shown(out / 'results.md')}, {grading.shown(out / 'results.csv')}, "
            f"and one file per student in {grading.shown(out / 'details')}/")
        if args.keep:
            say(f"Build trees kept in {work}")
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def run_merge(args):
    """--merge: the shards' results folders, put together into --out."""
    if args.dir or args.shard:
        return fail("--merge takes only results folders (and --out): leave out DIR and --shard")
    if not args.out:
        return fail("--merge needs --out RESULTS_DIR: where the merged results go")
    folders = [user_path(f) for f in args.merge]
    out = user_path(args.out)
    if any(out.resolve() == f.resolve() for f in folders):
        return fail(f"--out {args.out} is one of the shards: choose another folder")
    try:
        result = grading_results.merge(folders)
    except grading_results.MergeError as error:
        return fail(str(error))
    problem = prepare_out(out, None)
    if problem:
        return fail(problem)
    grading_results.write(out, result)
    style = Style.for_stdout()
    say = functools.partial(print, flush=True)
    for fact in result.facts():
        say(fact)
    say("")
    print_summary(result.students, result.puzzles, result.cells, style, say)
    say(f"\nResults: {grading.shown(out / 'results.md')}, {grading.shown(out / 'results.csv')}, "
        f"and one file per student in {grading.shown(out / 'details')}/")
    return 0


def print_summary(students, puzzles, cells, style, say):
    """The table on the terminal: short puzzle names, one line per student."""
    heads = [p.split("_")[0] for p in puzzles]
    width = max([len("student")] + [len(s.name) for s in students])
    texts = {(s.name, p): cell_csv_text(cells.get((s.name, p))) for s in students for p in puzzles}
    col = {p: max([len(h)] + [min(len(texts[(s.name, p)]), 44) for s in students]) for p, h in zip(puzzles, heads)}
    say(f"{'student':<{width}}  " + "  ".join(f"{h:<{col[p]}}" for p, h in zip(puzzles, heads)))
    for s in students:
        parts = []
        for p in puzzles:
            text = texts[(s.name, p)]
            if len(text) > 44:
                text = text[:43] + "…"
            padded = f"{text:<{col[p]}}"
            cell = cells.get((s.name, p))
            if cell and cell.status == PASS:
                padded = style.green(padded)
            elif text != MISSING:
                padded = style.red(padded)
            else:
                padded = style.dim(padded)
            parts.append(padded)
        say(f"{s.name:<{width}}  " + "  ".join(parts))

"""checker/run tune pNN: the reference solution with other values of its spec's constants, each
variant checked and timed by the puzzle's own checker (--bench), into one CSV.

bench/tuning/<id>.json names the constants and values (course/tuning.py). Each variant is built
through the grading build path (checker/grading, as `checker/run grade` builds a submission) with
the constants overridden in both the kernel file and the checker's spec, then run with
--backend=gpu --bench --bench-csv; the rows of every variant go to one CSV with a `variant` column.
With --backend=cpu every variant is built and checked on the CPU backend, and timing, which needs
an NVIDIA GPU, is not done (exit status 2).
"""
import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

from course import build, grading, paths, specs, tuning
from course.style import Style

USAGE = "tune pNN"  # for checker/run help
HELP = "time the reference solution with other values of its constants (bench/tuning/<id>.json; instructors)"
WORK = paths.BUILD / "tune"


def add_arguments(parser):
    parser.usage = "checker/run tune pNN [--backend=gpu|cpu] [--out CSV]"
    parser.add_argument("puzzle", metavar="pNN", help="the puzzle (4, p04 or p04_tiled)")
    parser.add_argument("--backend", choices=["gpu", "cpu"], default="gpu",
                        help="gpu (default): check and time each variant; cpu: build and check each "
                             "variant on the CPU backend only (no timing)")
    parser.add_argument("--out", metavar="CSV", help=f"the CSV to write (default: {paths.relative(WORK)}/<id>.csv)")
    parser.add_argument("--build-dir", metavar="BUILD",
                        help="the build whose engine and checker library are reused (default: the one "
                             "checker/run pNN uses)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="parallel jobs for the build of the engine and checker library")


def fail(message):
    print(f"checker/run tune: {message}", file=sys.stderr)
    return 2


def run(args):
    try:
        spec = specs.find(args.puzzle)
    except specs.PuzzleNotFound as error:
        return fail(str(error))
    solution = paths.solution_file(spec["id"])
    if not solution.is_file():
        return fail(f"it varies the reference solution, and this copy of the course has none "
                    f"({paths.relative(solution)} is missing).")
    try:
        variants = tuning.read(paths.ROOT, spec)
        sources = {name: tuning.variant_source(solution.read_text(encoding="utf-8"), values, solution.name)
                   for name, values in variants}
    except tuning.TuningError as error:
        return fail(str(error))
    gpu = args.backend == "gpu"
    if gpu:
        gpus = build.listed_gpus()
        if not gpus:
            why = "nvidia-smi lists no GPU" if gpus is not None else "nvidia-smi is not installed"
            return fail(f"timing needs an NVIDIA GPU, and this machine has none ({why}). "
                        f"`checker/run tune {spec['id'][:3]} --backend=cpu` builds and checks every variant "
                        "on the CPU backend.")
    say = functools.partial(print, flush=True)
    style = Style.for_stdout()
    preset = paths.preset()
    build_dir = Path(args.build_dir).resolve() if args.build_dir else paths.build_dir(preset)
    try:
        settings = grading.prepare_build(build_dir, preset, args.jobs, say)
    except grading.GradingError as error:
        return fail(str(error))

    work = WORK / spec["id"]
    shutil.rmtree(work, ignore_errors=True)
    say(f"{len(variants)} variants of {spec['id']} ({paths.relative(tuning.path_for(paths.ROOT, spec['id']))}), "
        f"{'checked and timed on the GPU' if gpu else 'checked on the CPU backend'}:")
    parts, failed = [], []
    for name, values in variants:
        folder = work / (name.replace(" ", "_").replace("=", "") or "spec")
        folder.mkdir(parents=True)
        source = folder / f"{spec['id']}.cu"
        source.write_text(sources[name], encoding="utf-8")
        checker, why = build_variant(build_dir, settings, folder, spec["id"], values, gpu)
        if checker is None:
            failed.append(name)
            say(f"  {name:32} {style.red('not built')}: {why}")
            continue
        csv_file = folder / "bench.csv"
        command = [str(checker), "--backend=gpu", "--bench", f"--bench-csv={csv_file}"] if gpu else \
            [str(checker), "--backend=cpu"]
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        (folder / "checker.log").write_text(done.stdout + done.stderr, encoding="utf-8")
        if done.returncode != 0:
            failed.append(name)
            say(f"  {name:32} {style.red('failed')} (exit {done.returncode}): {paths.relative(folder / 'checker.log')}")
            continue
        say(f"  {name:32} {style.green('passed')}")
        if gpu and csv_file.exists():
            parts.append((name, csv_file.read_text(encoding="utf-8")))
    if not gpu:
        say("Not timed: timing needs an NVIDIA GPU (checker/run tune on a machine with one).")
        return 1 if failed else 2
    out = Path(args.out) if args.out else WORK / f"{spec['id']}.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(tuning.merged_csv(parts), encoding="utf-8")
    say(f"Rows of {len(parts)} variants: {paths.relative(out)}")
    return 1 if failed else 0


def build_variant(build_dir, settings, folder, puzzle, values, gpu):
    """(the checker, None) or (None, why) for one variant, built through checker/grading."""
    tree = folder / "build"
    configure = ["cmake", "-S", str(grading.GRADING_PROJECT), "-B", str(tree),
                 f"-DPUZZLES_BUILD_DIR={Path(build_dir).resolve()}", f"-DPUZZLE={puzzle}",
                 f"-DSUBMISSION={folder / (puzzle + '.cu')}", f"-DGRADING_GPU={'ON' if gpu else 'OFF'}",
                 "-DCONSTANTS=" + ";".join(f"{n}={v}" for n, v in values.items())]
    if settings.get("PUZZLES_GENERATOR"):
        configure += ["-G", settings["PUZZLES_GENERATOR"]]
    for step, command in (("configure", configure), ("build", ["cmake", "--build", str(tree)])):
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            log = folder / f"{step}.log"
            log.write_text(done.stdout + done.stderr, encoding="utf-8")
            return None, f"the {step} failed ({paths.relative(log)})"
    return tree / puzzle, None

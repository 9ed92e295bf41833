"""checker/run bench: every reference solution timed against cuBLAS on this machine's GPU, kept as a
run folder (docs/dev/figures.md).

It builds the checkers against solutions/ in a build tree of their own (the instructor preset,
build/instructor), runs each with --backend=gpu --bench --bench-csv, and writes a run folder,
docs/dev/runs/<date>-<machine>[-<n>]/ (or --out DIR): run.json (date, machine, driver, CUDA,
command, notes), bench.csv (the checkers' rows) and bench.log (what they printed). Then it draws
docs/img/speed.svg from the current run. `checker/run docs --update` puts the run's figures in
the pages. --plot-only draws the plot from the current run, with no GPU and no build.
"""
import datetime
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from course import build, paths, run_facts, specs, speed_plot
from course.style import Style

HELP = "time every reference solution against cuBLAS on the GPU into a run folder, and plot it (docs/img/speed.svg)"
PRESET = "instructor"
PLOT = paths.DOCS / "img" / "speed.svg"


def add_arguments(parser):
    parser.add_argument("--plot-only", action="store_true",
                        help=f"only draw {paths.relative(PLOT)} from the current run in {run_facts.RUNS} (no GPU needed)")
    parser.add_argument("--out", metavar="PATH",
                        help=f"the run folder to write (default: {run_facts.RUNS}/<date>-<machine>[-<n>]); with "
                             f"--plot-only, the SVG to draw (default: {paths.relative(PLOT)})")
    parser.add_argument("--run", metavar="DIR",
                        help="with --plot-only: the run folder to draw (default: the current run)")


def run(args):
    if args.plot_only:
        return plot(Path(args.run) if args.run else None, Path(args.out) if args.out else PLOT)
    if args.run:
        print("checker/run bench: --run names the run to draw, with --plot-only.", file=sys.stderr)
        return 2
    if not (paths.ROOT / "solutions").is_dir():
        print("checker/run bench times the reference solutions, and this copy of the course has none\n"
              "(solutions/ is missing: a students' copy leaves it out). Time your own kernel with\n"
              "`checker/run pNN --bench` on a machine with a GPU.", file=sys.stderr)
        return 2
    gpus = build.listed_gpus()
    if not gpus:
        why = "nvidia-smi lists no GPU" if gpus is not None else "nvidia-smi is not installed"
        print(f"checker/run bench times kernels on an NVIDIA GPU, and this machine has none ({why}).\n"
              "On a machine without one, `checker/run pNN --bench` prints what the CPU backend measures, and\n"
              "`checker/run bench --plot-only` draws the current run's plot.", file=sys.stderr)
        return 2
    folder = Path(args.out) if args.out else new_run_folder(gpus[0])
    if folder.exists() and any(folder.iterdir()):
        print(f"checker/run bench: {folder} is not empty: give a new folder.", file=sys.stderr)
        return 2
    status = measure(folder, gpus[0])
    if status == 2:
        return 2
    if not args.out:
        plotted = plot()
        print(f"Next: `checker/run docs --update` puts this run's figures in the pages; commit {paths.relative(folder)} with them.")
        return plotted or status
    return status


def machine_slug(gpu_name):
    """'NVIDIA H100 80GB HBM3' -> 'h100': the model, as a run folder names it."""
    words = [w for w in gpu_name.split() if w not in ("NVIDIA", "GeForce", "Tesla")]
    for i, word in enumerate(words):
        if re.search(r"\d", word):
            model = word.split("-")[0]
            if model.isdigit() and i > 0:  # "RTX 4090"
                model = words[i - 1] + model
            return re.sub(r"[^a-z0-9]", "", model.lower()) or "gpu"
    return "gpu"


def new_run_folder(gpu_name):
    date = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    base = paths.ROOT / run_facts.RUNS / f"{date}-{machine_slug(gpu_name)}"
    folder, n = base, 1
    while folder.exists():
        n += 1
        folder = base.with_name(f"{base.name}-{n}")
    return folder


def _first_line(command):
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip().splitlines()[0].strip() if done.returncode == 0 and done.stdout.strip() else None


def machine_facts(gpu_name):
    driver = _first_line(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"]) or "unknown"
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    release = None
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=30).stdout
        found = re.search(r"release (\d+\.\d+)", out)
        release = found.group(1) if found else None
    except (OSError, subprocess.SubprocessError):
        pass
    return {"machine": gpu_name, "driver": driver, "cuda": release or "unknown"}


def measure(folder, gpu_name):
    """Builds the instructor checkers and runs each with --bench into FOLDER; 0, 1 (a solution failed) or 2."""
    style = Style.for_stdout()
    timed = [s for s in specs.load_all() if s.get("bench", {}).get("shapes")]
    if not build.configure(PRESET, out=sys.stdout):
        return 2
    targets = [s["id"] for s in timed]
    print(f"Building {len(targets)} checkers against solutions/ in {paths.relative(paths.build_dir(PRESET))}...",
          flush=True)
    log = paths.LOGS / "bench-build.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as handle:
        built = subprocess.run(["cmake", "--build", str(paths.build_dir(PRESET)), "--target", *targets],
                               cwd=paths.ROOT, stdout=handle, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    if built.returncode != 0:
        print(log.read_text(encoding="utf-8", errors="replace")[-4000:])
        print(f"The build failed (log: {paths.relative(log)}).", file=sys.stderr)
        return 2
    folder.mkdir(parents=True, exist_ok=True)
    csv_file = folder / "bench.csv"
    failed = []
    with open(folder / "bench.log", "w", encoding="utf-8") as bench_log:
        for spec in timed:
            checker = paths.checker_binary(spec["id"], PRESET)
            print(style.bold(f"\n{spec['id']}"), flush=True)
            done = subprocess.run([str(checker), "--backend=gpu", "--bench", f"--bench-csv={csv_file.resolve()}"],
                                  capture_output=True, text=True, stdin=subprocess.DEVNULL)
            bench_log.write(done.stdout + done.stderr + f"exit status: {done.returncode}\n")
            print(speed_part(done.stdout) if done.returncode == 0 else (done.stdout + done.stderr)[-3000:], flush=True)
            if done.returncode == 2:
                return 2
            if done.returncode != 0:
                failed.append(spec["id"])
    info = {"date": folder.name[:10] if run_facts.FOLDER.match(folder.name) else
            datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
            **machine_facts(gpu_name),
            "command": "checker/run bench: each reference solution's checker with --backend=gpu --bench "
                       "--bench-csv=bench.csv, one after the other (bench.log)",
            "notes": "Not timed, because the reference solution failed: " + ", ".join(failed) if failed else
                     "Every reference solution passed its cases before it was timed."}
    (folder / "run.json").write_text(json.dumps(info, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nRun: {paths.relative(folder)}")
    if failed:
        print(style.red(f"Not timed, because the reference solution failed: {', '.join(failed)}."))
        return 1
    return 0


def speed_part(output):
    """The checker's speed table and what follows it, without the correctness cases before it."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Speed"):
            return "\n".join(lines[i:])
    return output


def plot(folder=None, out=PLOT):
    """Draws OUT (docs/img/speed.svg) from a run folder, or from the current run; 0, or 2 with the reason."""
    try:
        current = run_facts.read_run(folder, paths.ROOT if folder is None else None) if folder else \
            run_facts.current(run_facts.read_runs(paths.ROOT))
    except run_facts.RunFileError as error:
        print(f"checker/run bench: {error}", file=sys.stderr)
        return 2
    if current is None:
        print(f"checker/run bench: no run in {run_facts.RUNS} has a bench.csv to draw.", file=sys.stderr)
        return 2
    if not current.rows:
        print(f"checker/run bench: {folder} has no bench.csv to draw.", file=sys.stderr)
        return 2
    csv_name = current.csv_path(paths.ROOT) if folder is None else str(Path(folder) / "bench.csv")
    try:
        speed_plot.draw(current, csv_name, out)
    except ValueError as error:
        print(f"checker/run bench: {error}", file=sys.stderr)
        return 2
    print(f"Plot: {paths.relative(out)}, from {csv_name}")
    return 0

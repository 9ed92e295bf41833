"""checker/run bench: every reference solution timed against cuBLAS on this machine's GPU.

It builds the checkers against solutions/ in a build tree of their own (the instructor preset,
build/instructor), runs each with --backend=gpu --bench --bench-csv, and writes the rows to
build/bench/results.csv and a plot of TFLOP/s per puzzle and size to docs/img/speed.png and .svg
(with --out DIR: DIR/results.csv, DIR/speed.png and DIR/speed.svg). --plot-only CSV draws the plot
from an existing CSV, with no GPU and no build.
"""
import csv
import statistics
import subprocess
import sys
from pathlib import Path

from course import build, paths, specs
from course.style import Style

HELP = "time every reference solution against cuBLAS on the GPU, and plot it (docs/img/speed.svg)"
PRESET = "instructor"
RESULTS = paths.BUILD / "bench" / "results.csv"
PLOT_STEM = paths.DOCS / "img" / "speed"
COLUMNS = ("puzzle", "implementation", "cublas", "m", "n", "k", "tflops", "device")


def add_arguments(parser):
    parser.add_argument("--plot-only", metavar="CSV",
                        help="only draw the plot, from a CSV that the checkers' --bench-csv wrote (no GPU needed)")
    parser.add_argument("--out", metavar="DIR",
                        help="write results.csv, speed.png and speed.svg into DIR "
                             f"(default: {paths.relative(RESULTS)} and {paths.relative(PLOT_STEM)}.png/.svg)")


def run(args):
    results = Path(args.out) / "results.csv" if args.out else RESULTS
    stem = Path(args.out) / "speed" if args.out else PLOT_STEM
    if args.plot_only:
        return plot(Path(args.plot_only), stem)
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
              "`checker/run bench --plot-only CSV` draws a CSV made elsewhere.", file=sys.stderr)
        return 2
    status = measure(results)
    if status == 2:
        return 2
    plotted = plot(results, stem)
    return plotted or status


def measure(results):
    """Builds the instructor checkers and runs each with --bench; 0, 1 (a solution failed) or 2."""
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
    results.parent.mkdir(parents=True, exist_ok=True)
    results.unlink(missing_ok=True)  # this run's rows only
    failed = []
    for spec in timed:
        checker = paths.checker_binary(spec["id"], PRESET)
        print(style.bold(f"\n{spec['id']}"), flush=True)
        done = subprocess.run([str(checker), "--backend=gpu", "--bench", f"--bench-csv={results.resolve()}"],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL)
        print(speed_part(done.stdout) if done.returncode == 0 else (done.stdout + done.stderr)[-3000:], flush=True)
        if done.returncode == 2:
            return 2
        if done.returncode != 0:
            failed.append(spec["id"])
    if failed:
        print(style.red(f"Not timed, because the reference solution failed: {', '.join(failed)}."))
        return 1
    print(f"\nResults: {paths.relative(results)}")
    return 0


def speed_part(output):
    """The checker's speed table and what follows it, without the correctness cases before it."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Speed"):
            return "\n".join(lines[i:])
    return output


def read_rows(csv_path):
    """The CSV's rows, checked; raises ValueError with what is wrong."""
    try:
        with open(csv_path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        raise ValueError(f"cannot read {csv_path}: {error.strerror}")
    if not rows:
        raise ValueError(f"{csv_path} holds no rows")
    missing = [c for c in COLUMNS if c not in rows[0]]
    if missing:
        raise ValueError(f"{csv_path} is not a --bench-csv file: it has no column {', '.join(missing)}")
    for number, row in enumerate(rows, start=2):
        try:
            row["tflops"] = float(row["tflops"])
            row["size"] = tuple(int(row[c]) for c in ("m", "n", "k"))
        except (TypeError, ValueError):
            raise ValueError(f"{csv_path}, line {number}: m, n, k and tflops must be numbers")
    devices = sorted({r["device"] for r in rows})
    if len(devices) > 1:
        raise ValueError(f"{csv_path} mixes machines ({'; '.join(devices)}): one plot shows one machine")
    return rows


def size_label(size):
    m, n, k = size
    return f"{m}³" if m == n == k else f"{m}×{n}×{k}"


def plot(csv_path, stem):
    """Draws TFLOP/s per puzzle and size to stem.png and stem.svg; 0, or 2 with the reason."""
    try:
        rows = read_rows(csv_path)
    except ValueError as error:
        print(f"checker/run bench: {error}.", file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("checker/run bench draws with matplotlib: sudo apt-get install -y python3-matplotlib", file=sys.stderr)
        return 2

    sizes = sorted({r["size"] for r in rows}, key=lambda s: (s[0] * s[1] * s[2], s))
    groups = []  # (label, {size: TFLOP/s})
    for puzzle in sorted({r["puzzle"] for r in rows}):
        for name in sorted({r["implementation"] for r in rows if r["puzzle"] == puzzle and r["cublas"] == "0"}):
            values = {r["size"]: r["tflops"] for r in rows
                      if r["puzzle"] == puzzle and r["implementation"] == name and r["cublas"] == "0"}
            label = puzzle if name == kernel_of(puzzle) else f"{puzzle}\n{name}"
            groups.append((label, values))
    # cuBLAS is timed beside every puzzle: one group each, the median of its runs per size.
    for name in sorted({r["implementation"] for r in rows if r["cublas"] == "1"}):
        values = {}
        for size in sizes:
            runs = [r["tflops"] for r in rows if r["implementation"] == name and r["size"] == size]
            if runs:
                values[size] = statistics.median(runs)
        groups.append((name, values))

    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable
    plt.rcParams["svg.hashsalt"] = "speed"  # fixed ids: the same CSV gives the same file
    figure, axes = plt.subplots(figsize=(max(6.0, 1.3 * len(groups) + 2), 4.5))
    width = 0.8 / len(sizes)
    for i, size in enumerate(sizes):
        xs = [g + (i - (len(sizes) - 1) / 2) * width for g, (_, values) in enumerate(groups) if size in values]
        ys = [values[size] for _, values in groups if size in values]
        bars = axes.bar(xs, ys, width, label=size_label(size))
        axes.bar_label(bars, fmt="%.1f", fontsize=7, padding=2)
    axes.set_xticks(range(len(groups)), [label for label, _ in groups], fontsize=8)
    # fp16 tensor-core kernels run ten times faster than float ones: a log scale keeps both readable.
    axes.set_yscale("log")
    axes.set_ylabel("TFLOP/s (log scale)")
    axes.set_title(f"Reference solutions and cuBLAS, TFLOP/s by matrix size\n{rows[0]['device']}", fontsize=10)
    axes.legend(title="m × n × k", fontsize=8, title_fontsize=8)
    axes.spines[["top", "right"]].set_visible(False)
    figure.tight_layout()
    stem.parent.mkdir(parents=True, exist_ok=True)
    png, svg = stem.with_name(stem.name + ".png"), stem.with_name(stem.name + ".svg")
    figure.savefig(png, dpi=150, metadata={"Software": None})
    figure.savefig(svg, metadata={"Date": None, "Creator": None})
    plt.close(figure)
    print(f"Plot: {paths.relative(png)} and {paths.relative(svg)}")
    return 0


def kernel_of(puzzle_id):
    """The puzzle's one kernel's name, or None when it has several (or the spec is gone)."""
    try:
        kernels = specs.find(puzzle_id)["kernels"]
    except specs.PuzzleNotFound:
        return None
    return specs.kernel_name(kernels[0]) if len(kernels) == 1 else None

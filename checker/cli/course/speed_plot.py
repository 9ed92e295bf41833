"""docs/img/speed.svg: the current run's kernels against cuBLAS, drawn from its bench.csv.

One panel per cuBLAS baseline (SGEMM for the float kernels, HGEMM for fp16 tensor cores), so that
the float kernels are not dwarfed by the tensor cores. In each, every kernel at the largest size
its puzzle is timed at: a grey bar for cuBLAS in the same run, the kernel's bar over it, and the
kernel's % of cuBLAS written on it, rounded as every figure is (run_facts.figure). Text is 12 pt on
a 7.5-inch-wide figure, the width of a page of the site, so that it reads at the size of the page's
text.

The SVG records the CSV it was drawn from and the CSV's SHA-256 (its <dc:source> and
<dc:identifier>), so that a test can tell a stale plot without matplotlib (drawn_from()).
"""
import hashlib
import re

from course import run_facts

WIDTH_INCHES = 7.5
FONT_POINTS = 12
KERNEL_COLOUR = "#1f5fa8"
CUBLAS_COLOUR = "#c8c8c8"


def digest(csv_file):
    return "sha256:" + hashlib.sha256(csv_file.read_bytes()).hexdigest()


def drawn_from(svg_text):
    """(the CSV path, its digest) that an SVG made here records, or (None, None)."""
    source = re.search(r"<dc:source>([^<]*)</dc:source>", svg_text)
    identifier = re.search(r"<dc:identifier>([^<]*)</dc:identifier>", svg_text)
    return (source.group(1) if source else None, identifier.group(1) if identifier else None)


def bars(run):
    """{baseline: [(label, kernel TFLOP/s, cuBLAS TFLOP/s, percent text)]}, puzzles in order."""
    panels = {}
    puzzles = sorted({r["puzzle"] for r in run.rows})
    for puzzle in puzzles:
        rows = [r for r in run.rows if r["puzzle"] == puzzle and r["cublas"] == "0"]
        if not rows:
            continue
        largest = max(int(r["m"]) * int(r["n"]) * int(r["k"]) for r in rows)
        rows = [r for r in rows if int(r["m"]) * int(r["n"]) * int(r["k"]) == largest]
        for r in rows:
            base = run.baseline_row(r)
            label = puzzle[:3] if len(rows) == 1 else f"{puzzle[:3]} {r['implementation'].replace('matmul_', '')}"
            shape = f"{r['m']}³" if r["m"] == r["n"] == r["k"] else f"{r['m']}×{r['n']}×{r['k']}"
            panels.setdefault(r["baseline"], []).append(
                (f"{label}, {shape}", float(r["tflops"]), float(base["tflops"]) if base else 0.0,
                 run_facts.figure(r["percent_of_baseline"], "percent") + " %"))
    return panels


def draw(run, csv_name, svg_path):
    """Draw the plot to svg_path; ImportError without matplotlib."""
    import matplotlib
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    panels = bars(run)
    if not panels:
        raise ValueError(f"{csv_name} has no kernel rows to draw")
    plt.rcParams.update({"font.size": FONT_POINTS, "svg.fonttype": "none",  # text stays text
                         "svg.hashsalt": "speed"})  # fixed ids: the same CSV gives the same file
    counts = [len(v) for v in panels.values()]
    figure, axes = plt.subplots(len(panels), 1, squeeze=False, gridspec_kw={"height_ratios": counts},
                                figsize=(WIDTH_INCHES, 1.3 + 0.42 * sum(counts) + 0.9 * len(panels)))
    for ax, (baseline, items) in zip(axes[:, 0], panels.items()):
        ys = list(range(len(items)))[::-1]
        ax.barh(ys, [c for _, _, c, _ in items], height=0.8, color=CUBLAS_COLOUR, label=baseline)
        ax.barh(ys, [k for _, k, _, _ in items], height=0.5, color=KERNEL_COLOUR, label="reference solution")
        for y, (_, kernel, _, percent) in zip(ys, items):
            ax.text(kernel, y, f" {percent}", va="center", ha="left", fontsize=FONT_POINTS)
        ax.set_yticks(ys, [label for label, _, _, _ in items])
        ax.set_xlabel(f"TFLOP/s (grey: {baseline}; % of it on each bar)")
        ax.spines[["top", "right"]].set_visible(False)
        ax.margins(x=0.02)
    axes[0, 0].set_title(f"{run.device}, {run.date}", fontsize=FONT_POINTS)
    figure.tight_layout()
    svg_path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(svg_path, metadata={"Date": None, "Creator": None, "Source": csv_name,
                                       "Identifier": digest(run.folder / "bench.csv"),
                                       "Title": "Reference solutions against cuBLAS"})
    plt.close(figure)

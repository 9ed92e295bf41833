"""The generated blocks that hold figures (docs/dev/figures.md): made from the specs and the committed
runs (run_facts), never typed.

    puzzle-files          the README's puzzle table (file, kernels, what you learn: the specs)
    speed-summary         each timed puzzle at the size of its target (else its largest), in the current run
    speed-puzzle(p06)     a puzzle's rows in the current run; speed-puzzle(p06,p04) adds p04's
    measurements          every row of the current run; measurements(2026-11-23-h100) of that run
    log(PATH)             a run file quoted whole; log(PATH:3-20) lines 3 to 20; log(PATH:1,4-5) lines 1, 4 and 5

Standard library only (MkDocs's hooks import it through site_facts).
"""
import re
from pathlib import Path

from course import run_facts

ROOT = Path(__file__).resolve().parents[3]
KIND = re.compile(r"^(puzzle-files|speed-summary|speed-puzzle|measurements|log)(?:\(([^)]*)\))?$")
_runs = {}


class BlockError(ValueError):
    """A generated block that cannot be made: the message says why."""


def runs(root=ROOT):
    """The committed runs, read once per process."""
    key = str(root)
    if key not in _runs:
        _runs[key] = run_facts.read_runs(root)
    return _runs[key]


def handles(kind):
    return bool(KIND.match(kind))


def render(kind, specs, root=ROOT):
    """(the block's text, the file it comes from) for a kind this module makes; BlockError if it cannot."""
    m = KIND.match(kind)
    name, argument = m.group(1), m.group(2)
    if name == "puzzle-files":
        return puzzle_files(specs), "checker/specs"
    if name == "log":
        return log(argument, root)
    every = runs(root)
    if name == "measurements" and argument:
        run = next((r for r in every if r.name == argument), None)
        if run is None or not run.rows:
            raise BlockError(f"no run {argument} with a bench.csv in {run_facts.RUNS}")
    else:
        run = run_facts.current(every)
        if run is None:
            raise BlockError(f"no run in {run_facts.RUNS} has a bench.csv")
    source = run.csv_path(root)
    if name == "speed-summary":
        return speed_summary(run, specs, source), source
    if name == "measurements":
        return measurements(run, specs, source), source
    ids = [a.strip() for a in (argument or "").split(",") if a.strip()]
    if not ids:
        raise BlockError("speed-puzzle needs a puzzle: speed-puzzle(p06), or speed-puzzle(p06,p04) to compare")
    return speed_puzzle(run, specs, ids, source), source


def _spec(specs, short):
    found = [s for s in specs if s.id == short or s.id.startswith(short + "_")]
    if len(found) != 1:
        raise BlockError(f"no puzzle '{short}' in checker/specs")
    return found[0]


def _cell(text):
    return text.replace("|", "\\|")


def puzzle_files(specs):
    lines = ["| # | File | Kernel | You learn |", "|---|---|---|---|"]
    for s in specs:
        kernels = ", ".join(f"`{k}`" for k in s.kernels())
        learn = re.sub(r"(?<![`\w])(__\w+__|\w+\(\)|nvcuda::\w+)(?![`\w])", r"`\1`", s.learn)
        lines.append(f"| {s.number} | `puzzles/{s.id}.cu` | {kernels} | {_cell(learn)} |")
    return "\n".join(lines) + "\n"


def shape_words(row, short=False):
    m, n, k = (row[c] for c in ("m", "n", "k"))
    if short and m == n == k:
        return f"{m}³"
    return f"{m} × {n} × {k}"


def _size(row):
    return int(row["m"]) * int(row["n"]) * int(row["k"])


def _shape(row):
    return int(row["m"]), int(row["n"]), int(row["k"])


def _target_shape(target):
    """A spec's bench.target_at: [m, n, k], or n for a square puzzle."""
    return tuple(target) if isinstance(target, list) else (target, target, target)


def _baseline_words(row):
    return row["baseline"].replace("cuBLAS ", "")


def _where(run, source):
    return f"{run.device}, {run.date} (`{source}`)"


def speed_summary(run, specs, source):
    lines = [f"On an {_where(run, source)}: each reference solution's checker with `--bench`, cuBLAS "
             "in the same run, at the size its spec's target is for (else the largest it is timed at).", "",
             "| # | Puzzle | Kernel | m × n × k | TFLOP/s | % of cuBLAS |", "|---|---|---|---|---|---|"]
    for s in specs:
        rows = run.kernel_rows(s.id)
        if not s.bench:
            lines.append(f"| {s.number} | {_cell(s.title)} | | | | not timed (its spec has no `bench`) |")
            continue
        if not rows:
            lines.append(f"| {s.number} | {_cell(s.title)} | | | | not in this run |")
            continue
        target = (s.bench or {}).get("target_at")
        at_target = [r for r in rows if isinstance(target, (list, int)) and _shape(r) == _target_shape(target)]
        largest = max(_size(r) for r in rows)
        rows = at_target or [r for r in rows if _size(r) == largest]
        kernels = " / ".join(f"`{r['implementation']}`" for r in rows)
        tflops = " / ".join(run_facts.figure(r["tflops"], "tflops") for r in rows)
        percent = " / ".join(run_facts.figure(r["percent_of_baseline"], "percent") for r in rows)
        lines.append(f"| {s.number} | {_cell(s.title)} | {kernels} | {shape_words(rows[0], True)} | {tflops} | "
                     f"{percent} % of {_baseline_words(rows[0])} |")
    return "\n".join(lines) + "\n"


def _row_line(run, row, label):
    base = run.baseline_row(row)
    base_tflops = run_facts.figure(base["tflops"], "tflops") if base else "—"
    return (f"| {shape_words(row)} | {label} | {run_facts.figure(row['milliseconds'], 'ms')} | "
            f"{run_facts.figure(row['tflops'], 'tflops')} | {run_facts.figure(row['percent_of_baseline'], 'percent')} % "
            f"of {_baseline_words(row)} | {base_tflops} |")


def speed_puzzle(run, specs, ids, source):
    main = _spec(specs, ids[0])
    others = [_spec(specs, i) for i in ids[1:]]
    mine = [r for r in run.rows if r["puzzle"] == main.id and
            not (r["cublas"] == "1" and r["implementation"] == r["baseline"])]
    if not mine:
        return (f"Puzzle {main.number} is not in the current run ({_where(run, source)}).\n")
    lines = [f"{_where(run, source)}: `checker/run {main.id[:3]} --bench`, cuBLAS in the same run"
             + (", with " + ", ".join(f"puzzle {o.number}" for o in others) + " from the same run for comparison"
                if others else "") + ":", "",
             "| m × n × k | kernel | ms | TFLOP/s | % of cuBLAS | cuBLAS TFLOP/s |", "|---|---|---|---|---|---|"]
    for row in mine:
        lines.append(_row_line(run, row, f"`{row['implementation']}`" if row["cublas"] == "0" else row["implementation"]))
    for o in others:
        for row in run.kernel_rows(o.id):
            lines.append(_row_line(run, row, f"`{row['implementation']}` (puzzle {o.number})"))
    if "target_percent_of_cublas" in (main.bench or {}):
        lines += ["", "The target for the reference solution (its spec): "
                      f"{main.target_words(' of cuBLAS ' + main.bench['baseline'].upper())}."]
    return "\n".join(lines) + "\n"


def measurements(run, specs, source):
    info = run.info
    lines = [f"{run.device}, driver {info['driver']}, CUDA {info['cuda']}, {run.date}: `{source}`.", "",
             "| puzzle | m × n × k | kernel | ms | TFLOP/s | % of cuBLAS | cuBLAS TFLOP/s |",
             "|---|---|---|---|---|---|---|"]
    for row in run.rows:
        if row["cublas"] == "1" and row["implementation"] == row["baseline"]:
            continue
        label = f"`{row['implementation']}`" if row["cublas"] == "0" else row["implementation"]
        lines.append(f"| {row['puzzle'][:3]} " + _row_line(run, row, label))
    return "\n".join(lines) + "\n"


def log(argument, root):
    if not argument:
        raise BlockError("log needs a file: log(docs/dev/runs/<run>/<file>), or log(<file>:3-20)")
    path, _, span = argument.partition(":")
    file = Path(root) / path.strip()
    if not path.strip().startswith(run_facts.RUNS + "/") or not file.is_file():
        raise BlockError(f"log({argument}): not a file under {run_facts.RUNS}/")
    lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
    if span:
        chosen = []
        for part in span.split(","):
            m = re.fullmatch(r"(\d+)(?:-(\d+))?", part.strip())
            if not m or not 1 <= int(m.group(1)) <= int(m.group(2) or m.group(1)) <= len(lines):
                raise BlockError(f"log({argument}): lines A-B (or A, or A-B,C-D) within the file's "
                                 f"{len(lines)} lines")
            chosen += lines[int(m.group(1)) - 1:int(m.group(2) or m.group(1))]
        lines = chosen
    return "```text\n" + "\n".join(lines) + "\n```\n", path.strip()


# ---------------------------------------------------------------- figures typed by hand

FIGURE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:%|TFLOP/s|GFLOP/s|ms|µs)(?![\w/])")
DECIMAL_CELL = re.compile(r"^\s*\d+\.\d+(?:\s*/\s*\d+\.\d+)*\s*$")
_HIDDEN = [re.compile(r"<!-- BEGIN GENERATED .*?<!-- END GENERATED -->", re.S),
           re.compile(r"^(```+)[^\n]*\n.*?^\1[ \t]*$", re.M | re.S),
           re.compile(r"`[^`\n]*`")]


def loose_figures(text):
    """[(line, figure)] for each speed figure outside generated blocks, code blocks and inline code:
    a number followed by %, TFLOP/s, GFLOP/s, ms or µs, or a table cell of decimals."""
    for pattern in _HIDDEN:  # blanked, not removed, so that line numbers stay
        text = pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        found += [(number, m.group(0)) for m in FIGURE.finditer(line)]
        if line.lstrip().startswith("|"):
            found += [(number, cell.strip()) for cell in line.strip().strip("|").split("|") if DECIMAL_CELL.match(cell)]
    return found


def scanned_pages(root=ROOT):
    """The Markdown files whose figures must come from generated blocks: README.md and docs/."""
    root = Path(root)
    return [root / "README.md"] + sorted((root / "docs").rglob("*.md"))

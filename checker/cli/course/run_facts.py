"""The committed GPU runs (docs/dev/runs/<date>-<machine>[-<n>]/) and the speed figures the pages
take from them (docs/dev/figures.md).

A run folder holds run.json (date, machine, driver, cuda, command, notes), bench.csv (rows exactly
as a checker's --bench-csv writes them; optional) and the run's logs. The newest run with a
bench.csv is the current run: the generated speed blocks show it.

Every figure is rounded once, from the CSV's own digits, half away from zero: TFLOP/s and % to one
decimal, milliseconds to three.

Standard library only: MkDocs's hooks import this module too (through site_facts).
"""
import csv
import io
import json
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

RUNS = "docs/dev/runs"
FOLDER = re.compile(r"^(\d{4}-\d{2}-\d{2})-([a-z0-9]+)(?:-(\d+))?$")
RUN_KEYS = ("date", "machine", "driver", "cuda", "command", "notes")
# The header and the digits after the point of each number column, as checker/lib/src/bench/bench_table.cpp
# writes them: a row with other digits was not written by --bench-csv.
COLUMNS = ("puzzle", "implementation", "cublas", "m", "n", "k", "milliseconds", "tflops",
           "percent_of_baseline", "baseline", "device", "launches")
DECIMALS = {"milliseconds": 4, "tflops": 3, "percent_of_baseline": 2}
INTEGERS = ("cublas", "m", "n", "k", "launches")
PLACES = {"tflops": 1, "percent": 1, "ms": 3}


class RunFileError(ValueError):
    """A run file that cannot be read as one: the message starts with the file and line."""


def figure(text, kind):
    """A CSV number as the pages show it: rounded once, half away from zero (kind: tflops, percent, ms)."""
    places = PLACES[kind]
    return str(Decimal(text).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


class Run:
    def __init__(self, folder, info, rows):
        self.folder = folder  # Path
        self.name = folder.name
        self.info = info
        self.rows = rows  # [dict], with "line": its line in bench.csv

    @property
    def date(self):
        return self.info["date"]

    @property
    def device(self):
        devices = sorted({r["device"] for r in self.rows})
        return devices[0] if devices else self.info["machine"]

    def csv_path(self, root):
        return (self.folder / "bench.csv").relative_to(root).as_posix()

    def kernel_rows(self, puzzle):
        return [r for r in self.rows if r["puzzle"] == puzzle and r["cublas"] == "0"]

    def baseline_row(self, row):
        """The cuBLAS row this kernel row's % is of (same puzzle and shape)."""
        return next((r for r in self.rows if r["cublas"] == "1" and r["puzzle"] == row["puzzle"]
                     and r["implementation"] == row["baseline"] and _shape(r) == _shape(row)), None)


def _shape(row):
    return (int(row["m"]), int(row["n"]), int(row["k"]))


def read_run(folder, root=None):
    """One run folder; RunFileError names the file and line of what is wrong."""
    folder = Path(folder)
    shown = (lambda p: p.relative_to(root).as_posix()) if root else str
    if not FOLDER.match(folder.name):
        raise RunFileError(f"{shown(folder)}: a run folder is named <date>-<machine>[-<n>] "
                           "(2026-11-23-h100, 2026-11-23-h100-2)")
    info_path = folder / "run.json"
    try:
        text = info_path.read_text(encoding="utf-8")
    except OSError:
        raise RunFileError(f"{shown(info_path)}:1: missing (every run folder has one: {', '.join(RUN_KEYS)})")
    try:
        info = json.loads(text)
    except json.JSONDecodeError as error:
        raise RunFileError(f"{shown(info_path)}:{error.lineno}: not JSON: {error.msg}")
    if not isinstance(info, dict):
        raise RunFileError(f"{shown(info_path)}:1: an object is expected")
    for key in RUN_KEYS:
        if not isinstance(info.get(key), str) or not info[key].strip():
            raise RunFileError(f"{shown(info_path)}:{_line_of(text, key)}: '{key}' must be a non-empty string")
    if info["date"] != FOLDER.match(folder.name).group(1):
        raise RunFileError(f"{shown(info_path)}:{_line_of(text, 'date')}: the date {info['date']} is not the "
                           f"folder's ({folder.name})")
    rows = []
    bench = folder / "bench.csv"
    if bench.exists():
        rows = read_bench_csv(bench.read_text(encoding="utf-8"), shown(bench))
    return Run(folder, info, rows)


def _line_of(text, key):
    for number, line in enumerate(text.splitlines(), start=1):
        if f'"{key}"' in line:
            return number
    return 1


def read_bench_csv(text, name):
    """The rows of a bench.csv, each checked against what --bench-csv writes."""
    lines = text.splitlines()
    if not lines or lines[0] != ",".join(COLUMNS):
        raise RunFileError(f"{name}:1: the header must be exactly what --bench-csv writes: {','.join(COLUMNS)}")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            raise RunFileError(f"{name}:{number}: an empty line")
        values = next(csv.reader(io.StringIO(line)))
        if len(values) != len(COLUMNS):
            raise RunFileError(f"{name}:{number}: {len(values)} fields, but --bench-csv writes {len(COLUMNS)}")
        row = dict(zip(COLUMNS, values))
        for column in INTEGERS:
            if not re.fullmatch(r"\d+", row[column]):
                raise RunFileError(f"{name}:{number}: {column} '{row[column]}' is not a whole number")
        for column, places in DECIMALS.items():
            if not re.fullmatch(r"\d+\.\d{%d}" % places, row[column]):
                raise RunFileError(f"{name}:{number}: {column} '{row[column]}' does not have the {places} "
                                   "decimals --bench-csv writes (typed by hand?)")
        try:
            Decimal(row["tflops"])
        except InvalidOperation:
            raise RunFileError(f"{name}:{number}: tflops is not a number")
        if rows and row["device"] != rows[0]["device"]:
            raise RunFileError(f"{name}:{number}: the device '{row['device']}' is not line 2's "
                               f"('{rows[0]['device']}'): a run file mixes machines")
        row["line"] = number
        rows.append(row)
    return rows


def read_runs(root):
    """Every run folder under docs/dev/runs, oldest first; RunFileError for the first broken one."""
    folder = Path(root) / RUNS
    if not folder.is_dir():
        return []
    runs = [read_run(p, Path(root)) for p in sorted(folder.iterdir()) if p.is_dir()]
    return sorted(runs, key=_order)


def _order(run):
    m = FOLDER.match(run.name)
    return (m.group(1), int(m.group(3) or 1), m.group(2))


def current(runs):
    """The newest run with bench rows, or None."""
    timed = [r for r in runs if r.rows]
    return timed[-1] if timed else None

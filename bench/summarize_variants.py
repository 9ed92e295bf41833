#!/usr/bin/env python3
"""Kernel rows of --bench-csv files, side by side.

    python3 bench/summarize_variants.py tune-*.csv          one line per kernel row of each file:
        the file (and the puzzle, where a file holds several), the shape, the kernel's time and TFLOP/s, cuBLAS's time at that shape in the
        same file, and the kernel's % of it (variants timed one after the other)
    python3 bench/summarize_variants.py --median run-*.csv  one line per puzzle, kernel and shape
        over all the files (repeated runs of the same checkers): each run's % of cuBLAS, each %
        from its own run, and their median
"""
import csv
import statistics
import sys
from pathlib import Path


def kernel_rows(path):
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for r in rows:
        if r["cublas"] != "0":
            continue
        base = next((b for b in rows if b["cublas"] == "1" and b["implementation"] == r["baseline"]
                     and b["puzzle"] == r["puzzle"] and (b["m"], b["n"], b["k"]) == (r["m"], r["n"], r["k"])), None)
        yield r, base


def main(args):
    median = "--median" in args
    paths = [Path(a) for a in args if a != "--median"]
    if not median:
        for path in paths:
            rows = list(kernel_rows(path))
            several = len({r["puzzle"] for r, _ in rows}) > 1  # a whole run's CSV: say whose row
            for r, base in rows:
                shape = f"{r['m']}x{r['n']}x{r['k']}"
                name = f"{path.stem} {r['puzzle'][:3]}" if several else path.stem
                print(f"{name:24} {shape:16} {r['milliseconds']:>8} ms {r['tflops']:>8} TFLOP/s  "
                      f"cuBLAS {base['milliseconds'] if base else '-':>8} ms  {r['percent_of_baseline']:>7} %")
        return 0
    runs = {}
    for path in paths:
        for r, _ in kernel_rows(path):
            key = (r["puzzle"], r["implementation"], f"{r['m']}x{r['n']}x{r['k']}")
            runs.setdefault(key, []).append(r["percent_of_baseline"])
    print(f"{'puzzle':24} {'kernel':24} {'m x n x k':16} {'% of cuBLAS in each run':30} median")
    for (puzzle, kernel, shape), values in runs.items():
        each = ", ".join(f"{v} %" for v in values)
        print(f"{puzzle:24} {kernel:24} {shape:16} {each:30} {statistics.median(float(v) for v in values):.2f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

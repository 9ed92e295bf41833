#!/usr/bin/env python3
"""Figures for docs/dev/grading.md: what the sandbox adds per submission, where a submission's
build goes, and how long a synthetic class takes to grade in shards merged (with --compare, also
at once, and whether the tables agree; test_grade_shards.py tests that they do).

    python3 tests/instructor/measure_grading.py sandbox [--rounds 3] [--students 6]
    python3 tests/instructor/measure_grading.py steps [--students 2] [--puzzles all]
    python3 tests/instructor/measure_grading.py class --students 20 --puzzles p01,p02,p03,p04,p05 [--shards 4] [--compare] [--timeout 120]
    python3 tests/instructor/measure_grading.py class --students 200 --puzzles all --mix --shards 4

Not a test: it prints numbers. It grades with the build of PUZZLES_BUILD_DIR (default build/default).
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from support import ROOT, build_dir, checker_run

from course import grading_sandbox  # noqa: E402  (support puts checker/cli on the path)
from course.grading_processes import run as run_process  # noqa: E402


def make_class(folder, students, puzzles, mix=False):
    """Without mix, students alternate between the reference solution and the stub of every puzzle.
    With mix, a class as a grader meets it: for each student and puzzle, in a fixed pseudo-random
    order, the reference solution (half the cells), the stub (a quarter) or one of the puzzle's
    broken kernels from tests/broken (the rest; each a real mistake with its finding). Every file
    ends with a comment naming its student, so that no two submissions are the same bytes and no
    cache can grade one for another. Returns {kind: count}."""
    import random
    from course import broken_kernels
    corpus, _ = broken_kernels.kernels(ROOT) if mix else ({}, [])
    chooser = random.Random(2026)
    counts = {"solution": 0, "stub": 0, "broken": 0}
    for i in range(students):
        student = folder / f"student{i:03d}"
        student.mkdir(parents=True)
        for puzzle in puzzles:
            broken = sorted(name for name in corpus if name.startswith(puzzle[:4]))
            draw = chooser.random() if mix else (0.0 if i % 2 == 0 else 0.6)
            if draw < 0.5:
                kind, text = "solution", (ROOT / "solutions" / f"{puzzle}.cu").read_text(encoding="utf-8")
            elif draw < 0.75 or not broken:
                kind, text = "stub", (ROOT / "puzzles" / f"{puzzle}.cu").read_text(encoding="utf-8")
            else:
                kind, text = "broken", corpus[chooser.choice(broken)]
            counts[kind] += 1
            suffix = f"\n// student{i:03d}\n" if mix else ""
            (student / f"{puzzle}.cu").write_text(text + suffix, encoding="utf-8")
    return counts


def grade(class_dir, out, *options):
    """Grades class_dir into out: (wall seconds, the cells of results.json)."""
    start = time.monotonic()
    status, stdout, stderr = checker_run("grade", class_dir, "--build-dir", build_dir(), "--backend=cpu",
                                         "--out", out, *options, timeout=7200)
    seconds = time.monotonic() - start
    if status != 0:
        sys.exit(f"grading failed:\n{stdout}\n{stderr}")
    cells = json.loads((out / "results.json").read_text(encoding="utf-8"))["cells"]
    return seconds, cells


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    return f"{os.cpu_count()} cores ({cpu}), Linux {platform.release()}"


def sandbox_cost(args):
    work = Path(tempfile.mkdtemp(prefix="measure-sandbox-"))
    # The bare cost of a sandboxed process: a command that does nothing, many times.
    sandbox = grading_sandbox.Bubblewrap(grading_sandbox.what_grading_reads(
        ROOT / "checker" / "grading", build_dir(), ROOT), [], 1)  # what grade shows
    sandbox.probe(work)
    bare, boxed = [], []
    with sandbox.slot() as slot:
        for _ in range(args.launches):
            bare.append(run_process(["true"], cwd=work, time_limit=30).seconds)
            command, env = slot.wrap(["true"], work, 30, {})
            boxed.append(run_process(command, cwd=work, time_limit=30, env=env).seconds)
    print(f"machine: {machine()}")
    print(f"one launch of `true`, median of {args.launches}: bare {statistics.median(bare) * 1000:.1f} ms, "
          f"in the sandbox {statistics.median(boxed) * 1000:.1f} ms")
    # Whole submissions: one job at a time, rounds alternating with and without the sandbox.
    make_class(work / "class", args.students, ["p01_naive"])
    per = {"sandbox": [], "no sandbox": []}
    for round_ in range(args.rounds):
        for label, options in (("sandbox", []), ("no sandbox", ["--no-sandbox"])):
            seconds, cells = grade(work / "class", work / f"out-{round_}-{len(options)}", "--jobs", "1", *options)
            per[label] += [c["build_seconds"] + c["run_seconds"] for c in cells]
    # Only the sandbox can show each scratch folder where the template was configured: without it,
    # each submission configures its own tree and compiles its checker main.
    steps = {"sandbox": "compile, link, run, in a copy of the template",
             "no sandbox": "configure, compile the checker main and the kernel, link, run"}
    for label, values in per.items():
        print(f"p01_naive per submission ({label}), median of {len(values)}: {statistics.median(values):.2f} s "
              f"({steps[label]})")
    print(f"in the sandbox a submission costs {statistics.median(per['sandbox']) - statistics.median(per['no sandbox']):+.2f} s "
          "(the sandbox's processes, less what the template saves)")
    subprocess.run(["rm", "-rf", str(work)])


def where(cells):
    """Where the time went: build and run, per puzzle, summed over the cells (CPU-side wall time
    of each step, so with --jobs N they add up to about N times the elapsed time)."""
    per = {}
    for cell in cells:
        build, run = cell.get("build_seconds") or 0.0, cell.get("run_seconds") or 0.0
        total = per.setdefault(cell["puzzle"], [0, 0.0, 0.0])
        total[0] += 1
        total[1] += build
        total[2] += run
    builds, runs = sum(t[1] for t in per.values()), sum(t[2] for t in per.values())
    print(f"where it goes: build {builds:.0f} s, run {runs:.0f} s (summed over the cells)")
    for puzzle, (n, build, run) in sorted(per.items()):
        print(f"  {puzzle:28s} {n:4d} cells  build {build / n:5.2f} s  run {run / n:5.2f} s per cell")


def puzzle_ids(text):
    from course import specs
    if text == "all":
        return [s["id"] for s in specs.load_all()]
    return [specs.find(p.strip())["id"] for p in text.split(",")]


def ninja_steps(build_tree, before=()):
    """{step: seconds} of one build tree, from ninja's own log (.ninja_log: start and end in ms),
    leaving out the lines in before (the template's, copied with the tree)."""
    kinds = (("checker_main.cpp.o", "checker main"), ("cpu_ptx.cpp.o", "compile"), ("cpu_ptx.cpp", "preprocess"),
             ("cmake_pch.hxx.pch", "precompiled shim"), ("anchor.cpp.o", "precompiled shim"),
             ("prelude_ptx.h", "shim rewrite"), ("prelude_macros_defined.h", "shim rewrite"),
             ("empty_main.cpp.o", "link template"), ("link_template", "link template"),
             (".a", "archive"), ("", "link"))
    steps, seen = {}, set()
    lines = (build_tree / ".ninja_log").read_text().splitlines()[1:]
    for line in lines:
        if line in before:
            continue
        start, end, _, output, _ = line.split("\t")
        if (start, end) in seen:  # one command with two outputs is logged twice
            continue
        seen.add((start, end))
        kind = next(k for suffix, k in kinds if output.endswith(suffix))
        steps[kind] = steps.get(kind, 0.0) + (int(end) - int(start)) / 1000
    return steps


def build_steps(args):
    """Where a submission's build goes: one class graded with --keep, each kept tree's ninja log."""
    work = Path(tempfile.mkdtemp(prefix="measure-steps-"))
    puzzles = puzzle_ids(args.puzzles)
    make_class(work / "class", args.students, puzzles)
    env_tmp = work / "grader-tmp"
    env_tmp.mkdir()
    os.environ["TMPDIR"] = str(env_tmp)  # so that the kept trees are found
    seconds, cells = grade(work / "class", work / "out", "--jobs", "1", "--keep")
    del os.environ["TMPDIR"]
    (kept,) = env_tmp.glob("puzzle-grading-*")
    per = {}
    for tree in sorted(kept.glob("*/*/build")):
        kind = "template" if tree.parent.parent.name == "templates" else "submission"
        if tree.parent.parent.name == "preflight":
            continue
        template = kept / "templates" / tree.parent.name / "build" / ".ninja_log"
        before = set(template.read_text().splitlines()) if kind == "submission" else set()
        for step, s in ninja_steps(tree, before).items():
            per.setdefault((kind, step), []).append(s)
    print(f"machine: {machine()}")
    print(f"{args.students} students x {len(puzzles)} puzzles, solutions and stubs, --jobs 1; ninja's own log of "
          "each build tree, median over the trees:")
    for (kind, step), values in sorted(per.items()):
        print(f"  {kind:10s} {step:16s} {statistics.median(values):5.2f} s  (of {len(values)})")
    build = [c["build_seconds"] for c in cells if c.get("build_seconds")]
    run = [c["run_seconds"] for c in cells if c.get("run_seconds")]
    print(f"per submission, median: build {statistics.median(build):.2f} s (copy of the template, its build "
          f"in the sandbox), run {statistics.median(run):.2f} s")
    subprocess.run(["rm", "-rf", str(work)])


def class_time(args):
    work = Path(tempfile.mkdtemp(prefix="measure-class-"))
    puzzles = puzzle_ids(args.puzzles)
    kinds = make_class(work / "class", args.students, puzzles, mix=args.mix)
    jobs = (["--jobs", str(args.jobs)] if args.jobs else []) + (["--timeout", str(args.timeout)] if args.timeout else [])
    print(f"machine: {machine()}")
    print(f"class: {args.students} students x {len(puzzles)} puzzles ({', '.join(puzzles)}), "
          f"--jobs {args.jobs or os.cpu_count()}", flush=True)
    print("submissions: " + ", ".join(f"{n} {kind}" for kind, n in kinds.items() if n), flush=True)
    shard_seconds, cells = [], []
    for k in range(1, args.shards + 1):
        s, shard_cells = grade(work / "class", work / f"shard{k}", *jobs, "--shard", f"{k}/{args.shards}")
        shard_seconds.append(s)
        cells += shard_cells
        print(f"shard {k}/{args.shards}: {len(shard_cells)} submissions in {s:.0f} s", flush=True)
    status, stdout, stderr = checker_run("grade", "--merge", *(work / f"shard{k}" for k in range(1, args.shards + 1)),
                                         "--out", work / "merged")
    if status != 0:
        sys.exit(f"merge failed:\n{stdout}\n{stderr}")
    count = len(cells)
    total = sum(shard_seconds)
    print(f"{args.shards} shards, one after another here: " + ", ".join(f"{s:.0f} s" for s in shard_seconds) +
          f" = {total:.0f} s ({total / 60:.1f} min) for {count} submissions, {total / count:.2f} s per submission "
          f"(a job array runs them at once: the longest, {max(shard_seconds):.0f} s)")
    merged = json.loads((work / "merged" / "results.json").read_text(encoding="utf-8"))["cells"]
    statuses = {}
    for cell in merged:
        statuses[cell["status"]] = statuses.get(cell["status"], 0) + 1
    print(f"merged: {len(merged)} cells (" + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) + ")")
    where(cells)
    if not args.compare:
        subprocess.run(["rm", "-rf", str(work)])
        return
    seconds, _ = grade(work / "class", work / "whole", *jobs)
    print(f"graded at once: {seconds:.0f} s, {seconds / count:.2f} s per submission")
    same_csv = (work / "merged" / "results.csv").read_bytes() == (work / "whole" / "results.csv").read_bytes()

    def table(folder):
        text = (work / folder / "results.md").read_text(encoding="utf-8")
        return [line for line in text.splitlines() if not line.startswith("- Graded: ")]
    if not same_csv:  # keep everything, and show where they differ
        import difflib
        sys.stdout.writelines(difflib.unified_diff(
            (work / "whole" / "results.csv").read_text().splitlines(True),
            (work / "merged" / "results.csv").read_text().splitlines(True), "whole", "merged"))
        print(f"kept in {work}")
    print(f"merged table identical to the whole class's: results.csv {'yes' if same_csv else 'NO'}, "
          f"results.md {'yes' if table('merged') == table('whole') else 'NO'} (apart from its Graded: line)")
    if same_csv:
        subprocess.run(["rm", "-rf", str(work)])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    st = sub.add_parser("steps")
    st.add_argument("--students", type=int, default=2)
    st.add_argument("--puzzles", default="all", help="a comma-separated list, or all")
    s = sub.add_parser("sandbox")
    s.add_argument("--rounds", type=int, default=3)
    s.add_argument("--students", type=int, default=6)
    s.add_argument("--launches", type=int, default=20)
    c = sub.add_parser("class")
    c.add_argument("--students", type=int, default=20)
    c.add_argument("--puzzles", default="p01,p02,p03,p04,p05", help="a comma-separated list, or all")
    c.add_argument("--mix", action="store_true",
                   help="solutions, stubs and broken kernels in a fixed random mix, each file distinct")
    c.add_argument("--shards", type=int, default=4)
    c.add_argument("--compare", action="store_true",
                   help="also grade the class at once, and compare its tables with the merged shards'")
    c.add_argument("--jobs", type=int, default=0)
    c.add_argument("--timeout", type=int, default=0,
                   help="the checkers' time limit per launch: give a generous one on a busy machine, where "
                        "a launch's wall-clock time depends on the load")
    args = parser.parse_args()
    {"sandbox": sandbox_cost, "steps": build_steps, "class": class_time}[args.what](args)


if __name__ == "__main__":
    main()

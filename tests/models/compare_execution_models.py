"""Runs checkers on both CPU execution models and compares what they print.

The CPU backend runs a kernel that the block-loop pass compiled as loops between barriers, and
any other on fibers (checker/engine/src/cpu/block_loops.h). Both must give a student the same
verdict, the same findings and the same buffers: this runs each checker once with
PUZZLES_CPU_EXECUTION_MODEL=fibers and once with =loops, and compares the exit status and the
whole output. A difference is a bug of the loop model.

  python3 compare_execution_models.py --bin-dir B --corpus tests/broken [--all-orders] [--jobs N] [NAME...]

NAME: checkers to run (file names in B); default every checker of B that has a loop invoker.
Prints one line per checker, then the totals; exits 1 on any difference, 2 on bad arguments.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import time

LOOP_SYMBOL = re.compile(rb"\.block_loop$", re.M)


def has_loop_invoker(binary):
    """Whether the block-loop pass gave one of the binary's kernels a loop invoker (its symbol)."""
    listed = subprocess.run(["nm", binary], capture_output=True)
    return listed.returncode == 0 and LOOP_SYMBOL.search(listed.stdout) is not None


def corpus_arguments(corpus, name):
    """The `// Checker:` options of a broken kernel (tests/broken/README.md), else none."""
    if not name.startswith("broken_"):
        return []
    path = os.path.join(corpus, name[len("broken_"):] + ".cu")
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("// Checker:"):
                    options = line[len("// Checker:"):].strip()
                    return [] if options == "(no options)" else options.split()
    except OSError:
        pass
    return []


def with_limit(arguments, patient):
    return arguments if any(a.startswith("--timeout") for a in arguments) else arguments + patient


# What a run sets in the checker's environment, by name: the two models, and (both on the default
# model) the inline checks the block-loop pass puts in kernels against the callbacks alone.
FIBERS = {"PUZZLES_CPU_EXECUTION_MODEL": "fibers"}
LOOPS = {"PUZZLES_CPU_EXECUTION_MODEL": "loops"}
CALLBACKS_ONLY = {"PUZZLES_CPU_INLINE_CHECKS": "off"}
INLINE_CHECKS = {"PUZZLES_CPU_INLINE_CHECKS": "on"}


def run(binary, arguments, settings, core):
    """On one core: the engine then runs one worker, whose blocks go in order, so that two runs
    print their findings in the same order (with several workers, blocks race to report)."""
    environment = dict(os.environ, **settings)
    done = subprocess.run([binary, "--backend=cpu", *arguments], capture_output=True, env=environment, timeout=900,
                          preexec_fn=lambda: os.sched_setaffinity(0, {core}))
    return done.returncode, done.stdout + done.stderr


def compare(binary, arguments, core, first=FIBERS, second=LOOPS):
    """(same?, the first run's (status, output), the second's, seconds of the first, of the second)."""
    start = time.monotonic()
    one = run(binary, arguments, first, core)
    middle = time.monotonic()
    two = run(binary, arguments, second, core)
    return one == two, one, two, middle - start, time.monotonic() - middle


def first_difference(a, b, names=("fibers", "loops")):
    lines_a, lines_b = a.decode(errors="replace").splitlines(), b.decode(errors="replace").splitlines()
    for number, (x, y) in enumerate(zip(lines_a, lines_b), 1):
        if x != y:
            return f"line {number}: {names[0]} {x!r}, {names[1]} {y!r}"
    return f"{names[0]} printed {len(lines_a)} lines, {names[1]} {len(lines_b)}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--all-orders", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    if not os.path.isdir(args.bin_dir):
        parser.error(f"--bin-dir {args.bin_dir}: no such folder")
    names = args.names or sorted(n for n in os.listdir(args.bin_dir)
                                 if has_loop_invoker(os.path.join(args.bin_dir, n)))
    if not names:
        print("no checker here has a kernel compiled as loops (is the block-loop pass built?)")
        return 1
    extra = ["--all-orders"] if args.all_orders else []
    # On one core a large case takes twice its usual time: a time limit reached in one model and
    # not the other, or at another thread, is the clock's doing. A checker whose options set a
    # limit (an endless loop's) keeps its own.
    patient = ["--timeout=600"]
    differences = 0
    cores = sorted(os.sched_getaffinity(0))
    with concurrent.futures.ThreadPoolExecutor(max(1, min(args.jobs, len(cores)))) as pool:
        jobs = {name: pool.submit(compare, os.path.join(args.bin_dir, name),
                                  with_limit(corpus_arguments(args.corpus, name), patient) + extra,
                                  cores[i % min(args.jobs, len(cores))])
                for i, name in enumerate(names)}
        for name, job in jobs.items():
            same, fibers, loops, fiber_seconds, loop_seconds = job.result()
            if same:
                print(f"same       {name} (exit {fibers[0]}; {fiber_seconds:.1f} s on fibers, {loop_seconds:.1f} s as loops)")
            else:
                differences += 1
                why = (f"exit {fibers[0]} on fibers, {loops[0]} as loops" if fibers[0] != loops[0]
                       else first_difference(fibers[1], loops[1]))
                print(f"DIFFERENT  {name}: {why}")
    print(f"{len(names)} checkers compared on both models: {differences} differ")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())

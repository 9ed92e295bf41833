#!/usr/bin/env python3
"""The clang matrix's results as data (clang_matrix_inside.sh calls it once per clang major).

  --major N --build-status S --version TEXT --seconds T --broken-dir DIR --log DIR
      reads DIR/broken.xml and DIR/solutions.xml (doctest's XML reports of the corpus test and
      the solutions' test) and prints the major's result as JSON; exits 1 when a broken kernel
      was not caught, a solution failed, or the build failed.
  --line RESULT.json      one line for people, from a result
  --release R --combine RESULT.json...   the matrix: every result in one JSON document
"""
import argparse
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def failing_captures(report: Path, variable: str):
    """The values of `variable` (a doctest CAPTURE) on every failed assertion of the report,
    or None when there is no readable report (the test binary crashed or never ran)."""
    try:
        tree = ET.parse(report)
    except (OSError, ET.ParseError):
        return None
    failing = set()
    for expression in tree.iter("Expression"):
        if expression.get("success") != "false":
            continue
        for info in expression.iter("Info"):
            text = (info.text or "").strip()
            if text.startswith(variable + " := "):
                failing.add(text[len(variable) + 4:].strip())
    cases = tree.find("OverallResultsTestCases")
    if cases is None or int(cases.get("successes", 0)) + int(cases.get("failures", 0)) == 0:
        return None  # the filter matched no test case: nothing was checked
    return failing


def result(args):
    log = Path(args.log)
    broken = sorted(p.stem for p in Path(args.broken_dir).glob("p*.cu"))
    specs = sorted(p.stem for p in (Path(args.broken_dir).parents[1] / "checker" / "specs").glob("p*.json"))
    out = {"major": args.major, "version": args.version, "installed": True,
           "built": args.build_status == 0, "seconds": args.seconds}
    missed = failing_captures(log / "broken.xml", "e.name") if out["built"] else None
    failed = failing_captures(log / "solutions.xml", "p.id") if out["built"] else None
    out["broken"] = {"total": len(broken), "caught": None if missed is None else len(broken) - len(missed),
                     "missed": None if missed is None else sorted(missed)}
    out["solutions"] = {"total": len(specs), "passed": None if failed is None else len(specs) - len(failed),
                        "failed": None if failed is None else sorted(failed)}
    # tests/models: 0 both models agree, the inline checks with the callbacks, a warp's lanes
    # keep in step at volatile accesses, what a thread computes the same after each barrier
    # is computed again, not kept in its frame, and the first puzzles' inner loops have their
    # reads checked ahead; 77 the build has
    # no block-loop pass, though llvm-N-dev was installed with clang-N (a failure: that clang's
    # kernels would all run on fibers, with every check a callback); else a difference.
    out["block_loops"] = {0: "same findings on both models and with the checks inline or called, "
                             "lanes in step at volatile accesses, thread-invariant values computed again after barriers, "
                             "inner loops' reads checked ahead",
                          77: "the pass was not built"}.get(
        args.models_status, "differ or failed (models.log)") if out["built"] else None
    print(json.dumps(out, indent=2))
    good = out["built"] and missed == set() and failed == set() and args.models_status == 0
    return 0 if good else 1


def line(path):
    r = json.loads(Path(path).read_text())
    if not r.get("installed"):
        return f"clang-{r['major']}: not installable"
    head = f"clang-{r['major']} ({r['version']})"
    if not r["built"]:
        return f"{head}: the build failed (build.log), {r['seconds']} s"
    b, s = r["broken"], r["solutions"]
    caught = "no report" if b["caught"] is None else f"{b['caught']} of {b['total']}"
    passed = "no report" if s["passed"] is None else f"{s['passed']} of {s['total']}"
    text = f"{head}: broken kernels caught {caught}, solutions passed {passed}"
    if r.get("block_loops"):
        text += f", block loops: {r['block_loops']}"
    text += f", {r['seconds']} s"
    if b["missed"]:
        text += "; missed: " + ", ".join(b["missed"])
    if s["failed"]:
        text += "; failed: " + ", ".join(s["failed"])
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--major", type=int)
    parser.add_argument("--build-status", type=int)
    parser.add_argument("--models-status", type=int, help="tests/models' exit status (77: no block-loop pass)")
    parser.add_argument("--version")
    parser.add_argument("--seconds", type=int)
    parser.add_argument("--broken-dir")
    parser.add_argument("--log")
    parser.add_argument("--line")
    parser.add_argument("--release")
    parser.add_argument("--combine", nargs="*")
    args = parser.parse_args()
    if args.line:
        print(line(args.line))
        return 0
    if args.combine is not None:
        results = [json.loads(Path(p).read_text()) for p in args.combine]
        print(json.dumps({"release": args.release, "majors": sorted(results, key=lambda r: r["major"])}, indent=2))
        return 0
    return result(args)


if __name__ == "__main__":
    sys.exit(main())

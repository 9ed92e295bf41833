#!/usr/bin/env python3
"""How many public CUDA programs run unchanged on the CPU backend: each program of a list is built
and run as its authors build it (checker/run for one file, make or CMake with checker/nvcc for a
project), and what happened is written as facts, one JSON object a program, and as a table.

    python3 tests/programs/measure_coverage.py LIST --out FOLDER [--jobs 2] [--limit 240]

LIST has a line a program, tab-separated (blank lines and # comments skipped):

    name  source  folder  how  [words...]

  how = file     words: the .cu file (in folder) and its options for checker/run (-I DIR ...)
        make     words: the make target, then the executable it builds and its arguments
                 (in a copy of the folder, or for a folder written TOP//SUB, of TOP, made in
                 its SUB, for a project whose files reach beside their folder, such as
                 ../common: make NVCC=checker/nvcc CUDA_HOME=<toolkit>
                 CUDA_PATH=<toolkit>, with <toolkit>/bin first in PATH, the toolkit being the
                 folder checker/nvcc --print-toolkit-root names: docs/programs.md's ways)
        cmake    words: the executable (in the build folder) and its arguments (configured with
                 cmake -C checker/nvcc.cmake -G Ninja, built outside the folder)
        nvcc     words: the program's arguments, then ::, then nvcc's as its instructions give
                 them (checker/nvcc ... -o <a scratch file>)

Folders are absolute or relative to LIST's folder. The program runs in its folder (where it looks
for its data). Its own result is its exit status: 0 PASS, 1 FAIL, 2 WAIVED (NVIDIA's samples'
EXIT_WAIVED), 125 stopped at a call the CPU backend does not model. Findings come from the
launches' facts (PUZZLES_PROGRAM_REPORT). The reasons for what did not run are the reader's to
write: this records the first compile error, the call not modelled, and the time.
PROGRAM_BUILD_DIR, when set, names the course build to compile against (built beforehand).
"""
import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "checker" / "run"
NVCC = ROOT / "checker" / "nvcc"
TOOLKIT = []  # checker/nvcc --print-toolkit-root, asked once
OWN = {0: "PASS", 1: "FAIL", 2: "WAIVED", 125: "stopped: not modelled"}
INTERNAL_KERNEL = re.compile(r"note: kernel (.+?) is static \(or in an unnamed namespace\)")
PRINTED_FAILURE = re.compile(r"^.*\b(FAILED|Test failed|TEST FAILED)\b", re.MULTILINE)


def read_list(path):
    programs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < 4:
            sys.exit(f"{path}:{number}: expected name, source, folder, how and words, tab-separated")
        name, source, folder, how, *words = fields
        words = shlex.split(" ".join(words))
        if how not in ("file", "make", "cmake", "nvcc"):
            sys.exit(f"{path}:{number}: how is file, make, cmake or nvcc, not '{how}'")
        if how == "nvcc" and "::" not in words:
            sys.exit(f"{path}:{number}: nvcc's words are the program's arguments, ::, then nvcc's")
        top, _, sub = folder.partition("//")
        if sub and how != "make":
            sys.exit(f"{path}:{number}: only make's folders may be written TOP//SUB")
        programs.append({"name": name, "source": source, "folder": str((path.parent / top / sub).resolve()),
                         "copy": str((path.parent / top).resolve()), "sub": sub, "how": how, "words": words})
    return programs


def first_error(text):
    for line in text.splitlines():
        if ": error: " in line or ": fatal error: " in line or line.startswith("checker/nvcc: "):
            return line.strip()[:300]
    return None


def launches_of(report):
    facts = {"launches": 0, "findings": 0, "not_modelled": None}
    try:
        lines = report.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return facts
    for line in lines:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == "launch":
            facts["launches"] += 1
            facts["findings"] += sum(event.get("finding_totals", {}).values()) + (1 if event.get("refused") else 0)
        elif event.get("event") == "not_modelled":
            facts["not_modelled"] = event.get("call")
    return facts


def timed(command, cwd, limit, env):
    """(status or None at the time limit, output, seconds); the whole process group is stopped
    at the limit (checker/run's program is its grandchild)."""
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, errors="replace", start_new_session=True)
    try:
        out, _ = process.communicate(timeout=limit)
        return process.returncode, out, time.monotonic() - start
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, _ = process.communicate()
        return None, out or "", time.monotonic() - start


def measure(program, limit, logs):
    env = dict(os.environ, NO_COLOR="1")
    folder = Path(program["folder"])
    result = {"name": program["name"], "source": program["source"], "how": program["how"], "builds": False,
              "runs": False, "status": None, "result": None, "launches": 0, "findings": 0,
              "not_modelled": None, "compile_error": None, "seconds": None}
    start = time.monotonic()
    log = []
    with tempfile.TemporaryDirectory(prefix="coverage-") as scratch:
        report = Path(scratch) / "launches.jsonl"
        if program["how"] == "file":
            doc_file = Path(scratch) / "doc.json"
            status, out, _ = timed([str(RUN), *program["words"], f"--json={doc_file}"], folder, limit, env)
            log.append(out)
            try:
                doc = json.loads(doc_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                doc = None
            if doc and doc.get("error"):
                result["compile_error"] = first_error(out) or doc["error"].get("message", "")[:300]
            elif doc:
                result["builds"] = result["runs"] = True
                result["status"] = doc.get("exit_status")
                result["launches"] = len(doc.get("launches", []))
                result["findings"] = sum(sum(l.get("finding_totals", {}).values()) + (1 if l.get("refused") else 0)
                                         for l in doc.get("launches", []))
                result["not_modelled"] = doc.get("not_modelled")
            elif status is None:
                # Stopped while it ran (no compile takes the limit): it built.
                result["builds"] = result["runs"] = first_error(out) is None
                result["result"] = "time limit" if result["builds"] else "did not build"
        else:
            if program["how"] == "nvcc":
                split = program["words"].index("::")
                args, nvcc_words = program["words"][:split], program["words"][split + 1:]
                work, build_dir, exe = folder, Path(scratch), "program"
                build = [str(NVCC), *nvcc_words, "-o", str(build_dir / exe)]
            elif program["how"] == "make":
                # make writes beside the sources: a copy of the folder (or of the tree above it).
                shutil.copytree(program["copy"], Path(scratch) / "project", symlinks=True)
                work = Path(scratch) / "project" / program["sub"]
                target, exe, *args = program["words"]
                toolkit = TOOLKIT[0]
                env["PATH"] = f"{toolkit}/bin:{env.get('PATH', '')}"
                build = ["make", f"NVCC={NVCC}", f"CUDA_HOME={toolkit}", f"CUDA_PATH={toolkit}", target]
                build_dir = work
            else:
                # CMake builds out of the tree: the project's own folder (its relative paths hold).
                work = folder
                exe, *args = program["words"]
                build_dir = Path(scratch) / "build"
                status, out, _ = timed(["cmake", "-C", str(ROOT / "checker" / "nvcc.cmake"), "-S", str(folder), "-B",
                                        str(build_dir), "-G", "Ninja"], folder, limit, env)
                log.append(out)
                build = ["cmake", "--build", str(build_dir)] if status == 0 else None
            if build:
                status, out, _ = timed(build, work, limit, env)
                log.append(out)
                if status == 0:
                    result["builds"] = True
                    left = max(1, limit - (time.monotonic() - start))
                    run_env = dict(env, PUZZLES_PROGRAM_REPORT=str(report))
                    status, out, _ = timed([str(build_dir / exe), *args], work, left, run_env)
                    log.append(out)
                    result["runs"] = True
                    result["status"] = status
                    result.update(launches_of(report))
                else:
                    result["compile_error"] = first_error(out) or "the build failed"
            else:
                result["compile_error"] = first_error("\n".join(log)) or "the configure failed"
    result["seconds"] = round(time.monotonic() - start, 1)
    text = "\n".join(log)
    # Kernels of internal linkage in a file compiled with nvcc's device pass (checker/nvcc's note):
    # they run as the host pass compiled them, without the code kept for the device pass.
    result["internal_kernels"] = sorted(set(INTERNAL_KERNEL.findall(text)))
    # Some programs print their verdict and exit 0 whatever it is (NVIDIA's samples print FAILED).
    printed_failure = result["status"] == 0 and PRINTED_FAILURE.search(text) is not None
    if printed_failure:
        result["result"] = "FAIL (printed; exit 0)"
    if result["result"] is None:
        if not result["builds"]:
            result["result"] = "did not build"
        elif result["status"] is None:
            result["result"] = "time limit"
        elif result["status"] < 0:
            result["result"] = f"signal {-result['status']}"
        else:
            result["result"] = OWN.get(result["status"], f"exit {result['status']}")
    (logs / (f"{program['source']}-{program['name']}".replace("/", "_") + ".log")).write_text("\n".join(log), encoding="utf-8")
    return result


def table(results):
    # Whole seconds: the site takes a decimal in a table for a speed figure typed by hand, and
    # results.json keeps the tenths.
    lines = ["| program | source | how | builds | runs | its own result | launches | findings | seconds (whole) | "
             "first compile error or call not modelled |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        why = r["compile_error"] or r["not_modelled"] or ""
        if r.get("internal_kernels"):
            why = (why + "; " if why else "") + "static kernels run as the host pass compiled them: " + \
                ", ".join(r["internal_kernels"])
        lines.append(f"| {r['name']} | {r['source']} | {r['how']} | {'yes' if r['builds'] else 'no'} | "
                     f"{'yes' if r['runs'] else 'no'} | {r['result']} | {r['launches']} | {r['findings']} | "
                     f"{round(r['seconds'])} | {why.replace('|', '/')} |")
    counts = {}
    for r in results:
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    lines += ["", "| its own result | programs |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("list", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=240, help="seconds for a program's build and run")
    a = parser.parse_args()
    programs = read_list(a.list)
    # Every checkout first: a missing one would stop the run after minutes of others' builds.
    missing = sorted({p["copy"] for p in programs if not Path(p["copy"]).is_dir()})
    if missing:
        sys.exit(f"{a.list}: no checkout at " + ", ".join(missing) +
                 " (each program's folder is relative to the list's own folder)")
    said = subprocess.run([str(NVCC), "--print-toolkit-root"], capture_output=True, text=True)
    if said.returncode != 0:
        sys.exit(f"checker/nvcc --print-toolkit-root failed:\n{said.stderr}")
    TOOLKIT.append(said.stdout.strip())
    logs = a.out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda p: measure(p, a.limit, logs), programs))
    (a.out / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    (a.out / "table.md").write_text(table(results), encoding="utf-8")
    print(table(results))


if __name__ == "__main__":
    main()

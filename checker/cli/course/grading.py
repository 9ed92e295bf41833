"""Grading a class: each submitted kernel built into its puzzle's checker and run, in isolation.

The engine and the checker library are built once, in the instructor's build tree, which
exports them (checker/cmake/GradingExport.cmake). checker/grading/CMakeLists.txt compiles one
kernel file and links it against them. It is configured once per puzzle, as a template tree
with the checker main compiled; each submission builds in a fresh copy of that tree, so that it
costs the compile of its kernel and a link (docs/dev/grading.md).
"""
import concurrent.futures
import contextlib
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from course import grading_cpus, paths
from course.grading_processes import OUTPUT_LIMIT, stop_all
from course.grading_processes import run as run_process
from course.grading_report import (COMPILE_ERROR, ERROR, FAIL, PASS, TIME_LIMIT, Cell, backend_line, checker_verdict,
                                   compile_error_words)
from course.grading_submissions import Refused
from course.report import read as read_report

GRADING_PROJECT = paths.ROOT / "checker" / "grading"


class GradingError(Exception):
    """Grading cannot start: the message says why and what to do."""


def _tail(text, lines=40):
    return "\n".join(text.rstrip().splitlines()[-lines:])


def shown(path):
    """A path as the instructor should read it: relative to the course when it is inside."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(paths.ROOT))
    except ValueError:
        return str(path)


# --- The instructor's build ------------------------------------------------------------------

def read_settings(build_dir):
    """The set() lines of <build>/grading/settings.cmake, as a dict of strings."""
    text = (Path(build_dir) / "grading" / "settings.cmake").read_text(encoding="utf-8")
    return {m.group(1): m.group(2) for m in re.finditer(r"^set\((\w+) \[==\[(.*?)\]==\]\)$", text, re.M | re.S)}


def prepare_build(build_dir, preset, jobs, say):
    """Configures the instructor's build if it is the preset's and new, and brings its engine and
    checker library up to date. Returns its settings."""
    for tool in ("cmake",):
        if not shutil.which(tool):
            raise GradingError(f"{tool} is not installed. Run checker/run test once (it installs what is "
                               "missing), or: sudo apt-get install -y cmake ninja-build clang")
    build_dir = Path(build_dir)
    if not (build_dir / "CMakeCache.txt").exists():
        if build_dir.resolve() != paths.build_dir(preset).resolve():
            raise GradingError(f"{shown(build_dir)} is not a configured build of the course. Configure it "
                               f"first (cmake --preset default -B {shown(build_dir)}), or leave out --build-dir.")
        say(f"Configuring {shown(build_dir)} (once)...")
        build_dir.parent.mkdir(parents=True, exist_ok=True)
        done = run_process(["cmake", "--preset", preset], cwd=paths.ROOT, time_limit=1800)
        if done.status != 0:
            raise GradingError(f"configuring {shown(build_dir)} failed:\n{_tail(done.output)}")
    say(f"Bringing the engine and the checker library in {shown(build_dir)} up to date...")
    done = run_process(["cmake", "--build", str(build_dir), "--target", "engine", "checker_lib", "ptx_rewrite", "-j", str(jobs)],
                       cwd=paths.ROOT, time_limit=3600)
    if done.status != 0:
        raise GradingError(f"building the checker libraries in {shown(build_dir)} failed:\n{_tail(done.output)}")
    if not (build_dir / "grading" / "settings.cmake").exists():
        raise GradingError(f"{shown(build_dir)} exports nothing for grading: reconfigure it "
                           f"(cmake {shown(build_dir)}) with this course's CMakeLists.txt.")
    settings = read_settings(build_dir)
    generator = settings.get("PUZZLES_GENERATOR", "")
    if generator == "Ninja" and not shutil.which("ninja"):
        raise GradingError("ninja is not installed: sudo apt-get install -y ninja-build")
    return settings


# --- One submission ---------------------------------------------------------------------------

@dataclass
class Limits:
    build_seconds: float
    run_seconds: float


def _run(slot, command, cell_dir, limit, env=None, at=None):
    """One build step or checker run, in the sandbox of slot, with a time limit; the sandbox shows
    cell_dir at `at` where given."""
    wrapped, full_env = slot.wrap(command, cell_dir, limit, dict(env or {}), at=at)
    done = run_process(wrapped, cwd=cell_dir, time_limit=limit, env=full_env)
    done.status = slot.exit_status(done.status)
    return done


def _configure_command(build_dir, settings, puzzle, at, gpu, template):
    """cmake's command line that configures the grading project for <at>/<puzzle>.cu in <at>/build.
    A template compiles the kernel shim once into a precompiled header for all the puzzle's
    submissions (KernelTargets.cmake); a tree of one submission's own would compile it for one
    kernel file, which costs more than it saves."""
    command = ["cmake", "-S", str(GRADING_PROJECT), "-B", str(at / "build"),
               f"-DPUZZLES_BUILD_DIR={Path(build_dir).resolve()}", f"-DPUZZLE={puzzle}",
               f"-DSUBMISSION={at / (puzzle + '.cu')}", f"-DGRADING_GPU={'ON' if gpu else 'OFF'}",
               f"-DPUZZLES_PRECOMPILED_PRELUDE={'ON' if template else 'OFF'}"]
    if settings.get("PUZZLES_GENERATOR"):
        command += ["-G", settings["PUZZLES_GENERATOR"]]
    return command


class Templates:
    """One configured grading tree per puzzle (and per GPU-or-not), its checker main compiled,
    made the first time a submission of that puzzle is built; each submission then builds in a
    copy of it.

    A template is made in the sandbox at the path where every submission's scratch folder lies
    (grading_sandbox.SCRATCH_AT), from no student's file, and then belongs to the grader: no
    sandbox ever sees it (the work folder is hidden there), and a submission's copy is its own.
    Without the sandbox (--no-sandbox) each scratch folder keeps its own path, so each
    submission configures a tree of its own, as it did before templates."""

    def __init__(self, build_dir, settings, folder):
        self.build_dir, self.settings, self.folder = build_dir, settings, folder
        self._lock = threading.Lock()
        self._made = {}  # (puzzle, gpu) -> (the template's folder or None, the log of its making)
        self._making = {}  # (puzzle, gpu) -> a lock held while it is made

    def get(self, puzzle, gpu, slot, limit):
        """(the template's folder, its log), or (None, the log of a making that failed)."""
        with self._lock:
            making = self._making.setdefault((puzzle, gpu), threading.Lock())
        with making:
            if (puzzle, gpu) not in self._made:
                self._made[puzzle, gpu] = self._make(puzzle, gpu, slot, limit)
            return self._made[puzzle, gpu]

    def _make(self, puzzle, gpu, slot, limit):
        folder = self.folder / (puzzle + ("-gpu" if gpu else ""))
        folder.mkdir(parents=True)
        slot.prepare(folder)
        at = slot.scratch_at
        log, spent = [], 0.0
        for step, command in (("configure", _configure_command(self.build_dir, self.settings, puzzle, at, gpu, True)),
                              ("checker main", ["cmake", "--build", str(at / "build"), "--target", "template",
                                                "-j", "1"])):
            done = _run(slot, command, folder, max(1.0, limit - spent), at=at)
            spent += done.seconds
            log.append((f"template {step}: {' '.join(command[:2])} ... ({done.seconds:.1f} s, exit {done.status})",
                        done.output.replace(str(at) + "/", "")))
            if done.status != 0:
                return None, log
        slot.reclaim(folder)
        return folder, log


def build_command(settings, tree):
    """The command that brings a submission's tree up to date: ninja itself where the instructor's
    build is ninja's (what cmake --build would run, one process fewer for every submission), else
    cmake --build."""
    ninja = shutil.which("ninja")
    if settings.get("PUZZLES_GENERATOR", "") == "Ninja" and ninja:
        return [ninja, "-C", str(tree), "-j", "1"]
    return ["cmake", "--build", str(tree), "-j", "1"]


def build_checker(build_dir, settings, cell_dir, puzzle, gpu, limit, slot, templates=None):
    """Builds cell_dir/<puzzle>.cu into cell_dir/build/<puzzle>: in a copy of the puzzle's
    template tree where the sandbox shows every scratch folder at one path, else configuring a
    tree of its own first.

    Returns (the checker, or None when there is none, and a Cell: why there is none, or the
    compiler's warnings to keep)."""
    at = slot.scratch_at if templates else None
    inside = at or cell_dir  # the scratch folder as the commands see it
    source = cell_dir / f"{puzzle}.cu"
    steps = [("build", build_command(settings, inside / "build"))]
    if at:
        template, made = templates.get(puzzle, gpu, slot, limit)
        if template is None:
            return None, Cell(ERROR, "the grading build could not be configured", made)
        # A copy, not links: the copy is the submission's to change (prepare() gives it to its uid).
        shutil.copytree(template / "build", cell_dir / "build", symlinks=True)
        slot.prepare(cell_dir)
    else:
        steps.insert(0, ("configure", _configure_command(build_dir, settings, puzzle, cell_dir, gpu, False)))
    readable = str(inside) + "/"  # the scratch folder means nothing to the reader of the details
    spent = 0.0
    for step, command in steps:
        done = _run(slot, command, cell_dir, max(1.0, limit - spent), at=at)
        spent += done.seconds
        log = [(f"{step}: {Path(command[0]).name} {command[1]} ... ({done.seconds:.1f} s, exit {done.status})",
                done.output.replace(readable, ""))]
        if done.over_output:
            return None, Cell(COMPILE_ERROR, f"the {step} printed more than {OUTPUT_LIMIT // 1024 ** 2} MiB", log, spent)
        if done.timed_out:
            return None, Cell(TIME_LIMIT, f"the build ran past {limit:g} s", log, spent)
        if done.status != 0:
            if step == "configure":  # the student's file is not read here: the setup is at fault
                return None, Cell(ERROR, "the grading build could not be configured", log, spent)
            return None, Cell(COMPILE_ERROR, compile_error_words(done.output, source.name), log, spent)
    # A build that worked shows only what the compiler had to say about the student's file.
    warnings = log if "warning:" in done.output else []
    return inside / "build" / puzzle, Cell(PASS, log=[("compiler warnings", t) for _, t in warnings], build_seconds=spent)


def check_runs(base, seeds, sizes):
    """The checker's command lines for one puzzle: its own cases, then each extra seed and size."""
    runs = [("the checker's own cases", base)]
    for seed in seeds:
        runs.append((f"--seed={seed}", base + [f"--seed={seed}"]))
    for size in sizes:
        extra = [f"--seed={seeds[0]}"] if seeds else []
        runs.append((f"--size={size}", base + [f"--size={size}"] + extra))
    return runs


REPORT_NAME = "checker-report.json"  # each run's --json document, in the cell's scratch folder


def run_checker(binary, cell_dir, runs, limit, cell, slot, gpu_lock=None, at=None):
    """Runs each command line until one does not pass; fills in cell's status and log. at: where
    the sandbox shows cell_dir, as for the build."""
    # GitHub's workflow commands are for a student's own repository: grading in a CI job keeps
    # the checker's log (the cell's details) free of them.
    env = {"NO_COLOR": "1", "GITHUB_ACTIONS": "false"}
    for i, (label, args) in enumerate(runs):
        (cell_dir / REPORT_NAME).unlink(missing_ok=True)
        with gpu_lock or contextlib.nullcontext():
            done = _run(slot, [str(binary)] + args + [f"--json={REPORT_NAME}"], cell_dir, limit, env, at)
        cell.run_seconds += done.seconds
        shown_command = " ".join([binary.name] + args)
        cell.log.append((f"{shown_command} ({done.seconds:.1f} s, exit {done.status})", done.output))
        context = "" if i == 0 else f" with {label}"
        if done.over_output:
            cell.status, cell.words = FAIL, f"printed more than {OUTPUT_LIMIT // 1024 ** 2} MiB{context}"
            return cell
        if done.timed_out:
            cell.status, cell.words = TIME_LIMIT, f"the checker ran past {limit:g} s{context}"
            return cell
        status, words = checker_verdict(done.status, read_report(cell_dir / REPORT_NAME))
        if status == PASS:
            continue
        cell.status, cell.words = status, words + (context if status == FAIL else "")
        return cell
    cell.status, cell.words = PASS, ""
    return cell


# --- Sizes the instructor asks for ------------------------------------------------------------

def parse_size(text):
    """'33' -> (33,), '64x32x16' -> (64, 32, 16); None when it is neither."""
    m = re.fullmatch(r"\s*(\d+)\s*", text) or re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m:
        return None
    numbers = tuple(int(g) for g in m.groups())
    return numbers if all(n >= 1 for n in numbers) else None


def is_square(spec):
    return len(re.findall(r"\bint\s+\w+", spec["signature"])) == 1


def sizes_for(spec, sizes):
    """The --size values a puzzle can take, and a note for each it cannot."""
    take, notes = [], []
    for numbers in sizes:
        words = "x".join(map(str, numbers))
        if is_square(spec):
            if len(set(numbers)) != 1:
                notes.append(f"--size={words} not run: {spec['id']} multiplies square matrices")
                continue
            biggest = spec.get("cases", {}).get("max")
            if biggest and numbers[0] > biggest:
                notes.append(f"--size={words} not run: {spec['id']} allows at most {biggest}")
                continue
            take.append(str(numbers[0]))
        else:
            take.append(words)
    return take, notes


# --- The whole class --------------------------------------------------------------------------

def resolve_backend(build_dir, settings, work, puzzle, choice, limits, sandbox, templates):
    """Builds the course's own stub of one puzzle and runs its checker: this proves the grading
    build works before any student's file is built, and finds out whether a GPU can be used.

    Returns (the checker's --backend, whether to compile kernels with nvcc too, the checker's
    own words for the backend)."""
    stub = paths.PUZZLES / f"{puzzle}.cu"
    if not stub.exists():
        raise GradingError(f"puzzles/{puzzle}.cu is missing: the course's stub is needed to check the grading build")
    has_cuda = settings.get("PUZZLES_EXPORTED_HAVE_CUDA") == "ON"
    if choice == "gpu" and not has_cuda:
        raise GradingError(f"--backend=gpu: {shown(build_dir)} has no GPU backend "
                           "(no CUDA toolkit was found when it was configured)")
    gpu = choice != "cpu" and has_cuda
    cell_dir = work / "preflight" / puzzle
    cell_dir.mkdir(parents=True)
    shutil.copyfile(stub, cell_dir / f"{puzzle}.cu")
    with sandbox.slot() as slot:
        slot.prepare(cell_dir)
        return _preflight(build_dir, settings, cell_dir, puzzle, choice, limits, slot, has_cuda, gpu, templates)


def _preflight(build_dir, settings, cell_dir, puzzle, choice, limits, slot, has_cuda, gpu, templates):
    # The same way as a submission's build: it proves the template works too.
    binary, built = build_checker(build_dir, settings, cell_dir, puzzle, gpu, limits.build_seconds, slot, templates)
    at = slot.scratch_at
    if binary is None:
        text = "\n".join(t for _, t in built.log)
        raise GradingError(f"the grading build fails on the course's own puzzles/{puzzle}.cu:\n{_tail(text)}")

    def quick(backend):
        """The checker's run and its report (course/report.py), or None where it wrote none."""
        (cell_dir / REPORT_NAME).unlink(missing_ok=True)
        done = _run(slot, [str(binary), f"--backend={backend}", "--quick", f"--json={REPORT_NAME}"], cell_dir,
                    limits.run_seconds, {"NO_COLOR": "1"}, at)
        return done, read_report(cell_dir / REPORT_NAME)

    backend, why_not_gpu = choice, ""
    if choice == "auto":
        backend = "cpu"
        if not has_cuda:
            why_not_gpu = "this build has no GPU backend"
        else:
            probe, said = quick("gpu")
            if probe.status == 2:  # no usable GPU: nvcc would be wasted on every submission
                gpu = False
                why_not_gpu = checker_verdict(2, said)[1] if said else "no usable GPU"
            else:
                backend = "auto"
    done, said = quick(backend)
    if done.status == 2 or done.timed_out:
        raise GradingError(f"the checker cannot run with --backend={backend}:\n{_tail(done.output, 8)}")
    line = backend_line(said)
    if not line:
        raise GradingError(f"the checker did not say which backend it runs on:\n{_tail(done.output, 8)}")
    words = line + (f" (auto: {why_not_gpu})" if why_not_gpu else "")
    return backend, gpu, words


def grade_cells(tasks, jobs, on_done):
    """Runs tasks (callables returning a Cell) on `jobs` threads; on_done(key, cell) as each ends."""
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(task): key for key, task in tasks}
        try:
            for future in concurrent.futures.as_completed(futures):
                key = futures[future]
                try:
                    cell = future.result()
                except Exception as error:  # a bug here must cost one cell, not the class
                    cell = Cell(ERROR, f"grading failed: {error}")
                results[key] = cell
                on_done(key, cell)
        except BaseException:  # Ctrl-C: end the children now, not after the running tasks
            stop_all()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return results


def grade_one(build_dir, settings, cell_dir, puzzle, data, gpu, runs, notes, limits, gpu_lock, sandbox, templates,
              keep=False, cores=None):
    """One submission: its file copied into a scratch folder of its own, built (in a copy of the
    puzzle's template tree) and checked in the sandbox. data is the file's bytes, or a Refused
    (a link, a device: never copied). The scratch folder goes once the cell is graded (a copy of
    the build tree is a few megabytes: a class would fill the disk), unless keep. cores: the
    jobs' shares of the machine's cores (grading_cpus.CoreShares), or None."""
    if isinstance(data, Refused):
        return Cell(FAIL, f"not graded: {data.what}", [("refused", f"{data.path}: {data.what}, not a regular file")])
    cell_dir.mkdir(parents=True)
    try:
        (cell_dir / f"{puzzle}.cu").write_bytes(data)
        cores = cores or grading_cpus.CoreShares(1)  # one job: no pinning
        with sandbox.slot() as slot, cores.take() as group:
            slot = cores.pinned(slot, group)
            slot.prepare(cell_dir)
            binary, cell = build_checker(build_dir, settings, cell_dir, puzzle, gpu, limits.build_seconds, slot,
                                         templates)
            for note in notes:
                cell.log.insert(0, ("note", note))
            if binary is None:
                return cell
            return run_checker(binary, cell_dir, runs, limits.run_seconds, cell, slot, gpu_lock, slot.scratch_at)
    finally:
        if not keep:
            shutil.rmtree(cell_dir, ignore_errors=True)


def safe_name(name):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "student"


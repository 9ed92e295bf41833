"""checker/run <program.cu>: a whole CUDA program (a .cu file with main) built and run.

CPU backend: the file is compiled as a kernel file is (checker/program/CMakeLists.txt, against
this build's engine, as grading does), and each launch from its host code is checked; the
program's report (checker/lib/src/program_report.cpp) says what each launch found on stderr
and writes the facts, a JSON object a line, to a file this module reads. GPU backend: nvcc
builds the file for the GPU of this machine and it runs natively. docs/programs.md is the
student's page, docs/dev/program-json.md the --json document.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from course import build, compiler, depfile, device_pass, paths
from course.style import Style

SCHEMA = 1
USAGE = ("checker/run <program.cu> [-I DIR]... [--backend=cpu|gpu] [--json[=FILE]] [-- program arguments]")
NOT_MODELLED_STATUS = 125  # cuda_cpu::not_modelled()


class Stop(Exception):
    """The program cannot be built or run: status (1 compile error, 2 usage or environment) and words."""

    def __init__(self, status, message, code):
        super().__init__(message)
        self.status = status
        self.code = code


class Options:
    def __init__(self):
        self.source = None
        self.includes = []
        self.backend = "cpu"
        self.json = None  # None: no document; "": on stdout; else a file
        self.args = []


def parse(argv):
    o = Options()
    words = list(argv)
    while words:
        w = words.pop(0)
        if w == "--":
            o.args = words
            break
        if w in ("-I", "--include"):
            if not words:
                raise Stop(2, f"{w} needs a folder: {USAGE}", "usage")
            o.includes.append(words.pop(0))
        elif w.startswith("-I") and len(w) > 2:
            o.includes.append(w[2:])
        elif w.startswith("--backend="):
            o.backend = w.split("=", 1)[1]
            if o.backend not in ("cpu", "gpu"):
                raise Stop(2, f"--backend is cpu or gpu for a program, not '{o.backend}'", "usage")
        elif w == "--json":
            o.json = ""
        elif w.startswith("--json="):
            o.json = w.split("=", 1)[1]
        elif w.startswith("-"):
            raise Stop(2, f"unknown option {w}. Usage: {USAGE}", "usage")
        elif o.source is None:
            o.source = w
        else:
            raise Stop(2, f"one program at a time ('{o.source}', then '{w}'); its own arguments go after --",
                       "usage")
    if o.source is None:
        raise Stop(2, f"which program? Usage: {USAGE}", "usage")
    cwd = Path(os.environ.get("CHECKER_RUN_CWD", os.getcwd()))
    source = (cwd / o.source).resolve()
    if not source.is_file():
        raise Stop(2, f"{o.source}: no such file", "missing_file")
    o.source = source
    resolved = []
    for d in o.includes:
        folder = (cwd / d).resolve()
        if not folder.is_dir():
            raise Stop(2, f"-I {d}: no such folder", "missing_file")
        resolved.append(folder)
    o.includes = resolved
    return o


def _name(o):
    """The program's build folder: its file's name, and a digest of the file's path and -I folders,
    so that two programs of one name, or one built with other folders, do not share a build."""
    key = "\0".join([str(o.source), *map(str, o.includes)]).encode()
    return re.sub(r"[^A-Za-z0-9_.-]", "_", o.source.stem) + "-" + hashlib.sha1(key).hexdigest()[:8]


def _run(command, cwd=None):
    done = subprocess.run(command, cwd=cwd or paths.ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          stdin=subprocess.DEVNULL, text=True, errors="replace")
    return done.returncode, done.stdout


def _compile_error(log, source, err):
    report = compiler.reduce(log, str(source))
    style = Style.for_stream(err)
    lines = compiler.format_report(report, style) if report.in_student_file else report.other_lines
    return "\n".join(lines).rstrip()


def course_build(err, announce=True):
    """The course build that programs are compiled and linked against (PROGRAM_BUILD_DIR, a
    build that is up to date, such as the tests' own; else the preset's, configured and its
    engine, checker library and ptx_rewrite built, under the build lock): its folder. The
    preset's line is said when `announce`, or when the build is configured for the first time."""
    given = os.environ.get("PROGRAM_BUILD_DIR")
    if given:
        tree = Path(given).resolve()  # a relative one from the course's folder, where checker/run works
        if not (tree / "CMakeCache.txt").exists():
            raise Stop(2, f"PROGRAM_BUILD_DIR={given} is not a configured build of the course ({tree})", "environment")
        return tree
    chosen = build.choose_preset("cpu")
    preset = chosen.name
    # A build's own nvcc (its program-export/cuda-toolkit/bin/nvcc, which CMake projects find)
    # names that build: its preset, when it is one of the course's.
    named = os.environ.get("PUZZLES_NVCC_BUILD")
    if named and Path(named).resolve().parent == paths.BUILD.resolve():
        chosen = build.Preset(Path(named).name, "the build whose nvcc this is")
        preset = chosen.name
    if announce or not (paths.build_dir(preset) / "CMakeCache.txt").exists():
        print(Style.for_stream(err).dim(chosen.line()), file=err, flush=True)
    if not build.configure(preset, out=err):
        raise Stop(2, f"configuring build/{preset} failed", "environment")
    for target in ("engine", "checker_lib", "ptx_rewrite"):  # under the build lock, logged
        status, log = build.build(preset, target)
        refusal = build.canary_refusal(preset) if status != 0 else None
        if refusal:
            raise Stop(2, refusal.rstrip(), "environment")
        if status != 0:
            raise Stop(2, f"building {target} in build/{preset} failed (log: {paths.relative(log)})",
                       "environment")
    return paths.build_dir(preset)


def _cached(tree, name):
    """A variable's value in a configured build's CMakeCache.txt, or None."""
    try:
        for line in (tree / "CMakeCache.txt").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def _generator(tree):
    return _cached(tree, "CMAKE_GENERATOR")


def build_cpu(o, err):
    """The program built for the CPU backend; returns its path."""
    tree = course_build(err)
    # Its folder's name holds a digest of the file's path and -I folders: configured once, and
    # again where nvcc's device pass comes or goes (the program's own files test __CUDA_ARCH__:
    # compiled for the modelled GPU, as the course's kernels are). Foreseen from the files it
    # includes by name and those its last build read; the compiler's list of what this build
    # read settles it.
    program_tree = tree / "programs" / _name(o)
    own = device_pass.quoted_includes(o.source, o.includes) + _own_files_read(program_tree)
    device_arch = str(device_pass.MODELLED * 10) if device_pass.tests_in(own) else ""
    _build_program(o, tree, program_tree, device_arch, err)
    if not device_arch and device_pass.tests_in(_own_files_read(program_tree)):
        device_arch = str(device_pass.MODELLED * 10)
        _build_program(o, tree, program_tree, device_arch, err)
    if device_arch:
        facts = program_tree / "generated" / "device_pass.facts"
        for name in device_pass.internal_kernels(facts.read_text(encoding="utf-8") if facts.exists() else ""):
            print(Style.for_stream(err).dim(device_pass.internal_kernel_note(name)), file=err)
    return program_tree / "program"


def _own_files_read(program_tree):
    """The program's own files (not the system's or the course's) that its host pass read."""
    try:
        read = depfile.names(program_tree / "generated" / "program.ii.d")
    except OSError:
        return []
    return [n for n in read if not n.startswith(("/usr/", str(paths.ROOT))) and not n.endswith("program.cpp")]


def _build_program(o, tree, program_tree, device_arch, err):
    configured = (program_tree / "CMakeCache.txt").exists()
    if not configured or (_cached(program_tree, "PROGRAM_DEVICE_ARCH") or "") != device_arch:
        configure = ["cmake", "-S", str(paths.ROOT / "checker" / "program"), "-B", str(program_tree),
                     f"-DPUZZLES_BUILD_DIR={tree.resolve()}", f"-DPROGRAM={o.source}",
                     "-DPROGRAM_INCLUDES=" + ";".join(str(d) for d in o.includes),
                     f"-DPROGRAM_DEVICE_ARCH={device_arch}"]
        generator = _generator(tree)
        if generator and not configured:
            configure += ["-G", generator]
        status, log = _run(configure)
        if status != 0:
            raise Stop(2, f"configuring the program's build failed:\n{log[-3000:]}", "environment")
    status, log = _run(["cmake", "--build", str(program_tree)])
    if status != 0:
        raise Stop(1, _compile_error(log, o.source, err), "compile_error")


def gpu_architecture():
    """sm_XX of this machine's first GPU (sm_90a on Hopper, for wgmma and setmaxnreg), or None."""
    if not shutil.which("nvidia-smi"):
        return None
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    if not out or not re.fullmatch(r"\d+\.\d+", out[0]):
        return None
    major, minor = out[0].split(".")
    arch = f"{major}{minor}"
    return f"sm_{arch}a" if arch == "90" else f"sm_{arch}"


def build_gpu(o, err):
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)
    if nvcc is None:
        raise Stop(2, "--backend=gpu needs the CUDA toolkit's nvcc, which is not installed here", "environment")
    arch = gpu_architecture()
    if arch is None:
        raise Stop(2, "--backend=gpu needs an NVIDIA GPU, and nvidia-smi lists none here", "environment")
    tree = Path(os.environ.get("PROGRAM_BUILD_DIR") or paths.build_dir("default")).resolve() / "gpu-programs" / _name(o)
    tree.mkdir(parents=True, exist_ok=True)
    exe = tree / "program"
    command = [nvcc, "-std=c++17", "-O2", "-lineinfo", f"-gencode=arch=compute_{arch[3:]},code={arch}",
               *[f"-I{d}" for d in o.includes], "-o", str(exe), str(o.source)]
    if re.search(r"\bcu[A-Z]\w*\s*\(", o.source.read_text(encoding="utf-8", errors="replace")):
        command.append("-lcuda")  # the driver API (cuTensorMapEncodeTiled, ...)
    status, log = _run(command)
    if status != 0:
        raise Stop(1, _compile_error(log, o.source, err), "compile_error")
    return exe


def read_launches(report_file):
    launches, not_modelled = [], None
    try:
        text = report_file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return launches, not_modelled
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a line cut short by a crash
        if event.get("event") == "launch":
            del event["event"]
            launches.append(event)
        elif event.get("event") == "not_modelled":
            not_modelled = event.get("call")
    return launches, not_modelled


def status_words(returncode):
    if returncode < 0:
        import signal
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was stopped by {name}"
    return f"exited with status {returncode}"


def summary(returncode, not_modelled):
    """What the command line adds to the program's own summary (program_report.cpp: the launches
    and which found something, printed at its exit)."""
    lines = []
    if not_modelled:
        lines.append(f"It stopped at {not_modelled}, which the CPU backend does not model.")
    lines.append(f"The program {status_words(returncode)}.")
    return lines


def exit_status(returncode, launches):
    """The program's own status when it failed; else 1 when a launch had findings; else 0."""
    if returncode != 0:
        return returncode if 0 < returncode < 256 else 1
    return 1 if any(l["findings"] or l["refused"] for l in launches) else 0


def document(o, returncode, launches, not_modelled, stdout_text, error=None):
    return {
        "schema": SCHEMA,
        "program": paths.relative(o.source) if o.source else None,
        "backend": o.backend,
        "error": error,
        "exit_status": returncode,
        "stdout": stdout_text,
        "not_modelled": not_modelled,
        "launches": launches,
        "status": exit_status(returncode, launches) if error is None else error["status"],
    }


def write_document(o, doc, out):
    text = json.dumps(doc, indent=1) + "\n"
    if o.json:
        Path(os.environ.get("CHECKER_RUN_CWD", os.getcwd()), o.json).write_text(text, encoding="utf-8")
    else:
        out.write(text)
        out.flush()


def main(argv, out=sys.stdout, err=sys.stderr):
    style = Style.for_stream(err)
    try:
        o = parse(argv)
    except Stop as stop:
        print(f"checker/run: {stop}", file=err)
        if "--json" in argv:
            print(json.dumps({"schema": SCHEMA, "error": {"code": stop.code, "message": str(stop), "status": 2},
                              "status": 2}), file=out)
        return stop.status
    try:
        exe = build_cpu(o, err) if o.backend == "cpu" else build_gpu(o, err)
    except Stop as stop:
        if stop.code == "compile_error":
            print(str(stop), file=err)
            print(style.red(f"{paths.relative(o.source)} did not compile."), file=err)
        else:
            print(f"checker/run: {stop}", file=err)
        if o.json is not None:
            write_document(o, document(o, None, [], None, "", {"code": stop.code, "message": str(stop),
                                                               "status": stop.status}), out)
        return stop.status
    report_file = exe.parent / "launches.jsonl"
    report_file.unlink(missing_ok=True)
    env = dict(os.environ, PUZZLES_PROGRAM_REPORT=str(report_file))
    cwd = os.environ.get("CHECKER_RUN_CWD", os.getcwd())
    capture = o.json == ""
    out.flush()
    done = subprocess.run([str(exe), *o.args], cwd=cwd, env=env, stdin=None if not capture else subprocess.DEVNULL,
                          stdout=subprocess.PIPE if capture else None, text=True, errors="replace")
    launches, not_modelled = read_launches(report_file)
    for line in summary(done.returncode, not_modelled):
        print(line, file=err)
    if o.json is not None:
        write_document(o, document(o, done.returncode, launches, not_modelled, done.stdout if capture else None), out)
    return exit_status(done.returncode, launches)

"""Configuring and building a puzzle's checker: which preset, the configure step, the build.

Which preset: nvcc compiling the GPU variant of a student's file takes longer than everything
else in the edit -> verdict loop together (about 3.5 s of 4.5 s for puzzle 4 on 2 cores), and
is wasted where no GPU can run it. So without a GPU, puzzles build with the cpu-only preset,
unless there is no nvcc either: then the default preset builds the CPU backend alone, the same
build as cpu-only, in build/default, the tree `checker/run test` builds too (one tree, not two).
"""
import fcntl
import os
import shutil
import subprocess
import sys

from course import paths


class Preset:
    def __init__(self, name, reason):
        self.name = name
        self.reason = reason  # why this one, for the one line that says which preset is used

    def line(self):
        return f"Build: preset {self.name} ({self.reason})"


def listed_gpus():
    """The GPUs `nvidia-smi -L` lists (names), or None when nvidia-smi is not installed."""
    if not shutil.which("nvidia-smi"):
        return None
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    names = []
    for line in out.splitlines():
        if line.startswith("GPU "):
            name = line.split(":", 1)[1].split("(UUID", 1)[0].strip()
            names.append(name)
    return names


def cache_value(preset, key):
    """A variable of a configured build tree's CMakeCache.txt, or None."""
    try:
        with open(paths.build_dir(preset) / "CMakeCache.txt", encoding="utf-8", errors="replace") as cache:
            for line in cache:
                if line.startswith(key + ":"):
                    return line.split("=", 1)[1].strip() if "=" in line else ""
    except OSError:
        return None
    return None


def _has_cuda(preset):
    compiler = cache_value(preset, "CMAKE_CUDA_COMPILER")
    return bool(compiler) and not compiler.endswith("NOTFOUND")


def cuda_compiler():
    """The CUDA compiler CMake's check_language(CUDA) would find (CUDACXX, nvcc in PATH, or in
    $CUDA_PATH/bin), or None. A configured tree's CMakeCache.txt says it for certain."""
    named = os.environ.get("CUDACXX", "").split()
    if named:
        return named[0]
    found = shutil.which("nvcc")
    if found:
        return found
    cuda_path = os.environ.get("CUDA_PATH")
    if cuda_path and os.access(os.path.join(cuda_path, "bin", "nvcc"), os.X_OK):
        return os.path.join(cuda_path, "bin", "nvcc")
    return None


def choose_preset(backend=None):
    """PRESET when set; otherwise default where a GPU is listed (or --backend=gpu asks for it).
    Where none is: default when it builds no GPU backend anyway (build/default configured
    without one, or no nvcc to find), since that is the tree `checker/run test` builds; cpu-only
    where nvcc would compile kernels no GPU here can run."""
    named = os.environ.get("PRESET")
    if named:
        return Preset(named, "from PRESET")
    if backend == "gpu":
        return Preset("default", "--backend=gpu")
    gpus = listed_gpus()
    if gpus:
        more = f" and {len(gpus) - 1} more" if len(gpus) > 1 else ""
        return Preset("default", f"GPU: {gpus[0]}{more}")
    why = "nvidia-smi lists no GPU" if gpus is not None else "no nvidia-smi here"
    no_nvcc = cuda_compiler() is None
    if cache_value("default", "CMAKE_BUILD_TYPE") is not None:
        if not _has_cuda("default"):
            return Preset("default", f"{why} and no nvcc: the CPU backend alone" if no_nvcc
                          else f"{why}; this build has no GPU backend")
    elif no_nvcc:
        return Preset("default", f"{why} and no nvcc: the CPU backend alone")
    return Preset("cpu-only", f"{why}, so nvcc is not run")


def configure(preset, out=sys.stderr):
    """Configures build/<preset> the first time; False (and the log shown) when that fails."""
    if (paths.build_dir(preset) / "CMakeCache.txt").exists():
        return True
    paths.BUILD.mkdir(parents=True, exist_ok=True)
    log = paths.BUILD / f"configure-{preset}.log"
    print(f"Configuring build/{preset} (only the first time)...", file=out, flush=True)
    with open(log, "w") as handle:
        status = subprocess.run(["cmake", "--preset", preset], cwd=paths.ROOT, stdout=handle,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL).returncode
    text = log.read_text(encoding="utf-8", errors="replace")
    if status != 0:
        print(text, file=out)
        print(f"Configuring failed (log: {paths.relative(log)}).", file=out, flush=True)
        return False
    for line in text.splitlines():
        if line.startswith(("-- Backends", "-- CPU-backend checks")):
            print(line, file=out)
    out.flush()
    return True


def build(preset, *targets, keep_going=False):
    """Builds the targets, at once as far as the build tool can; returns (exit status, log path).
    The log keeps everything the build printed: the student sees only the compiler's messages
    about their file (course.compiler). keep_going: a target that fails does not stop the others
    (checker/run verify builds every checker first, then reads each one's verdict)."""
    paths.LOGS.mkdir(parents=True, exist_ok=True)
    log = paths.LOGS / f"{targets[0] if len(targets) == 1 else 'checkers'}.log"
    tree = paths.build_dir(preset)
    if (tree / "build.ninja").exists() and shutil.which("ninja"):
        # What cmake --build runs, one process fewer.
        command = ["ninja", "-C", str(tree), *(["-k", "0"] if keep_going else []), *targets]
    else:
        command = ["cmake", "--build", str(tree), "--target", *targets]
    # Two ninjas in one build tree (watch mode in one terminal, checker/run in another) would
    # race on its logs: one builds at a time.
    with open(tree / ".course-build.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"Waiting for another build in {paths.relative(tree)} to finish...", file=sys.stderr, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        with open(log, "w") as handle:
            status = subprocess.run(command, cwd=paths.ROOT, stdout=handle, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL).returncode
    return status, log


def checks_solution(preset, puzzle_id):
    """True when an instructor build points this checker at solutions/: its verdicts are not
    the student's, so they are not recorded."""
    if (cache_value(preset, "PUZZLES_USE_SOLUTIONS") or "").upper() in ("ON", "1", "TRUE", "YES"):
        return True
    return puzzle_id in (cache_value(preset, "PUZZLES_SOLVED") or "").split(";")


def canary_refusal(preset):
    """The message of the canaries' refusal (checker/canaries) when the build's last canary run
    found that this compiler lost checks, else None. Written by course_canaries, which removes
    it when every canary passes; shown as it is, so that its words live in one place."""
    try:
        return (paths.build_dir(preset) / "canaries" / "refusal.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None

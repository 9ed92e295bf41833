"""nvcc's two passes over a .cu file, for the CPU backend.

nvcc compiles a .cu file twice: for the device with __CUDA_ARCH__ defined (900 for sm_90), and
for the host without it. The CPU backend compiles a whole program's file as the host pass sees
it and, where the program's own files test __CUDA_ARCH__, once more as the device pass sees it;
ptx_rewrite --device-pass then joins the two objects so that kernels and what they call come
from the device pass (checker/engine/tools/device_pass_merge.h). This module holds the facts:
which files test the macro, which architecture the device pass is for, what the join reported;
checker/run and checker/nvcc run the passes and word the facts."""
import re
from pathlib import Path

# A preprocessor conditional whose condition names __CUDA_ARCH__ (#if, #ifdef, #ifndef, #elif).
_TEST = re.compile(r"^\s*#\s*(?:if|ifdef|ifndef|elif)\b.*\b__CUDA_ARCH__\b")
# #include "name": the files a program's file brings in from its own folders.
_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# An architecture in nvcc's options: sm_90, compute_80, sm_90a, lto_89.
_ARCHITECTURE = re.compile(r"\b(?:sm|compute|lto)_(\d+)[af]?\b")
# Options whose value names architectures (nvcc_args keeps them in `noted` as "NAME VALUE").
_ARCHITECTURE_OPTIONS = ("-arch", "--gpu-architecture", "-gencode", "--generate-code", "-code", "--gpu-code")
# The GPU the CPU backend models: compute capability 9.0. "native" and "all" build for it.
MODELLED = 90


def _text(path):
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def first_test(path):
    """The line number of the first conditional in `path` that tests __CUDA_ARCH__, or None."""
    text = _text(path)
    if text is None:
        return None
    for number, line in enumerate(text.splitlines(), 1):
        if _TEST.match(line):
            return number
    return None


def tests_in(paths):
    """(path, line) for each file of `paths` that tests __CUDA_ARCH__, in order, each file once."""
    found = []
    for path in dict.fromkeys(str(p) for p in paths):
        line = first_test(path)
        if line is not None:
            found.append((path, line))
    return found


def quoted_includes(source, include_dirs=()):
    """`source` and the files it brings in with #include "...", found as the preprocessor finds
    them (the including file's folder, then `include_dirs`), transitively: a program's own files,
    for checker/run, which decides before compiling (checker/nvcc reads the compiler's list)."""
    found, pending = [], [Path(source)]
    while pending:
        path = pending.pop()
        if path in found:
            continue
        found.append(path)
        for line in (_text(path) or "").splitlines():
            match = _QUOTED_INCLUDE.match(line)
            if not match:
                continue
            for folder in (path.parent, *map(Path, include_dirs)):
                candidate = (folder / match.group(1)).resolve()
                if candidate.is_file():
                    pending.append(candidate)
                    break
    return found


def architecture(noted, default):
    """The value of __CUDA_ARCH__ for the device pass (900 for sm_90): of the architectures the
    build names, the newest the modelled GPU runs (a GPU runs code built for its own compute
    capability or an older one), as the CUDA runtime picks; `default` (nvcc's, "52") if none."""
    named = []
    for word in noted:
        name, _, value = word.partition(" ")
        if name not in _ARCHITECTURE_OPTIONS:
            continue
        if value in ("native", "all", "all-major"):
            named.append(MODELLED)
        named += [int(n) for n in _ARCHITECTURE.findall(value)]
    runnable = [n for n in named if n <= MODELLED]
    chosen = max(runnable) if runnable else min(named) if named else int(default)
    return chosen * 10


def internal_kernels(facts_text):
    """The names of the kernels that ptx_rewrite --device-pass found with internal linkage."""
    return [line.split(" ", 1)[1] for line in facts_text.splitlines() if line.startswith("internal-kernel ")]


def internal_kernel_note(name):
    return (f"note: kernel {name} is static (or in an unnamed namespace), and the host pass's code "
            "names it where the CPU backend cannot point it at the device pass's: it runs as nvcc's host "
            "pass compiles it, without the code kept for the device pass (`#if __CUDA_ARCH__`). Declared "
            "without `static`, it runs as on a GPU.")

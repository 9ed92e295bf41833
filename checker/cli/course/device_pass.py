"""Where a program's own files test __CUDA_ARCH__.

nvcc compiles a .cu file twice: for the device with __CUDA_ARCH__ defined (900 for sm_90), and
for the host without it. The CPU backend compiles it once, as the host pass sees it, so code
that a file keeps for the device pass (`#if __CUDA_ARCH__ >= 800` around a kernel's body) is
left out, and such a kernel does nothing. This module finds those tests as facts; checker/run
and checker/nvcc word them (device_pass_note)."""
import re
from pathlib import Path

# A preprocessor conditional whose condition names __CUDA_ARCH__ (#if, #ifdef, #ifndef, #elif).
_TEST = re.compile(r"^\s*#\s*(?:if|ifdef|ifndef|elif)\b.*\b__CUDA_ARCH__\b")


def first_test(path):
    """The line number of the first conditional in `path` that tests __CUDA_ARCH__, or None."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
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


def device_pass_note(path, line):
    return (f"note: {path}:{line} tests __CUDA_ARCH__, which the CPU backend leaves undefined: it "
            "compiles a file once, as nvcc's host pass does, so code kept for the device pass is left "
            "out (a kernel whose body is under that test does nothing here).")

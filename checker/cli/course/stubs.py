"""The stubs as handed out, and the kernels' bodies inside a .cu file.

Where a stub comes from, for `reset`: the git checkout's HEAD when it holds the stub (a student
who commits their work has no stub there), else the copy taken into build/pristine/ the first
time the command line ran, before any edit (a student handout need not be a git checkout).
A stub is recognised by its marker, which students replace: `// FILL ME IN (roughly N lines)`.
"""
import re
import os
import shutil
import subprocess

from course import paths

MARKER = "FILL ME IN"


def remember_pristine(specs):
    """Keeps a copy of every stub not yet kept, while it still has its marker."""
    for spec in specs:
        source = paths.puzzle_file(spec["id"])
        kept = paths.PRISTINE / source.name
        if kept.exists() or not source.exists():
            continue
        try:
            text = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if MARKER in text:
            paths.PRISTINE.mkdir(parents=True, exist_ok=True)
            # A name of this process's own: two commands started at once (watch mode in one
            # terminal, list in another) each write theirs and both renames succeed.
            temporary = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")
            temporary.write_text(text, encoding="utf-8")
            temporary.replace(kept)


def _from_git(puzzle_id):
    if not shutil.which("git"):
        return None
    try:
        # "./" makes the path relative to this folder, wherever the repository's root is.
        result = subprocess.run(["git", "show", f"HEAD:./puzzles/{puzzle_id}.cu"], cwd=paths.ROOT,
                                capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    if result.returncode != 0:
        return None
    return result.stdout.decode("utf-8", errors="replace")


def stub(puzzle_id):
    """(text, where it came from) of the puzzle's stub, or (None, why not)."""
    from_git = _from_git(puzzle_id)
    if from_git is not None and MARKER in from_git:
        return from_git, "git's HEAD"
    kept = paths.PRISTINE / f"{puzzle_id}.cu"
    if kept.exists():
        return kept.read_text(encoding="utf-8"), f"the copy kept in {paths.relative(kept)}"
    if from_git is not None:
        return None, ("the file in git's HEAD is not a stub any more (it has no FILL ME IN), and "
                      "no copy of the stub was kept in build/pristine/")
    return None, "this folder is not a git checkout, and no copy of the stub was kept in build/pristine/"


def kernel_bodies(text, kernels):
    """{kernel name: (first line number, [lines of the body])} for each kernel found: the lines
    between the opening brace of `__global__ ... name(...) {` and its closing brace."""
    found = {}
    for kernel in kernels:
        name = kernel.split("<", 1)[0].strip()
        match = re.search(r"__global__[^;{]*?\b" + re.escape(name) + r"\s*\([^)]*\)[^{;]*\{", text)
        if not match:
            continue
        depth, i = 1, match.end()
        while i < len(text) and depth:
            if text.startswith("//", i):  # braces in comments and strings do not count
                end = text.find("\n", i)
                i = len(text) if end < 0 else end
                continue
            if text.startswith("/*", i):
                end = text.find("*/", i + 2)
                i = len(text) if end < 0 else end + 2
                continue
            if text[i] in "\"'":
                end = i + 1
                while end < len(text) and text[end] not in (text[i], "\n"):
                    end += 2 if text[end] == "\\" else 1
                i = end + 1
                continue
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
            i += 1
        body = text[match.end():i - 1]
        first_line = text.count("\n", 0, match.end()) + 1
        lines = body.split("\n")
        if lines and not lines[0].strip():  # the rest of the line with the opening brace
            lines, first_line = lines[1:], first_line + 1
        if lines and not lines[-1].strip():  # the indentation before the closing brace
            lines = lines[:-1]
        found[name] = (first_line, lines)
    return found

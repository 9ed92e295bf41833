"""A failed build's log, reduced to what the student needs: the compiler's messages about their file.

A build log holds ninja's progress lines, each failing compiler's full command line, messages
about generated files, and the same mistake twice when clang (CPU backend) and nvcc (GPU backend)
both compile the file. A student needs the messages about their own file: file:line:col, the
message, the source line and the caret. Both formats are read:

  clang / gcc   puzzles/p04_tiled.cu:20:12: error: use of undeclared identifier 'sum'
                  c[row] = sum;
                           ^
  nvcc          puzzles/p04_tiled.cu(20): error: identifier "sum" is undefined
                    c[row] = sum;
                             ^
and printed in the first. Two mistakes made outside the student's file but caused by it are
translated: a changed kernel signature (the build's static_assert) and a renamed kernel.
"""
import re
from pathlib import Path

from course import paths

CLANG_HEADER = re.compile(
    r"^(?P<file>[^\s:(][^:()]*):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<kind>fatal error|error|warning|note): (?P<message>.*)$")
NVCC_HEADER = re.compile(
    r"^(?P<file>[^\s(][^()]*)\((?P<line>\d+)\): (?P<kind>error|warning|remark)(?: #[\w-]+)?: (?P<message>.*)$")
# Lines that end a message's continuation: ninja's, the compilers' summaries, include chains.
BOUNDARY = re.compile(
    r"^(\[\d+/\d+\] |FAILED: |ninja: |In file included from |\s+from \S+:\d+[:,]|"
    r"\d+ (errors?|warnings?)( and \d+ warnings?)? generated\.|"
    r"\d+ errors? detected in the compilation of |[^\s:]+: In (function|instantiation|member)|"
    r"[^\s:]+: At (global|top level))")
# The build's static_assert on a kernel's parameters ends with this tag (KernelTargets.cmake),
# so that it is recognised whatever its sentence says; the signature itself comes from the spec.
SIGNATURE = re.compile(r"\[signature-check (\w+)\]")
MISSING_KERNEL = re.compile(
    r"""no member named '(\w+)' in namespace '(?:cpu|gpu)_kernels_\w+'|"""
    r"""namespace "(?:::)?(?:cpu|gpu)_kernels_\w+" has no member "(\w+)\"""")


class Diagnostic:
    def __init__(self, file, line, col, kind, message, compiler, excerpt=None, notes=None):
        self.file = file            # as written in the log
        self.line = line
        self.col = col              # 0 when the compiler gave none
        self.kind = kind            # error, warning, note, ...
        self.message = message
        self.compiler = compiler    # "clang" (clang and gcc format) or "nvcc"
        self.excerpt = excerpt or []  # source line, caret, fix-it (clang format)
        self.notes = notes or []


class Report:
    def __init__(self, errors, warnings, in_student_file, other_lines):
        self.errors = errors                    # Diagnostics, deduplicated, about the student's file
        self.warnings = warnings                # warnings about the student's file
        self.in_student_file = in_student_file  # False: the build failed outside the student's file
        self.other_lines = other_lines          # when not in the student's file: what to show instead


def parse(log_text):
    """Every diagnostic in a build log, in order, notes attached to the message before them."""
    diagnostics = []
    current = last = None
    nvcc_lines = None  # nvcc's lines after its header, up to the blank line that ends them
    skip_command = False
    for raw in log_text.splitlines():
        line = raw.rstrip("\n")
        if skip_command:  # the line after FAILED: is the compiler's command line
            skip_command = False
            continue
        if line.startswith("FAILED: "):
            skip_command = True
            current, nvcc_lines = None, None
            continue
        match = CLANG_HEADER.match(line)
        if match:
            nvcc_lines = None
            diagnostic = Diagnostic(match["file"], int(match["line"]), int(match["col"]),
                                    match["kind"], match["message"], "clang")
            if diagnostic.kind == "note" and current is not None:
                current.notes.append(diagnostic)
            else:
                diagnostics.append(diagnostic)
                current = diagnostic
            last = diagnostic
            continue
        match = NVCC_HEADER.match(line)
        if match:
            current = Diagnostic(match["file"], int(match["line"]), 0, match["kind"],
                                 match["message"], "nvcc")
            diagnostics.append(current)
            nvcc_lines = []
            last = current
            continue
        if BOUNDARY.match(line):
            current, nvcc_lines = None, None
            continue
        if nvcc_lines is not None:
            if not line.strip():
                _finish_nvcc(current, nvcc_lines)
                current, nvcc_lines = None, None
            else:
                nvcc_lines.append(line)
            continue
        if current is not None and last is not None and line.strip():
            last.excerpt.append(line)
    if nvcc_lines is not None and current is not None:
        _finish_nvcc(current, nvcc_lines)
    return diagnostics


def _finish_nvcc(diagnostic, lines):
    """nvcc: extra message lines, then the source line and a caret, then (dropped) candidates."""
    for i, text in enumerate(lines):
        if text.strip() == "^" and i > 0:
            diagnostic.excerpt = [lines[i - 1], text]
            extra = [t.strip() for t in lines[:i - 1]]
            if extra:
                diagnostic.message += " (" + "; ".join(extra) + ")"
            return
    diagnostic.message += "".join(" " + t.strip() for t in lines[:2])


def _same_file(name, target):
    try:
        return Path(name).resolve() == target
    except OSError:
        return False


def _kernel_declaration(source_lines, kernel):
    """(line, col) of a kernel's name in its __global__ declaration; (0, 0) if not found."""
    pattern = re.compile(r"\b" + re.escape(kernel) + r"\s*(<[^>]*>)?\s*\(")
    for number, text in enumerate(source_lines, 1):
        if "__global__" in text or (number > 1 and "__global__" in source_lines[number - 2]):
            found = pattern.search(text)
            if found:
                return number, found.start() + 1
    return 0, 0


def _excerpt_from_source(source_lines, line, col):
    if not 1 <= line <= len(source_lines):
        return []
    text = source_lines[line - 1].expandtabs(8)
    return [text, " " * max(col - 1, 0) + "^"] if col else [text]


def _signature_of(student):
    """The kernel's signature as the puzzle's spec gives it (the file is named after the puzzle)."""
    from course import specs
    try:
        return specs.find(student.stem)["signature"]
    except specs.PuzzleNotFound:
        return "as the stub gives them"


def reduce(log_text, student_file):
    """The messages of a failed build that are about the student's file (see the module's text)."""
    student = Path(student_file).resolve()
    try:
        source_lines = student.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        source_lines = []
    diagnostics = parse(log_text)
    errors, warnings, seen = [], 0, set()

    def add(diagnostic):
        key = (diagnostic.line, diagnostic.message)
        lines_taken = {d.line for d in errors if d.compiler != diagnostic.compiler}
        # The second compiler's message on a line the first already reported says it again.
        if key in seen or (diagnostic.line and diagnostic.line in lines_taken):
            return
        seen.add(key)
        errors.append(diagnostic)

    # clang (and gcc) first: its messages carry columns and name the CPU backend's view.
    ordered = sorted(diagnostics, key=lambda d: d.compiler != "clang")
    for d in ordered:
        if d.kind == "warning" and _same_file(d.file, student):
            warnings += 1
            continue
        if d.kind not in ("error", "fatal error"):
            continue
        signature = SIGNATURE.search(d.message)
        missing = MISSING_KERNEL.search(d.message)
        if _same_file(d.file, student):
            d.file = str(student)
            if d.compiler == "nvcc":
                d.col, d.excerpt = _nvcc_excerpt(d, source_lines)
            d.notes = [n for n in d.notes if _same_file(n.file, student) or not _generated(n.file)]
            add(d)
        elif signature:
            kernel = signature.group(1)
            line, col = _kernel_declaration(source_lines, kernel)
            add(Diagnostic(str(student), line, col, "error",
                           f"{kernel} must keep its parameters exactly as given: {_signature_of(student)}. "
                           "Change only the kernel's body.", d.compiler,
                           _excerpt_from_source(source_lines, line, col)))
        elif missing:
            kernel = missing.group(1) or missing.group(2)
            notes = [n for n in d.notes if _same_file(n.file, student)]
            add(Diagnostic(str(student), 0, 0, "error",
                           f"the checker calls a kernel named {kernel}, and this file has none: "
                           "keep the kernel's name as the stub gives it", d.compiler, [], notes))
    if errors:
        return Report(sorted(errors, key=lambda d: d.line), warnings, True, [])
    return Report([], warnings, False, _other_lines(log_text, diagnostics))


def _generated(name):
    try:
        Path(name).resolve().relative_to(paths.BUILD.resolve())
        return True
    except ValueError:
        return False


def _nvcc_excerpt(diagnostic, source_lines):
    """(column, [line, caret]) from nvcc's excerpt, which indents the line by 2 and gives no column."""
    if len(diagnostic.excerpt) < 2:
        return 0, _excerpt_from_source(source_lines, diagnostic.line, 0)
    shown, caret = diagnostic.excerpt
    actual = source_lines[diagnostic.line - 1].expandtabs(8) if 1 <= diagnostic.line <= len(source_lines) else ""
    if actual and shown.endswith(actual):
        offset = len(shown) - len(actual)
    else:
        offset = 2 if shown.startswith("  ") else 0
    col = max(caret.index("^") - offset + 1, 1)
    return col, [shown[offset:], " " * (col - 1) + "^"]


def _other_lines(log_text, diagnostics, limit=30):
    """A failure outside the student's file: its error messages, or the log's own lines."""
    lines = []
    for d in diagnostics:
        if d.kind in ("error", "fatal error"):
            location = f"{paths.relative(d.file)}:{d.line}" + (f":{d.col}" if d.col else "")
            lines.append(f"{location}: {d.kind}: {d.message}")
    if not lines:
        skip = False
        for raw in log_text.splitlines():
            if skip:
                skip = False
                continue
            if raw.startswith("FAILED: "):
                skip = True
                continue
            if raw.startswith(("[", "ninja: build stopped", "ninja: Entering", "ninja: no work")) or not raw.strip():
                continue
            lines.append(raw)
    return lines[-limit:]


def format_report(report, style):
    """The student's view: clang's format for every message, relative paths, no command lines."""
    out = []
    for d in report.errors:
        out.extend(_format(d, style))
        out.append("")
    return out


def _format(d, style, indent=""):
    location = paths.relative(d.file)
    if d.line:
        location += f":{d.line}" + (f":{d.col}" if d.col else "")
    colour = {"error": style.red, "fatal error": style.red, "warning": style.yellow}.get(d.kind, style.dim)
    lines = [indent + style.bold(location + ":") + " " + colour(d.kind + ":") + " " + d.message]
    lines.extend(indent + text for text in d.excerpt)
    for note in d.notes:
        lines.extend(_format(note, style, indent))
    return lines

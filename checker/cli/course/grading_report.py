"""Grading results: a cell per student and puzzle, in a few words, and the files that hold them.

The words come from the checker's and the compiler's own output: the first finding of the first
failing case ("race on a_tile (lines 14, 16)"), or the first compile error.
"""
import csv
import io
import re
from dataclasses import dataclass, field

PASS, FAIL, COMPILE_ERROR, TIME_LIMIT, MISSING, ERROR = (
    "pass", "fail", "compile error", "time limit", "missing", "error")


@dataclass
class Cell:
    status: str
    words: str = ""  # what went wrong, in a few words
    log: list = field(default_factory=list)  # (title, text) pieces for the detail file
    build_seconds: float = 0.0
    run_seconds: float = 0.0

    def text(self):
        return f"{self.status}: {self.words}" if self.words else self.status


def _lines_part(line):
    lines = sorted(set(int(n) for n in re.findall(r"\bat line (\d+)", line)))
    if not lines:
        return ""
    return f" (line {lines[0]})" if len(lines) == 1 else " (lines " + ", ".join(map(str, lines)) + ")"


def _first_clause(text):
    return re.split(r"[:;(.]", text, maxsplit=1)[0].strip()


def _crash(line):
    detail = re.sub(r"^Crash(?: in [^:]*?)?(?: at line \d+(?: of \S+)?)?:\s*", "", line)
    if "division by zero" in detail:
        what = "integer division by zero"
    elif "on the GPU:" in detail:
        return "crash on the GPU: " + _first_clause(detail.split("on the GPU:", 1)[1])
    else:
        what = _first_clause(detail)
    return "crash: " + what + _lines_part(line)


# (pattern on a line of checker output, stripped; its cell words)
_FINDINGS = [
    (r"^Out-of-bounds (read|write): .*?\b(?:read|wrote) (\w+)\[",
     lambda m, line: f"out-of-bounds {m.group(1)} of {m.group(2)}" + _lines_part(line.split(", but ")[0])),
    (r"^Out-of-bounds shared memory:", lambda m, line: "out-of-bounds shared memory" + _lines_part(line)),
    (r"^Shared-memory race: in block \([^)]*\), (\w+)", lambda m, line: f"race on {m.group(1)}" + _lines_part(line)),
    (r"^Barrier divergence\b", lambda m, line: "barrier divergence" + _lines_part(line)),
    (r"^Crash\b", lambda m, line: _crash(line)),
    (r"^Time limit:", lambda m, line: "kernel time limit (endless loop?)"),
    (r"^The launch was refused: (.*)", lambda m, line: "launch refused: " + _first_clause(m.group(1))),
    (r"^Unwritten output: (\d+) of (\d+) elements of (\w+)",
     lambda m, line: f"unwritten output ({m.group(1)} of {m.group(2)} in {m.group(3)})"),
    (r"^Wrong values: (\d+) of (\d+) elements of (\w+)",
     lambda m, line: f"wrong values ({m.group(1)} of {m.group(2)} in {m.group(3)})"),
    (r"^Too many global loads: .*?(\d+) times; this puzzle allows (\d+)",
     lambda m, line: f"too many global loads ({m.group(1)}, at most {m.group(2)})"),
    (r"^Result depends on thread order", lambda m, line: "result depends on thread order"),
]
# Lines of the checker's header and verdict: never a finding.
_NOT_FINDINGS = re.compile(r"^(Puzzle \d|Backend|Launch|Cases|Checks|Result|Fix|Also|Stopped early|"
                           r"Kernel \d|With the threads|[a-z]+:)")


def failure_words(output):
    """The first finding in a failing checker's output, in a few words."""
    lines = [line.strip() for line in output.splitlines()]
    for line in lines:
        for pattern, words in _FINDINGS:
            m = re.match(pattern, line)
            if m:
                return words(m, line)
    for line in lines:  # a finding this list does not know yet: its own heading
        m = re.match(r"^([A-Z][\w -]{2,40}):", line)
        if m and not _NOT_FINDINGS.match(line):
            return m.group(1).lower()
    return "see the details"


def checker_verdict(status, output):
    """(cell status, words) of one finished checker run, from its exit status (0 passed, 1 a
    finding, 2 the environment) and its output. The one place a verdict is read from a checker:
    a machine-readable verdict from the checkers would replace the reading here."""
    if status == 0:
        return PASS, ""
    if status == 1:
        return FAIL, failure_words(output)
    if status == 2:
        lines = [line.strip() for line in output.splitlines() if line.strip()]
        message = re.sub(r"^\S+: ", "", lines[-1]) if lines else "an environment problem"
        return ERROR, message[:80]
    how = f"signal {-status}" if status < 0 else f"exit status {status}"
    return FAIL, f"the checker stopped with {how}"


def backend_line(output):
    """What the checker says it runs on (its 'Backend:' line), or None."""
    m = re.search(r"^Backend: (.*)$", output, re.M)
    return m.group(1) if m else None


def compile_error_words(output, source_name):
    """The first compile error, in a few words, with its line when it is in the student's file."""
    if "must keep its parameters exactly as given" in output:
        return "the kernel's parameters were changed"
    m = re.search(r"no member named '(\w+)' in the global namespace", output)
    if m:
        return f"no kernel called {m.group(1)}"
    for line in output.splitlines():
        m = (re.match(r"^(.*?):(\d+):\d+: (?:fatal )?error: (.*)$", line)
             or re.match(r"^(.*?)\((\d+)\): error: (.*)$", line))  # nvcc
        if m:
            path, number, message = m.groups()
            message = message.strip()
            if len(message) > 60:
                message = message[:57].rstrip() + "..."
            if path.endswith("/" + source_name) or path == source_name:
                return f"line {number}: {message}"
            return message
        if "undefined reference to" in line:
            return "link error: " + re.sub(r".*undefined reference to\s*", "undefined ", line).strip()[:60]
    return ""


def cell_csv_text(cell):
    return cell.text() if cell else MISSING


def markdown_escape(text):
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def results_markdown(title, facts, students, puzzles, cells, detail_names):
    """The table: a row per student, a column per puzzle, and how many passed."""
    out = io.StringIO()
    out.write(f"# {title}\n\n")
    for fact in facts:
        out.write(f"- {fact}\n")
    out.write("\n| student | " + " | ".join(f"`{p}`" for p in puzzles) + " | passed |\n")
    out.write("|---|" + "---|" * len(puzzles) + "---|\n")
    for student in students:
        row = [cells.get((student.name, p)) for p in puzzles]
        passed = sum(1 for c in row if c and c.status == PASS)
        name = f"[{markdown_escape(student.name)}](details/{detail_names[student.name]})"
        out.write(f"| {name} | " + " | ".join(markdown_escape(cell_csv_text(c)) for c in row) +
                  f" | {passed} of {len(puzzles)} |\n")
    totals = []
    for p in puzzles:
        graded = [cells.get((s.name, p)) for s in students]
        totals.append(f"{sum(1 for c in graded if c and c.status == PASS)} of {len(students)}")
    out.write("| **passed** | " + " | ".join(totals) + " | |\n")
    return out.getvalue()


def results_csv(students, puzzles, cells):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student"] + list(puzzles) + ["passed"])
    for student in students:
        row = [cells.get((student.name, p)) for p in puzzles]
        passed = sum(1 for c in row if c and c.status == PASS)
        writer.writerow([student.name] + [cell_csv_text(c) for c in row] + [passed])
    return out.getvalue()


def detail_text(student, puzzles, cells, facts):
    """Everything about one student: what was found, and each puzzle's build and checker output."""
    out = io.StringIO()
    out.write(f"Student: {student.name} (from {student.origin})\n")
    for fact in facts:
        out.write(f"{fact}\n")
    out.write("\n")
    for p in puzzles:
        cell = cells.get((student.name, p))
        out.write(f"{p}: {cell_csv_text(cell)}\n")
    if not student.files:
        out.write("\nNo puzzle files found: files are recognised by their names, those of puzzles/ "
                  "(p01_naive.cu, ...).\n")
    if student.notes:
        out.write("\nNotes:\n")
        for note in student.notes:
            out.write(f"  {note}\n")
    for p in puzzles:
        cell = cells.get((student.name, p))
        if not cell:
            continue
        where = student.found_at.get(p, p + ".cu")
        out.write("\n" + "=" * 78 + "\n")
        out.write(f"{p} ({where}): {cell.text()}\n")
        out.write(f"build {cell.build_seconds:.1f} s, checker {cell.run_seconds:.1f} s\n")
        for title, text in cell.log:
            out.write(f"\n--- {title}\n")
            out.write(text if text.endswith("\n") or not text else text + "\n")
    return out.getvalue()

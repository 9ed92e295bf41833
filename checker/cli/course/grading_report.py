"""Grading results: a cell per student and puzzle, in a few words, and the files that hold them.

The words come from the checker's report (course/report.py reads its --json document: the first
finding of the first failing case, "race on a_tile (lines 14, 16)") and from the compiler's output
(the first compile error).
"""
import csv
import io
import re
from dataclasses import dataclass, field

from course import report
from course.compiler import SIGNATURE as SIGNATURE_CHECK
from course.report import failure_words  # noqa: F401  (grading's tests use it from here)

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


def checker_verdict(status, doc):
    """(cell status, words) of one finished checker run, from its exit status (0 passed, 1 a
    finding, 2 the environment) and its report (None when it wrote none). The one place a
    verdict is read from a checker."""
    if status == 0:
        return PASS, ""
    if status == 1:
        return FAIL, failure_words(doc) if doc else "see the details"
    if status == 2:
        return ERROR, ((report.summary(doc) if doc else "") or "an environment problem (see the details)")[:80]
    how = f"signal {-status}" if status < 0 else f"exit status {status}"
    return FAIL, f"the checker stopped with {how}"


def backend_line(doc):
    """What the checker says it runs on ("cpu (CPU, 2 worker threads)"), from its report, or None."""
    return (report.backend_words(doc) if doc else "") or None


def compile_error_words(output, source_name):
    """The first compile error, in a few words, with its line when it is in the student's file."""
    if SIGNATURE_CHECK.search(output):
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

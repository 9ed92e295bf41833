"""A grading's results as data (results.json), the files written from it, and the merge of shards.

`grade --shard K/N` grades every N-th student of the class (by the class's own order, which is
by name), and writes results.json beside the tables; `grade --merge DIR...` reads the N shards'
results.json and writes the tables of the whole class from them, with the same code that writes
the tables of a class graded at once: so the two are the same, whatever machines the shards ran on.
"""
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from course.grading_report import Cell, detail_text, results_csv, results_markdown
from course.grading_submissions import Student

FORMAT = 1
RESULTS_FILES = {"results.md", "results.csv", "results.json", "details"}


class MergeError(Exception):
    """The shards cannot be merged: the message says why."""


@dataclass
class Grading:
    """Everything a results folder says, as data."""
    class_name: str
    roster: list  # every student of the class, in the class's order (a shard grades some of them)
    puzzles: list
    backend: str
    runs: str
    sandbox: str
    graded: str  # when, as the instructor reads it
    shard: tuple | None = None  # (K, N) for a shard
    students: list = field(default_factory=list)  # Student, those graded here
    cells: dict = field(default_factory=dict)  # (student name, puzzle) -> Cell

    def facts(self):
        """The lines that head the table and each detail file."""
        puzzles = f"{len(self.puzzles)} puzzle" + ("" if len(self.puzzles) == 1 else "s")
        count = f"{len(self.roster)} student" + ("" if len(self.roster) == 1 else "s")
        if self.shard:
            who = f"shard {self.shard[0]} of {self.shard[1]}: {len(self.students)} of {count}, {puzzles}"
        else:
            who = f"{count}, {puzzles}"
        return [f"Class: {self.class_name} ({who})", f"Backend: {self.backend}", f"Runs per puzzle: {self.runs}",
                f"Sandbox: {self.sandbox}", f"Graded: {self.graded}"]


def shard_of(students, shard):
    """The students of shard (K, N): every N-th, starting with the K-th."""
    if not shard:
        return list(students)
    k, n = shard
    return list(students)[k - 1::n]


def parse_shard(text):
    """'2/4' -> (2, 4); None when it is not K/N with 1 <= K <= N."""
    parts = text.split("/")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        return None
    k, n = int(parts[0]), int(parts[1])
    return (k, n) if 1 <= k <= n else None


def detail_names(students):
    """Each student's detail file name: safe for every file system, unique ignoring case."""
    from course.grading import safe_name
    names, used = {}, set()
    for student in students:
        name = safe_name(student.name)
        candidate, n = name, 2
        while candidate.lower() in used:
            candidate, n = f"{name}-{n}", n + 1
        used.add(candidate.lower())
        names[student.name] = candidate + ".txt"
    return names


def write(out, grading):
    """results.md, results.csv, details/ and results.json."""
    out.mkdir(parents=True, exist_ok=True)
    details = out / "details"
    details.mkdir(exist_ok=True)
    facts = grading.facts()
    names = detail_names(grading.students)
    for student in grading.students:
        (details / names[student.name]).write_text(
            detail_text(student, grading.puzzles, grading.cells, facts), encoding="utf-8")
    (out / "results.md").write_text(results_markdown(f"Grades: {grading.class_name}", facts, grading.students,
                                                     grading.puzzles, grading.cells, names), encoding="utf-8")
    (out / "results.csv").write_text(results_csv(grading.students, grading.puzzles, grading.cells), encoding="utf-8")
    (out / "results.json").write_text(json.dumps(to_data(grading), indent=1) + "\n", encoding="utf-8")


def to_data(grading):
    data = {k: v for k, v in asdict(grading).items() if k not in ("students", "cells")}
    data["format"] = FORMAT
    data["students"] = [{"name": s.name, "origin": s.origin, "submitted": sorted(s.files),
                         "found_at": s.found_at, "notes": s.notes} for s in grading.students]
    data["cells"] = [dict(asdict(cell), student=key[0], puzzle=key[1]) for key, cell in grading.cells.items()]
    return data


def from_data(data):
    students = [Student(s["name"], s["origin"], {p: b"" for p in s["submitted"]}, dict(s["found_at"]),
                        list(s["notes"])) for s in data["students"]]
    cells = {}
    for c in data["cells"]:
        key = (c.pop("student"), c.pop("puzzle"))
        c["log"] = [tuple(piece) for piece in c["log"]]
        cells[key] = Cell(**c)
    shard = tuple(data["shard"]) if data.get("shard") else None
    return Grading(data["class_name"], data["roster"], data["puzzles"], data["backend"], data["runs"],
                   data["sandbox"], data["graded"], shard, students, cells)


def read(folder):
    path = Path(folder) / "results.json"
    if not path.is_file():
        raise MergeError(f"{folder} holds no results.json: give the --out folders of `grade --shard K/N`")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise MergeError(f"{path} was written by another version of grade (format {data.get('format')})")
        return from_data(data)
    except (ValueError, KeyError, TypeError) as error:
        raise MergeError(f"{path} cannot be read: {error}")


def merge(folders):
    """One Grading of the whole class from its N shards; MergeError when they do not fit."""
    shards = [read(f) for f in folders]
    first = shards[0]
    for folder, g in zip(folders, shards):
        if not g.shard:
            raise MergeError(f"{folder} graded the whole class, not a shard: nothing to merge")
        for what, mine, theirs in (("class", g.class_name, first.class_name), ("students", g.roster, first.roster),
                                   ("puzzles", g.puzzles, first.puzzles), ("backend", g.backend, first.backend),
                                   ("runs", g.runs, first.runs), ("number of shards", g.shard[1], first.shard[1])):
            if mine != theirs:
                raise MergeError(f"{folder} and {folders[0]} differ in their {what} ({mine} / {theirs}): "
                                 "grade every shard of one class with the same options")
    n = first.shard[1]
    seen = {}
    for folder, g in zip(folders, shards):
        if g.shard[0] in seen:
            raise MergeError(f"{seen[g.shard[0]]} and {folder} are both shard {g.shard[0]} of {n}")
        seen[g.shard[0]] = folder
    missing = [str(k) for k in range(1, n + 1) if k not in seen]
    if missing:
        raise MergeError(f"shard{'s' if len(missing) > 1 else ''} {', '.join(missing)} of {n} "
                         f"{'are' if len(missing) > 1 else 'is'} missing: give all {n} results folders")
    by_name = {s.name: s for g in shards for s in g.students}
    if sorted(by_name) != sorted(first.roster):
        raise MergeError("the shards' students are not the class's: grade each shard of the same class folder")
    sandboxes = list(dict.fromkeys(g.sandbox for g in shards))
    cells = {}
    for g in shards:
        cells.update(g.cells)
    return Grading(first.class_name, first.roster, first.puzzles, first.backend, first.runs, "; ".join(sandboxes),
                   max(g.graded for g in shards), None, [by_name[name] for name in first.roster], cells)

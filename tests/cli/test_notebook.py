"""The Colab notebook (docs/colab.ipynb), run end to end as a student runs it, on the CPU path.

It runs against the command-line tests' copy of the course (fixture.py, CLI_WORK), never the real
tree: its edit cell writes puzzles/p01_naive.cu. The notebook's COURSE cell is pointed at the copy
(a local folder, which the notebook uses as it is), every cell runs in order with the stub in the
edit cell, and then the edit cell holds the reference solution, as a student would type it, and
it and the cells after it run again. Debian's python3-nbclient and python3-ipykernel run it.
"""
import os
import re
import shutil
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "docs" / "colab.ipynb"
WORK = Path(os.environ["CLI_WORK"]).resolve() if os.environ.get("CLI_WORK") else None
COPY = WORK / "src" if WORK else None
EDIT = "%%writefile puzzles/p01_naive.cu\n"
COURSE_LINE = re.compile(r'^COURSE = "[^"\n]*"$', re.M)
# `!` commands run in a pseudo-terminal, so the checker colours its output, as Colab shows it.
ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
RESULT = re.compile(r"^Result: \d+ of \d+ cases passed\. (PASS|FAIL)$", re.M)

try:
    import nbclient
    import nbformat
except ImportError:
    nbclient = None


def text_of(cell):
    """Everything a code cell printed, streams and errors alike, without terminal escapes."""
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(output.get("text", ""))
        elif output.get("output_type") == "error":
            parts.append("\n".join(output.get("traceback", [])))
        else:
            parts.append(output.get("data", {}).get("text/plain", ""))
    return ESCAPE.sub("", "".join(parts)).replace("\r\n", "\n")


def index_of(cells, source):
    """The one code cell whose source is exactly `source` (a command cell)."""
    found = [i for i, c in enumerate(cells) if c.cell_type == "code" and c.source.strip() == source]
    if len(found) != 1:
        raise AssertionError(f"the notebook should have one cell `{source}`, it has {len(found)}")
    return found[0]


class Notebook(unittest.TestCase):
    def setUp(self):
        if COPY is None or not (COPY / "checker" / "run").exists():
            self.skipTest("CLI_WORK does not name the fixture's copy (run the tests through CTest)")
        if not (COPY / "solutions").exists():
            self.skipTest("this copy of the course has no solutions/ (a student handout): the test solves "
                          "puzzle 1 with its solution")
        # A handout's state, as the command-line tests start (test_workflow.py).
        shutil.copyfile(WORK / "stubs" / "p01_naive.cu", COPY / "puzzles" / "p01_naive.cu")
        for path in ("backups", "build/pristine", "build/logs"):
            shutil.rmtree(COPY / path, ignore_errors=True)
        (COPY / "build" / "course-state.json").unlink(missing_ok=True)

    def tearDown(self):
        shutil.copyfile(WORK / "stubs" / "p01_naive.cu", COPY / "puzzles" / "p01_naive.cu")
        (COPY / "build" / "course-state.json").unlink(missing_ok=True)

    def test_the_stub_fails_and_the_solution_typed_into_the_edit_cell_passes(self):
        nb = nbformat.read(NOTEBOOK, as_version=4)
        cells = nb.cells
        course = [i for i, c in enumerate(cells) if c.cell_type == "code" and COURSE_LINE.search(c.source)]
        self.assertEqual(len(course), 1, "one cell sets COURSE")
        cells[course[0]].source = COURSE_LINE.sub(f"COURSE = {str(COPY)!r}", cells[course[0]].source)
        edits = [i for i, c in enumerate(cells) if c.cell_type == "code" and c.source.startswith(EDIT)]
        self.assertEqual(len(edits), 1, f"one cell starts with {EDIT.strip()}")
        edit = edits[0]
        stub = (WORK / "stubs" / "p01_naive.cu").read_text()
        self.assertEqual(cells[edit].source[len(EDIT):].rstrip("\n"), stub.rstrip("\n"),
                         "the edit cell holds puzzles/p01_naive.cu's stub as the course has it")
        first_run = index_of(cells, "!checker/run p01 --backend=cpu")
        check = index_of(cells, "!checker/run p01")
        reveal = index_of(cells, "!checker/run solution 1")
        hint = index_of(cells, "!checker/run hint 1")
        self.assertLess(first_run, edit)
        self.assertLess(edit, check)

        # The copy's build tree is cpu-only (fixture.py); on a machine with a GPU the command
        # line would otherwise configure the default preset in the copy.
        client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                         resources={"metadata": {"path": str(WORK)}})
        os.environ["PRESET"] = "cpu-only"
        with client.setup_kernel():
            for index, cell in enumerate(cells):
                client.execute_cell(cell, index)
            self.assertEqual((COPY / "puzzles" / "p01_naive.cu").read_text().rstrip("\n"), stub.rstrip("\n"))
            for index in (first_run, check):
                self.assertEqual(RESULT.findall(text_of(cells[index])), ["FAIL"], text_of(cells[index]))
            self.assertIn("hint 1 of", text_of(cells[hint]))
            self.assertIn("opens once your kernel passes", text_of(cells[reveal]))

            solution = (COPY / "solutions" / "p01_naive.cu").read_text()
            cells[edit].source = EDIT + solution
            for index in range(edit, len(cells)):
                client.execute_cell(cells[index], index)
            self.assertEqual((COPY / "puzzles" / "p01_naive.cu").read_text().rstrip("\n"), solution.rstrip("\n"))
            self.assertEqual(RESULT.findall(text_of(cells[check])), ["PASS"], text_of(cells[check]))
            self.assertIn("Your kernel against the reference", text_of(cells[reveal]))


def main():
    if nbclient is None:
        # Debian's python3 has the packages even where another python3 runs this script.
        debian = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(debian) and os.path.exists(debian):
            os.execv(debian, [debian, *sys.argv])
        print("SKIPPED: nbclient is not installed (the notebook packages of checker/debian-packages.txt: "
              "python3-nbclient python3-ipykernel)")
        return 77
    program = unittest.main(argv=sys.argv, exit=False, verbosity=1)
    if program.result.skipped and not program.result.failures and not program.result.errors:
        for _, why in program.result.skipped:
            print(f"SKIPPED: {why}")
        return 77
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())

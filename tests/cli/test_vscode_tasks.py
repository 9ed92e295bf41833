"""VS Code's watch task (.vscode/tasks.json) reads watch mode as it really prints.

The task runs watch mode in the fixture's copy of the course (fixture.py) the way the task
does: its command and its environment, in a pseudo-terminal. Its background patterns must see
each run begin and end, and its problem matcher (VS Code's $gcc pattern, from the task's base)
must put a compile error on the student's line. VS Code removes terminal escapes before matching,
as plain() does here.
"""
import json
import re
import shutil
import sys
import unittest
from pathlib import Path

from test_workflow import COPY, WORK, Terminal, plain, student_env

ROOT = Path(__file__).resolve().parents[2]
# VS Code's $gcc problem pattern (src/vs/workbench/contrib/tasks/common/problemMatcher.ts).
GCC = re.compile(r"^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$", re.M)


def tasks():
    """.vscode/tasks.json, less its whole-line // comments (VS Code reads JSON with comments)."""
    text = (ROOT / ".vscode" / "tasks.json").read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    return {task["label"]: task for task in json.loads("\n".join(lines))["tasks"]}


class WatchTask(unittest.TestCase):
    def setUp(self):
        if COPY is None or not (COPY / "checker" / "run").exists():
            self.skipTest("CLI_WORK does not name the fixture's copy (run the tests through CTest)")
        shutil.copyfile(WORK / "stubs" / "p01_naive.cu", COPY / "puzzles" / "p01_naive.cu")
        for path in ("backups", "build/pristine", "build/logs"):
            shutil.rmtree(COPY / path, ignore_errors=True)
        (COPY / "build" / "course-state.json").unlink(missing_ok=True)
        self.terminal = None

    def tearDown(self):
        if self.terminal:
            self.terminal.close()
        shutil.copyfile(WORK / "stubs" / "p01_naive.cu", COPY / "puzzles" / "p01_naive.cu")
        (COPY / "build" / "course-state.json").unlink(missing_ok=True)

    def test_the_watch_task_sees_each_run_begin_and_end_and_marks_a_compile_error(self):
        task = tasks()["Watch the current puzzle"]
        self.assertTrue(task["isBackground"])
        matcher = task["problemMatcher"]
        self.assertEqual(matcher["base"], "$gcc")
        self.assertEqual(matcher["fileLocation"], ["relative", "${workspaceFolder}"])
        begins = re.compile(matcher["background"]["beginsPattern"])
        ends = re.compile(matcher["background"]["endsPattern"])
        command = task["command"].split()
        self.assertEqual(command[0], "checker/run")
        env = student_env(**task["options"]["env"])
        self.terminal = Terminal(*command[1:], *task.get("args", []), env=env)

        first = self.terminal.expect(ends.pattern, timeout=120)
        output = plain(self.terminal.output)
        self.assertIsNotNone(begins.search(output[:first.start()]), output[-3000:])
        self.assertIn("not solved yet", first.group(0))

        # A save with a typo: the next run begins, ends, and its error names the line.
        self.terminal.mark()
        path = COPY / "puzzles" / "p01_naive.cu"
        text = path.read_text()
        marker = "  // FILL ME IN"
        self.assertIn(marker, text)
        line = text[:text.index(marker)].count("\n") + 1
        path.write_text(text.replace(marker, "  c[0] = not_declared_anywhere;\n" + marker, 1))
        second = self.terminal.expect(ends.pattern, timeout=120)
        output = plain(self.terminal.output)
        self.assertIsNotNone(begins.search(output[:second.start()]), output[-3000:])
        self.assertIn("does not compile", second.group(0))
        marks = [m for m in GCC.finditer(output[:second.start()]) if m.group(4) == "error"]
        self.assertTrue(marks, output[-3000:])
        self.assertEqual((marks[0].group(1), marks[0].group(2)), ("puzzles/p01_naive.cu", str(line)), marks[0].group(0))
        self.assertTrue((COPY / marks[0].group(1)).is_file(), "the path is relative to the course's folder")
        self.assertIn("not_declared_anywhere", marks[0].group(5))

        self.terminal.type("q")
        self.assertEqual(self.terminal.wait(), 0)


if __name__ == "__main__":
    program = unittest.main(exit=False, verbosity=1)
    if program.result.skipped and not program.result.failures and not program.result.errors:
        for _, why in program.result.skipped:
            print(f"SKIPPED: {why}")
        sys.exit(77)
    sys.exit(0 if program.result.wasSuccessful() else 1)

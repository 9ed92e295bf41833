#!/usr/bin/env python3
"""The diagnostic lines a checker prints after each located finding (docs/workflow.md, "Your editor's
problem list"): real broken kernels' checkers, run from different folders, read back with VS Code's
$gcc problem matcher's regular expression and, with GITHUB_ACTIONS=true, with GitHub's workflow
command format. The expected lines come from the kernels' source, found by their statements.
tests/report/CMakeLists.txt registers one CTest test per method:

    REPORT_TEST_BIN=build/default/test-bin REPORT_TEST_BROKEN_DIR=build/default/broken \\
        python3 tests/report/test_diagnostic_lines.py <method>
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("REPORT_TEST_BIN") or ROOT / "build" / "default" / "test-bin").resolve()
BROKEN = Path(os.environ.get("REPORT_TEST_BROKEN_DIR") or ROOT / "build" / "default" / "broken").resolve()

# The C/C++ extension's $gcc problem matcher (its package.json, "problemMatchers"), as VS Code applies
# it to each line: file, line, column (may be empty), severity, message.
VSCODE_GCC = re.compile(r"^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$")
# gcc's note lines, which the matcher leaves to the reader.
GCC_NOTE = re.compile(r"^(.*?):(\d+):(\d*):?\s+note:\s+(.*)$")
# GitHub's workflow command for an error annotation: ::error file={name},line={line},title={title}::{message}
GITHUB_ERROR = re.compile(r"^::error file=([^,:]*),line=(\d+),title=([^,:]*)::(.*)$")


def unescape(value):
    """GitHub's runner's unescaping of a workflow command's values (%0D, %0A, %3A, %2C, %25 last)."""
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        value = value.replace(code, char)
    return value


def line_of(source, statement):
    """The 1-based line of the one line of source that holds statement."""
    found = [i + 1 for i, text in enumerate(source.read_text(encoding="utf-8").splitlines()) if statement in text]
    assert len(found) == 1, f"{statement!r} is on lines {found} of {source}, not on one"
    return found[0]


def run(name, options, cwd, **env):
    binary = BIN / name
    if not binary.exists():
        raise AssertionError(f"{binary} is missing: build it first "
                             "(cmake --build <build> --target report_json_checkers)")
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("CHECKER_RUN_CWD", "GITHUB_ACTIONS", "GITHUB_WORKSPACE")}
    environment.update(NO_COLOR="1", **env)
    done = subprocess.run([str(binary), "--backend=cpu", *options], cwd=cwd, capture_output=True, text=True,
                          timeout=240, env=environment)
    return done


def errors(text):
    return [(i, VSCODE_GCC.match(line)) for i, line in enumerate(text.splitlines()) if VSCODE_GCC.match(line)]


class DiagnosticLines(unittest.TestCase):
    def race_source(self):
        source = BROKEN / "p02_missing_barrier.cu"
        self.assertTrue(source.exists(), f"{source} is missing: configure the build (tests/broken)")
        # The kernel copies its row of a into a_row, then reads it with no barrier between.
        return source, line_of(source, "a_row[k] = a["), line_of(source, "sum += a_row[k]")

    def check_race_lines(self, text, cwd, source, write_line, read_line):
        lines = text.splitlines()
        found = errors(text)
        self.assertTrue(found, "no line matches VS Code's $gcc problem matcher")
        for _, m in found:
            path, line, column, severity, message = m.groups()
            self.assertFalse(os.path.isabs(path), f"{path} is not relative to the folder the checker ran in")
            self.assertEqual((Path(cwd) / path).resolve(), source.resolve())
            self.assertIn(int(line), (write_line, read_line))
            self.assertEqual((column, severity), ("", "error"))
            self.assertRegex(message, r" \[(shared_race|uninitialized_shared)\]$")
        # The first race: thread (1,0) read a_row[0] that thread (0,0) wrote; the note is the write.
        index, first = found[0]
        self.assertEqual(first.group(2), str(read_line))
        self.assertTrue(first.group(5).startswith("shared-memory race: in block (0,0), a_row[0] was written by "
                                                  "thread (0,0)"), first.group(5))
        note = GCC_NOTE.match(lines[index + 1])
        self.assertIsNotNone(note, lines[index + 1])
        self.assertEqual((Path(cwd) / note.group(1)).resolve(), source.resolve())
        self.assertEqual(int(note.group(2)), write_line)
        self.assertIn("wrote a_row[0] here", note.group(4))
        # After the explanation, at the start of the line.
        explanation = next(i for i, line in enumerate(lines) if line.startswith("  Shared-memory race: "))
        self.assertLess(explanation, index)
        unwritten = [m for _, m in found if m.group(5).endswith("[uninitialized_shared]")]
        self.assertTrue(unwritten)
        self.assertTrue(all(m.group(2) == str(read_line) for m in unwritten))

    def test_race_lines_are_gcc_lines_relative_to_the_folder_they_ran_in(self):
        source, write_line, read_line = self.race_source()
        with tempfile.TemporaryDirectory() as elsewhere:
            for cwd in (ROOT, BIN, elsewhere):
                with self.subTest(cwd=str(cwd)):
                    done = run("broken_p02_missing_barrier", ["--size=5"], cwd)
                    self.assertEqual(done.returncode, 1, done.stderr)
                    self.check_race_lines(done.stdout, cwd, source, write_line, read_line)
                    self.assertNotIn("::error", done.stdout)
            # checker/run passes the folder the student typed the command in: paths start there.
            done = run("broken_p02_missing_barrier", ["--size=5"], ROOT, CHECKER_RUN_CWD=elsewhere)
            self.check_race_lines(done.stdout, elsewhere, source, write_line, read_line)

    def test_an_out_of_bounds_read_is_marked_on_its_line(self):
        source = BROKEN / "p01_off_by_one.cu"
        read_line = line_of(source, "k <= n; ++k")  # the loop that reads b one row too far
        done = run("broken_p01_off_by_one", ["--size=16"], BROKEN.parent)
        found = errors(done.stdout)
        self.assertTrue(found)
        for _, m in found:
            self.assertEqual(m.group(1), f"{BROKEN.name}/p01_off_by_one.cu")
            self.assertEqual(int(m.group(2)), read_line)
            self.assertRegex(m.group(5), r"^out-of-bounds read: thread \(\d+,\d+\) of block \(\d+,\d+\) read b\[\d+\] "
                                         r".*, but b has \d+ elements .*\[out_of_bounds\]$")

    def test_github_actions_get_workflow_commands_relative_to_the_workspace(self):
        source, write_line, read_line = self.race_source()
        workspace = BROKEN.parent
        with tempfile.TemporaryDirectory() as elsewhere:
            done = run("broken_p02_missing_barrier", ["--size=5"], elsewhere, GITHUB_ACTIONS="true",
                       GITHUB_WORKSPACE=str(workspace))
        self.check_race_lines(done.stdout, elsewhere, source, write_line, read_line)  # still there
        commands = [line for line in done.stdout.splitlines() if line.startswith("::")]
        self.assertTrue(commands)
        marked = set()
        for command in commands:
            m = GITHUB_ERROR.match(command)
            self.assertIsNotNone(m, command)
            file, line, title, message = m.group(1), int(m.group(2)), unescape(m.group(3)), unescape(m.group(4))
            self.assertEqual((workspace / unescape(file)).resolve(), source.resolve())
            self.assertFalse(os.path.isabs(unescape(file)))
            self.assertIn(line, (write_line, read_line))
            self.assertNotIn((line, title), marked, "the same line is marked twice for one kind")
            marked.add((line, title))
            self.assertNotIn("\n", m.group(4))  # one line, with its notes escaped in it
            if title == "Shared-memory race":
                first, *notes = message.split("\n")
                self.assertTrue(first.startswith("shared-memory race: in block "), first)
                self.assertTrue(notes and all(re.match(r"^line \d+: ", n) for n in notes), notes)
        self.assertEqual({t for _, t in marked}, {"Shared-memory race", "Read of unwritten shared memory"})
        self.assertIn((read_line, "Shared-memory race"), marked)

    def test_the_json_document_is_not_disturbed(self):
        # --json on stdout: the lines go with the text to stderr; the document parses alone.
        done = run("broken_p02_missing_barrier", ["--size=5", "--json"], ROOT, GITHUB_ACTIONS="true")
        doc = json.loads(done.stdout)
        self.assertEqual(doc["status"], 1)
        self.assertTrue(errors(done.stderr))
        self.assertIn("::error file=", done.stderr)
        finding = doc["kernels"][0]["cases"][0]["runs"][0]["findings"][0]
        self.assertEqual(finding["kind"], "shared_race")
        # The document's summary is the first diagnostic line's, without the kind.
        first = errors(done.stderr)[0][1]
        self.assertEqual(finding["summary"] + " [shared_race]", first.group(5))
        self.assertEqual(finding["at"]["line"], int(first.group(2)))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + [f"DiagnosticLines.{m}" for m in sys.argv[1:]], verbosity=1)

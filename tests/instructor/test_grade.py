#!/usr/bin/env python3
"""checker/run grade: a class folder made here from the course's own files, graded end to end;
bad input; archives; the words of each cell. tests/instructor/CMakeLists.txt registers one CTest
test per class:

    python3 tests/instructor/test_grade.py GradeClass     # one class
"""
import csv
import io
import os
import re
import shutil
import stat
import subprocess
import tarfile
import time
import unittest
import zipfile

from support import ROOT, build_dir, checker_run, main, tree_fingerprint, work_dir

from course import broken_kernels, grading  # noqa: E402  (support puts checker/cli on the path)
from course import grading_cpus  # noqa: E402
from course import grading_sandbox  # noqa: E402
from course import report  # noqa: E402
from course.grading_report import compile_error_words, failure_words
from course.grading_submissions import MAX_SOURCE_BYTES, Refused, read_class

BROKEN = {c.name: c for c in broken_kernels.changes(ROOT)}
PUZZLES = ["p01_naive", "p04_tiled", "p05_single_block_aat"]


def trailer(name):
    """A broken kernel's first '// Expect:' line, and whether it needs instrumented kernels."""
    text = broken(name)
    expect = re.search(r"^// Expect: (.*)$", text, re.M).group(1)
    return expect, "// Needs: instrumented kernels" in text


def expected_lines(expect):
    """The lines a trailer's finding names before ", but " (what a cell's words must name too)."""
    return set(re.findall(r"\bat line (\d+)", expect.split(", but ")[0]))


def corpus_report(name):
    """The --json report of a broken kernel's checker, as the corpus test left it when it ran the
    kernel (tests/checkers/test_findings.cpp; CTest runs it first, as this test's fixture)."""
    path = build_dir() / "corpus-reports" / f"{name}.json"
    doc = report.read(path)
    if doc is None:
        raise AssertionError(f"{path} is missing or unreadable: run the corpus test first "
                             f"(ctest --test-dir {build_dir()} -R 'every broken kernel in the corpus')")
    return doc


def solution(puzzle):
    return (ROOT / "solutions" / f"{puzzle}.cu").read_text(encoding="utf-8")


def stub(puzzle):
    return (ROOT / "puzzles" / f"{puzzle}.cu").read_text(encoding="utf-8")


def broken(name):
    """The broken kernel as a student would hand it in: its change applied to its solution."""
    return broken_kernels.derive(BROKEN[name])


class GradeClass(unittest.TestCase):
    """One grading run over a class with every kind of cell; each test reads its results."""

    RUN_LIMIT = 8  # seconds: stops hank's endless loop (the checker would let it run for 30); each run of
    # the other cells takes about a second of CPU on 2 cores, alice's p04 with --seed and --size the longest

    @classmethod
    def setUpClass(cls):
        build = build_dir()
        if not (build / "CMakeCache.txt").exists():
            raise unittest.SkipTest(f"no configured build at {build}: run checker/run test first")
        cls.work = work_dir("grade-class")
        cls.class_dir = cls.work / "class"
        cls.out = cls.work / "results"
        c = cls.class_dir
        cls.broken_line = len(solution("p01_naive").splitlines()) + 1
        # Every kind of cell: passes, findings, a compile error, a hang, archives, nothing to grade.
        files = {
            "alice/p01_naive.cu": solution("p01_naive"),
            "alice/p04_tiled.cu": solution("p04_tiled"),
            "alice/p05_single_block_aat.cu": solution("p05_single_block_aat"),
            "bob/p01_naive.cu": stub("p01_naive"),
            "bob/p04_tiled.cu": stub("p04_tiled"),
            "bob/p05_single_block_aat.cu": stub("p05_single_block_aat"),
            "carol/p01_naive.cu": solution("p01_naive") + "int not_cpp = ;\n",
            "carol/week3/p04_tiled.cu": broken("p04_missing_first_barrier"),
            "dan/p01_naive.cu": broken("p01_missing_guard"),
            "dan/p05_single_block_aat.cu": broken("p05_barrier_in_if"),
            "gina/notes.txt": "my kernels are in my other folder\n",
            "gina/p1.cu": solution("p01_naive"),
            "hank/p01_naive.cu": broken("p01_endless_loop"),
        }
        for name, text in files.items():
            (c / name).parent.mkdir(parents=True, exist_ok=True)
            (c / name).write_text(text, encoding="utf-8")
        with zipfile.ZipFile(c / "erin.zip", "w") as z:
            z.writestr("erin/p04_tiled.cu", solution("p04_tiled"))
            z.writestr("../p01_naive.cu", solution("p01_naive"))  # would land outside: never read
        member = io.BytesIO(broken("p05_bad_pointer").encode())
        with tarfile.open(c / "frank.tar.gz", "w:gz") as t:
            info = tarfile.TarInfo("frank/p05_single_block_aat.cu")
            info.size = len(member.getvalue())
            t.addfile(info, member)
        cls.before = tree_fingerprint(c)
        cls.status, cls.stdout, cls.stderr = checker_run(
            "grade", c, "--build-dir", build, "--backend=cpu", "--seed", "7", "--size", "17",
            "--timeout", "30", "--run-timeout", cls.RUN_LIMIT, "--out", cls.out, timeout=900)
        cls.after = tree_fingerprint(c)
        settings = build / "grading" / "settings.cmake"
        cls.instrumented = settings.exists() and grading.read_settings(build).get("PUZZLES_INSTRUMENTED") == "ON"
        cls.rows = {}
        if (cls.out / "results.csv").exists():
            rows = list(csv.reader(io.StringIO((cls.out / "results.csv").read_text(encoding="utf-8"))))
            cls.header = rows[0]
            cls.rows = {r[0]: dict(zip(rows[0], r)) for r in rows[1:]}

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "work", None) and cls.status == 0:
            shutil.rmtree(cls.work, ignore_errors=True)

    def cell(self, student, puzzle):
        self.assertIn(student, self.rows, f"no row for {student}:\n{self.stdout}\n{self.stderr}")
        return self.rows[student][puzzle]

    def detail(self, student):
        return (self.out / "details" / f"{student}.txt").read_text(encoding="utf-8")

    def expect_finding(self, student, puzzle, broken_name, words):
        """The cell names the finding (`words` starts it) and the lines the kernel's trailer names."""
        expect, needs_instrumentation = trailer(broken_name)
        cell = self.cell(student, puzzle)
        self.assertTrue(cell.startswith("fail: "), cell)
        if needs_instrumentation and not self.instrumented:
            return
        self.assertTrue(cell.startswith("fail: " + words), cell)
        for line in expected_lines(expect):
            self.assertIn(line, cell)

    def test_grading_ran_and_exits_with_status_0_whatever_the_grades(self):
        self.assertEqual(self.status, 0, f"{self.stdout}\n{self.stderr}")
        self.assertNotIn("Traceback", self.stderr)

    def test_the_class_folder_is_unchanged(self):
        self.assertEqual(self.before, self.after)
        self.assertFalse((self.work / "p01_naive.cu").exists(), "an archive member escaped")

    def test_solutions_pass_every_run_asked_for(self):
        for puzzle in PUZZLES:
            self.assertEqual(self.cell("alice", puzzle), "pass")
        detail = self.detail("alice")
        for run in ("p04_tiled --backend=cpu --timeout=30 (", "p04_tiled --backend=cpu --timeout=30 --seed=7 (",
                    "p04_tiled --backend=cpu --timeout=30 --size=17 --seed=7 ("):
            self.assertIn(run, detail)
        self.assertIn("from seed 7 ", detail)
        self.assertIn("--size=17 not run: p05_single_block_aat allows at most", detail)
        self.assertEqual(self.rows["alice"]["passed"], "3")

    def test_stubs_fail_with_their_unwritten_output(self):
        for puzzle in PUZZLES:
            self.assertRegex(self.cell("bob", puzzle), r"^fail: unwritten output \(\d+ of \d+ in \w+\)$")
        self.assertIn("Result: 0 of", self.detail("bob"))

    def test_broken_kernels_fail_with_the_finding_their_trailer_names(self):
        self.expect_finding("carol", "p04_tiled", "p04_missing_first_barrier", "race on a_tile")
        self.expect_finding("dan", "p01_naive", "p01_missing_guard", "out-of-bounds")
        self.expect_finding("dan", "p05_single_block_aat", "p05_barrier_in_if", "barrier divergence")
        self.expect_finding("frank", "p05_single_block_aat", "p05_bad_pointer", "crash")

    def test_a_compile_error_is_its_own_cell_with_the_line_and_the_compiler_output(self):
        self.assertRegex(self.cell("carol", "p01_naive"), rf"^compile error: line {self.broken_line}: ")
        detail = self.detail("carol")
        self.assertIn(f"p01_naive.cu:{self.broken_line}:", detail)
        self.assertIn("error:", detail)

    def test_a_checker_that_runs_past_the_time_limit_is_stopped_and_costs_only_its_cell(self):
        self.assertEqual(self.cell("hank", "p01_naive"), f"time limit: the checker ran past {self.RUN_LIMIT} s")
        self.assertEqual(self.cell("hank", "p04_tiled"), "missing")

    def test_archives_are_graded_and_their_unsafe_members_skipped(self):
        self.assertEqual(self.cell("erin", "p04_tiled"), "pass")
        self.assertEqual(self.cell("erin", "p01_naive"), "missing")
        self.assertIn("../p01_naive.cu: unsafe path in the archive, skipped", self.detail("erin"))

    def test_a_student_without_puzzle_files_is_a_row_of_missing_cells(self):
        self.assertEqual([self.cell("gina", p) for p in PUZZLES], ["missing"] * 3)
        self.assertIn("No puzzle files found", self.detail("gina"))
        self.assertIn("p1.cu: not a puzzle file name", self.detail("gina"))

    def test_the_markdown_table_and_the_csv_hold_the_same_cells(self):
        self.assertEqual(self.header, ["student"] + PUZZLES + ["passed"])
        self.assertEqual(sorted(self.rows), ["alice", "bob", "carol", "dan", "erin", "frank", "gina", "hank"])
        table = (self.out / "results.md").read_text(encoding="utf-8")
        for student, row in self.rows.items():
            cells = [row[p].replace("|", "\\|") for p in PUZZLES]
            line = f"| [{student}](details/{student}.txt) | " + " | ".join(cells) + f" | {row['passed']} of 3 |"
            self.assertIn(line, table)
        self.assertIn("| **passed** | 1 of 8 | 2 of 8 | 1 of 8 | |", table)

    def test_each_student_has_a_detail_file_with_the_full_checker_output(self):
        names = sorted(p.name for p in (self.out / "details").iterdir())
        self.assertEqual(names, [f"{s}.txt" for s in sorted(self.rows)])
        self.assertIn("Puzzle 1: ", self.detail("dan"))
        self.assertIn("Result: ", self.detail("dan"))


class UidBlocks(unittest.TestCase):
    """As root, each grading run's job slots take a block of uids that no process uses: two runs at
    once (shards on one machine, or two of these tests) never share a process limit. A fork bomb in
    the hostile-submissions test once failed a fork of this file's class, graded at the same time
    with the same uids."""

    class Picks:
        """A random source that gives the blocks it is told to, in turn."""

        def __init__(self, *blocks):
            self.blocks = list(blocks)

        def randrange(self, _):
            return self.blocks.pop(0)

    def test_a_block_with_a_process_in_it_is_passed_over(self):
        base = grading_sandbox.UID_BASE
        self.assertEqual(grading_sandbox.free_uid_block(3, {0, base + 2}, self.Picks(0, 5)), base + 5 * 1024)
        self.assertEqual(grading_sandbox.free_uid_block(3, {0, base + 3}, self.Picks(0, 5)), base)

    def test_a_running_process_takes_its_uid_out_of_reach(self):
        if os.geteuid() != 0 or not shutil.which("setpriv"):
            self.skipTest("needs root and setpriv to start a process as another uid")
        base = grading_sandbox.free_uid_block(3, rng=self.Picks(7))
        sleeper = subprocess.Popen(["setpriv", f"--reuid={base + 1}", f"--regid={base + 1}", "--clear-groups",
                                    "sleep", "30"])
        try:
            deadline = time.monotonic() + 10
            while base + 1 not in grading_sandbox.uids_in_use() and time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertEqual(grading_sandbox.free_uid_block(3, rng=self.Picks(7, 8)), base + 1024)
        finally:
            sleeper.kill()
            sleeper.wait()

    def test_two_sandboxes_at_once_have_no_uid_in_common(self):
        if os.geteuid() != 0:
            self.skipTest("as another user every slot is the grader's own uid in a user namespace")
        first, second = (grading_sandbox.Bubblewrap([], [], 2, bwrap="bwrap") for _ in range(2))
        uids = [sorted(s._uids.queue) for s in (first, second)]
        self.assertEqual([len(u) for u in uids], [3, 3])
        self.assertFalse(set(uids[0]) & set(uids[1]))
        self.assertTrue(all(u >= grading_sandbox.UID_BASE for u in uids[0] + uids[1]))


class ScratchFolders(unittest.TestCase):
    """A submission's scratch folder (its file and its copy of the build tree) goes as soon as its
    cell is graded, whatever the cell says; --keep keeps it."""

    def grade(self, keep):
        work = work_dir(f"grade-scratch-{'kept' if keep else 'removed'}")
        cell_dir = work / "001-ann" / "p01_naive"
        not_a_build = work / "not-a-build"  # exports nothing: the build fails at its configure
        not_a_build.mkdir()
        cell = grading.grade_one(not_a_build, {}, cell_dir, "p01_naive", solution("p01_naive").encode(), False,
                                 [], [], grading.Limits(60, 60), None, grading_sandbox.Bare(), None, keep)
        return cell, cell_dir

    def test_the_scratch_folder_goes_once_the_cell_is_graded(self):
        cell, cell_dir = self.grade(keep=False)
        self.assertEqual(cell.status, grading.ERROR, cell.text())
        self.assertFalse(cell_dir.exists(), f"{cell_dir} is still there")

    def test_keep_keeps_it(self):
        cell, cell_dir = self.grade(keep=True)
        self.assertEqual(cell.status, grading.ERROR, cell.text())
        self.assertTrue((cell_dir / "p01_naive.cu").is_file(), f"{cell_dir} was not kept")


class BadInput(unittest.TestCase):
    """Each mistake is caught before anything is built: status 2, one clear line, no traceback."""

    def setUp(self):
        self.work = work_dir("grade-bad-input")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def refused(self, says, *args):
        # A build folder that does not exist: grading must stop before it would be used.
        status, out, err = checker_run("grade", *args, "--build-dir", self.work / "no-build")
        self.assertEqual(status, 2, f"{out}\n{err}")
        self.assertIn(says, err)
        self.assertNotIn("Traceback", err)
        self.assertFalse((self.work / "no-build").exists())

    def test_a_missing_folder(self):
        self.refused("no such folder", self.work / "nobody")

    def test_a_file_instead_of_a_folder(self):
        (self.work / "class.txt").write_text("alice\n")
        self.refused("is not a folder", self.work / "class.txt")

    def test_an_empty_folder(self):
        (self.work / "empty").mkdir()
        self.refused("holds no student folders or archives", self.work / "empty")

    def test_puzzle_files_without_student_folders(self):
        (self.work / "loose").mkdir()
        (self.work / "loose" / "p04_tiled.cu").write_text(solution("p04_tiled"))
        self.refused("put each student's files in a folder of their own", self.work / "loose")

    def test_students_without_any_puzzle_file(self):
        (self.work / "class" / "alice").mkdir(parents=True)
        (self.work / "class" / "alice" / "matmul.cu").write_text(solution("p04_tiled"))
        self.refused("no puzzle files found", self.work / "class")

    def test_results_inside_the_class_folder(self):
        (self.work / "class" / "alice").mkdir(parents=True)
        (self.work / "class" / "alice" / "p04_tiled.cu").write_text(solution("p04_tiled"))
        before = tree_fingerprint(self.work / "class")
        self.refused("grading never writes to", self.work / "class", "--out", self.work / "class" / "grades")
        self.assertEqual(before, tree_fingerprint(self.work / "class"))

    def test_options_that_make_no_sense(self):
        (self.work / "class" / "alice").mkdir(parents=True)
        (self.work / "class" / "alice" / "p04_tiled.cu").write_text(solution("p04_tiled"))
        self.refused("--size=big: give N, or M x N x K", self.work / "class", "--size", "big")
        self.refused("no puzzle called 'p99'", self.work / "class", "--puzzles", "p01,p99")
        self.refused("take positive numbers", self.work / "class", "--jobs", "0")
        self.refused("invalid choice: 'tpu'", self.work / "class", "--backend", "tpu")
        self.refused("give the class folder (DIR), or --merge")
        self.refused("--merge needs --out RESULTS_DIR", "--merge", self.work / "class")


class Archives(unittest.TestCase):
    """Archives are read, never unpacked: only members named like a puzzle file, by name."""

    @classmethod
    def setUpClass(cls):
        cls.work = work_dir("grade-archives")
        c = cls.class_dir = cls.work / "class"
        c.mkdir()
        with zipfile.ZipFile(c / "zoe.zip", "w") as z:
            z.writestr("../escape/p04_tiled.cu", "x")
            z.writestr("/etc/p01_naive.cu", "x")
            z.writestr("zoe/deep/p05_single_block_aat.cu", "deep")
            z.writestr("zoe/p05_single_block_aat.cu", "shallow")
            z.writestr("zoe/p02_single_row_shared.cu", "/" * (MAX_SOURCE_BYTES + 1))
            z.writestr("zoe/p4.cu", "x")
            link = zipfile.ZipInfo("zoe/p03_row_col_shared.cu")
            link.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(link, "/etc/passwd")
        with tarfile.open(c / "tom.tgz", "w:gz") as t:
            for name, kind in (("tom/p04_tiled.cu", tarfile.SYMTYPE), ("tom/p01_naive.cu", tarfile.LNKTYPE)):
                info = tarfile.TarInfo(name)
                info.type, info.linkname = kind, "/etc/passwd"
                t.addfile(info)
            data = b"tom's kernel"
            info = tarfile.TarInfo("../../p05_single_block_aat.cu")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
            info = tarfile.TarInfo("tom/p02_single_row_shared.cu")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
        (c / "bad.zip").write_bytes(b"this is not a zip file")
        (c / "sam").mkdir()
        (c / "sam" / "p04_tiled.cu").symlink_to(ROOT / "solutions" / "p04_tiled.cu")
        (c / "pia").mkdir()
        os.mkfifo(c / "pia" / "p01_naive.cu")  # opening it would block for ever
        cls.before = tree_fingerprint(cls.work)
        found = read_class(c, ["p01_naive", "p02_single_row_shared", "p03_row_col_shared", "p04_tiled",
                               "p05_single_block_aat"])
        cls.after = tree_fingerprint(cls.work)
        cls.students = {s.name: s for s in found.students}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_nothing_is_written_anywhere(self):
        self.assertEqual(self.before, self.after)

    def test_only_the_shallowest_puzzle_file_of_each_name_is_taken(self):
        zoe = self.students["zoe"]
        self.assertEqual(zoe.files["p05_single_block_aat"], b"shallow")
        self.assertIn("zoe/deep/p05_single_block_aat.cu: ignored, zoe/p05_single_block_aat.cu is the "
                      "p05_single_block_aat.cu graded", zoe.notes)
        self.assertIn("zoe/p4.cu: not a puzzle file name, not graded", zoe.notes)

    def test_paths_that_leave_the_archive_and_huge_files_are_skipped_and_links_refused(self):
        zoe = self.students["zoe"]
        self.assertIn("../escape/p04_tiled.cu: unsafe path in the archive, skipped", zoe.notes)
        self.assertIn("/etc/p01_naive.cu: unsafe path in the archive, skipped", zoe.notes)
        self.assertEqual(zoe_refused := zoe.files.pop("p03_row_col_shared", None),
                         Refused("zoe/p03_row_col_shared.cu", "a symbolic link"))
        self.assertIn("zoe/p03_row_col_shared.cu: a symbolic link, not a regular file: refused", zoe.notes)
        zoe.files["p03_row_col_shared"] = zoe_refused
        self.assertTrue(any(n.startswith("zoe/p02_single_row_shared.cu: skipped, larger than") for n in zoe.notes))
        tom = self.students["tom"]
        self.assertEqual(tom.files, {"p02_single_row_shared": b"tom's kernel",
                                     "p04_tiled": Refused("tom/p04_tiled.cu", "a symbolic link"),
                                     "p01_naive": Refused("tom/p01_naive.cu", "a hard link")})
        self.assertIn("../../p05_single_block_aat.cu: unsafe path in the archive, skipped", tom.notes)

    def test_a_damaged_archive_a_linked_file_and_a_pipe_cost_only_their_student(self):
        self.assertEqual(self.students["bad"].files, {})
        self.assertTrue(self.students["bad"].notes[0].startswith("bad.zip: could not read the archive"))
        self.assertEqual(self.students["sam"].files, {"p04_tiled": Refused("p04_tiled.cu", "a symbolic link")})
        self.assertIn("p04_tiled.cu: a symbolic link, not a regular file: refused", self.students["sam"].notes)
        self.assertEqual(self.students["pia"].files, {"p01_naive": Refused("p01_naive.cu", "a named pipe")})


class Summaries(unittest.TestCase):
    """The few words of a cell, from the checker's report (--json) and the compiler's own output."""

    KNOWN = re.compile(r"^(out-of-bounds (read|write) of \w+|out-of-bounds shared memory|race on \w+|"
                       r"barrier divergence|crash(: | on the GPU: )|kernel time limit|launch refused: |"
                       r"unwritten output|wrong values|too many global loads|result depends on thread order|"
                       r"bank conflicts|scattered global loads|misaligned access|warp divergence|"
                       r"warp function misused|asynchronous copy used before its wait|"
                       r"read of unwritten shared memory|inline PTX|deadlock|assertion failed|"
                       r"shared memory used against|cluster synchronization missing|fence.proxy.async missing|"
                       r"wgmma accumulator used before its wait)")

    def test_every_corpus_finding_has_words_with_its_lines(self):
        self.assertGreater(len(BROKEN), 0)
        settings = build_dir() / "grading" / "settings.cmake"
        instrumented = settings.exists() and grading.read_settings(build_dir()).get("PUZZLES_INSTRUMENTED") == "ON"
        for name in sorted(BROKEN):
            expect, needs_instrumentation = trailer(name)
            if needs_instrumentation and not instrumented:
                continue
            with self.subTest(kernel=name):
                words = failure_words(corpus_report(name))
                self.assertRegex(words, self.KNOWN)
                if re.match(r"^[A-Z][\w -]+(:| in block | in thread )", expect):  # the finding's own line
                    for line in expected_lines(expect):
                        self.assertIn(line, words)

    def test_gpu_findings(self):
        def gpu_doc(finding):
            base = {"kind": "fault", "thread_known": False, "block": None, "thread": None, "at": None,
                    "buffer": None, "index": None, "is_write": False, "detail": ""}
            run = {"backend": "gpu", "refused": None, "findings": [dict(base, **finding)], "values": None,
                   "global_loads": None, "bank_conflicts": None, "scattered_loads": None, "order_dependent": None}
            return {"schema": 1, "error": None, "puzzle": {"id": "p01_naive", "output": "c"},
                    "kernels": [{"cases": [{"passed": False, "runs": [run]}]}]}

        self.assertEqual(failure_words(gpu_doc({"detail": "an illegal memory access was encountered "
                                                          "(cudaErrorIllegalAddress)"})),
                         "crash on the GPU: an illegal memory access was encountered")
        self.assertEqual(failure_words(gpu_doc({"kind": "out_of_bounds", "buffer": "out", "index": 4, "is_write": True})),
                         "out-of-bounds write of out")

    def test_an_unknown_finding_is_named_by_its_kind(self):
        doc = {"schema": 1, "error": None, "puzzle": {"output": "c"}, "kernels": [{"cases": [{"passed": False, "runs": [
            {"backend": "cpu", "refused": None, "values": None,
             "findings": [{"kind": "some_new_kind", "at": {"line": 3}}]}]}]}]}
        self.assertEqual(failure_words(doc), "some new kind (line 3)")

    def test_compile_errors(self):
        self.assertEqual(compile_error_words("p04_tiled.cu:12:5: error: use of undeclared identifier 'x'\n",
                                             "p04_tiled.cu"), "line 12: use of undeclared identifier 'x'")
        self.assertEqual(compile_error_words('p04_tiled.cu(12): error: identifier "x" is undefined\n', "p04_tiled.cu"),
                         'line 12: identifier "x" is undefined')
        self.assertEqual(compile_error_words("cpu.cpp:40:1: error: static assertion failed: matmul_tiled must keep "
                                             "its parameters exactly as given: .... Change only the kernel's "
                                             "body. [signature-check matmul_tiled]", "p04_tiled.cu"),
                         "the kernel's parameters were changed")
        # The tag decides, not the sentence: a reworded static_assert is still recognised.
        self.assertEqual(compile_error_words("cpu.cpp:40:1: error: static assertion failed: keep the parameters "
                                             "[signature-check matmul_tiled]", "p04_tiled.cu"),
                         "the kernel's parameters were changed")
        self.assertEqual(compile_error_words("cpu.cpp:31:9: error: no member named 'matmul_tiled' in the global "
                                             "namespace", "p04_tiled.cu"),
                         "no kernel called matmul_tiled")


class CoreShares(unittest.TestCase):
    """Each grading job runs on cores of its own (checker/cli/course/grading_cpus.py)."""

    def test_jobs_get_disjoint_cores_while_there_are_enough(self):
        self.assertEqual(grading_cpus.core_groups({1, 0}, 2), [[0], [1]])
        groups = grading_cpus.core_groups(range(8), 3)
        self.assertEqual(groups, [[0, 3, 6], [1, 4, 7], [2, 5]])
        self.assertEqual(sorted(c for g in groups for c in g), list(range(8)))

    def test_more_jobs_than_cores_share_a_core_each(self):
        self.assertEqual(grading_cpus.core_groups([0, 1], 3), [[0], [1], [0]])

    def test_one_job_or_no_cores_known_is_not_pinned(self):
        self.assertIsNone(grading_cpus.core_groups([0, 1], 1))
        self.assertIsNone(grading_cpus.core_groups([], 2))

    def test_a_command_of_a_pinned_slot_runs_on_its_cores_alone(self):
        shares = grading_cpus.CoreShares(2)
        if shares.taskset is None:
            self.skipTest("taskset is not installed (Debian package util-linux)")
        expected = grading_cpus.core_groups(os.sched_getaffinity(0), 2)
        seen = []
        for _ in expected:
            with shares.take() as group:
                slot = shares.pinned(grading_sandbox.Bare(), group)
                command, env = slot.wrap(["python3", "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                                         ROOT, 10, {})
                done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
                seen.append(done.stdout.strip())
                self.assertEqual(done.stdout.strip(), str(group))
        self.assertEqual(sorted(seen), sorted(str(g) for g in expected))


if __name__ == "__main__":
    main()

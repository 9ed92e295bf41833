#!/usr/bin/env python3
"""checker/run grade --shard K/N and --merge: a class graded in three shards and merged gives the
table of the class graded at once; merges that cannot be right are refused.

    python3 tests/instructor/test_grade_shards.py Shards
"""
import csv
import io
import json
import shutil
import unittest

from support import ROOT, build_dir, checker_run, main, work_dir

PUZZLE = "p01_naive"


def without_date(markdown):
    """The table without its "Graded:" line (the time of day is the one thing allowed to differ)."""
    return "".join(line for line in markdown.splitlines(keepends=True) if not line.startswith("- Graded: "))


class Shards(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        build = build_dir()
        if not (build / "CMakeCache.txt").exists():
            raise unittest.SkipTest(f"no configured build at {build}: run checker/run test first")
        cls.work = work_dir("grade-shards")
        c = cls.class_dir = cls.work / "class"
        solution = (ROOT / "solutions" / f"{PUZZLE}.cu").read_text(encoding="utf-8")
        stub = (ROOT / "puzzles" / f"{PUZZLE}.cu").read_text(encoding="utf-8")
        files = {"alice": solution, "bob": stub, "carol": solution + "int not_cpp = ;\n", "Dora": solution,
                 "eve": stub}
        for student, text in files.items():
            (c / student).mkdir(parents=True)
            (c / student / f"{PUZZLE}.cu").write_text(text, encoding="utf-8")
        (c / "fay").mkdir()  # nothing to grade: a row of missing cells, in whichever shard
        common = ["--build-dir", build, "--backend=cpu", "--jobs", "2", "--run-timeout", "60"]
        cls.whole = checker_run("grade", c, *common, "--out", cls.work / "whole", timeout=600)
        # Shard 3 writes where a shard writes without --out, a folder of its own next to the class.
        cls.shards = [checker_run("grade", c, *common, "--shard", f"{k}/3", "--out", cls.work / f"shard{k}",
                                  timeout=600) for k in (1, 2)]
        cls.shards.append(checker_run("grade", c, *common, "--shard", "3/3", timeout=600))
        (cls.work / "class-grades-shard3of3").rename(cls.work / "shard3")
        cls.merged = checker_run("grade", "--merge", *(cls.work / f"shard{k}" for k in (3, 1, 2)),
                                 "--out", cls.work / "merged")

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "work", None) and cls.merged[0] == 0:
            shutil.rmtree(cls.work, ignore_errors=True)

    def read(self, folder, name):
        return (self.work / folder / name).read_text(encoding="utf-8")

    def test_every_run_worked(self):
        for status, out, err in [self.whole, *self.shards, self.merged]:
            self.assertEqual(status, 0, f"{out}\n{err}")

    def test_each_shard_grades_every_third_student_by_name(self):
        names = [[r[0] for r in list(csv.reader(io.StringIO(self.read(f"shard{k}", "results.csv"))))[1:]]
                 for k in (1, 2, 3)]
        self.assertEqual(names, [["alice", "Dora"], ["bob", "eve"], ["carol", "fay"]])
        self.assertIn("Class: class (shard 2 of 3: 2 of 6 students, 1 puzzle)", self.read("shard2", "results.md"))

    def test_the_merged_table_is_the_table_of_the_whole_class(self):
        self.assertEqual(self.read("merged", "results.csv"), self.read("whole", "results.csv"))
        self.assertEqual(without_date(self.read("merged", "results.md")), without_date(self.read("whole", "results.md")))
        rows = list(csv.reader(io.StringIO(self.read("merged", "results.csv"))))
        self.assertEqual(len(rows), 7)
        self.assertEqual(rows[1][:2], ["alice", "pass"])
        self.assertTrue(rows[3][1].startswith("compile error"), rows)

    def test_the_merged_details_hold_each_students_checker_output(self):
        names = sorted(p.name for p in (self.work / "merged" / "details").iterdir())
        self.assertEqual(names, sorted(p.name for p in (self.work / "whole" / "details").iterdir()))
        self.assertIn("Result: 0 of", self.read("merged", "details/eve.txt"))

    def test_a_merge_that_cannot_be_right_is_refused(self):
        shard = lambda k: self.work / f"shard{k}"  # noqa: E731
        for says, folders in (("shard 2 of 3 is missing", [shard(1), shard(3)]),
                              ("are both shard 1 of 3", [shard(1), shard(1), shard(2), shard(3)]),
                              ("graded the whole class, not a shard", [self.work / "whole", shard(1)]),
                              ("holds no results.json", [self.class_dir])):
            with self.subTest(says=says):
                status, out, err = checker_run("grade", "--merge", *folders, "--out", self.work / "refused")
                self.assertEqual(status, 2, f"{out}\n{err}")
                self.assertIn(says, err)
                self.assertNotIn("Traceback", err)
                self.assertFalse((self.work / "refused").exists())

    def test_shards_of_different_options_are_refused(self):
        other = self.work / "other"
        shutil.copytree(self.work / "shard2", other)
        data = json.loads((other / "results.json").read_text(encoding="utf-8"))
        data["runs"] += ", --seed=7"
        (other / "results.json").write_text(json.dumps(data), encoding="utf-8")
        status, out, err = checker_run("grade", "--merge", self.work / "shard1", other, self.work / "shard3",
                                       "--out", self.work / "refused")
        self.assertEqual(status, 2, f"{out}\n{err}")
        self.assertIn("differ in their runs", err)

    def test_a_bad_shard_is_refused(self):
        for text in ("0/3", "4/3", "two", "1/0"):
            status, out, err = checker_run("grade", self.class_dir, "--shard", text, "--build-dir", self.work / "none")
            self.assertEqual(status, 2, f"{out}\n{err}")
            self.assertIn("give K/N", err)


if __name__ == "__main__":
    main()

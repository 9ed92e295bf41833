#!/usr/bin/env python3
"""checker/run classroom: GitHub Classroom's autograding workflow, one test per puzzle with its
points, in the format of classroom-resources/autograding-command-grader and -grading-reporter.

    python3 tests/instructor/test_classroom.py Classroom
"""
import re
import shutil
import unittest

from support import checker_run, main, work_dir

from course import specs  # noqa: E402  (support puts checker/cli on the path)


class Classroom(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = work_dir("classroom")
        cls.status, cls.out, cls.err = checker_run("classroom", cls.work, "--points", "5", "--points", "p04=20")
        path = cls.work / ".github" / "workflows" / "classroom.yml"
        cls.text = path.read_text(encoding="utf-8") if path.exists() else ""

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def steps(self):
        try:
            import yaml
        except ImportError:
            self.skipTest("PyYAML is not installed (Debian package python3-yaml)")
        workflow = yaml.safe_load(self.text)
        self.assertEqual(workflow["permissions"], {"checks": "write", "actions": "read", "contents": "read"})
        return workflow["jobs"]["run-autograding-tests"]["steps"]

    def test_written(self):
        self.assertEqual(self.status, 0, f"{self.out}\n{self.err}")
        total = 5 * (len(specs.load_all()) - 1) + 20
        self.assertIn(f"{total} points in all", self.out)

    def test_one_test_per_puzzle_running_its_checker_with_its_points(self):
        steps = self.steps()
        tests = [s for s in steps if s.get("uses", "").startswith("classroom-resources/autograding-command-grader@")]
        self.assertEqual([t["with"]["command"] for t in tests],
                         [f"checker/run {s['id']} --backend=cpu" for s in specs.load_all()])
        points = {t["with"]["command"].split()[1]: t["with"]["max-score"] for t in tests}
        self.assertEqual(points["p04_tiled"], 20)
        self.assertEqual(points["p01_naive"], 5)
        self.assertIn("apt-get install", tests[0]["with"]["setup-command"])

    def test_the_reporter_reads_every_test(self):
        steps = self.steps()
        reporter = steps[-1]
        self.assertTrue(reporter["uses"].startswith("classroom-resources/autograding-grading-reporter@"))
        ids = [s["id"] for s in steps if "id" in s]
        self.assertEqual(reporter["with"]["runners"].split(","), ids)
        for step in ids:  # the reporter reads <ID in capitals>_RESULTS
            self.assertEqual(reporter["env"][f"{step.upper()}_RESULTS"], f"${{{{steps.{step}.outputs.result}}}}")

    def test_bad_points_are_refused(self):
        for points, says in (("zero", "give a positive whole number"), ("p99=3", "no puzzle called 'p99'")):
            status, out, err = checker_run("classroom", self.work / "other", "--points", points)
            self.assertEqual(status, 2, f"{out}\n{err}")
            self.assertIn(says, err)
            self.assertFalse(re.search("Traceback", err))


if __name__ == "__main__":
    main()

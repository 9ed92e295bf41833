#!/usr/bin/env python3
"""checker/run handout: what the students' copy holds, what it refuses, and that the copy
builds and runs. tests/instructor/CMakeLists.txt registers one CTest test per class:

    python3 tests/instructor/test_handout.py HandoutContents
"""
import json
import os
import re
import shutil
import subprocess
import unittest

from support import ROOT, build_dir, checker_run, main, work_dir

from course import broken_kernels, handout, specs  # noqa: E402  (support puts checker/cli on the path)
import reuse_objects  # noqa: E402  (support puts tests/support on the path)

LINK = re.compile(r"\]\(([^)\s]+)\)")


def make_handout(name, *options):
    work = work_dir(name)
    copy = work / "copy"
    copy.mkdir()  # an empty folder is fine
    status, out, err = checker_run("handout", copy, *options)
    return work, copy, status, out, err


def relative_links(markdown_file):
    """The targets of the file's relative links, as paths (no web addresses, no anchors alone)."""
    found = []
    for target in LINK.findall(markdown_file.read_text(encoding="utf-8")):
        target = target.split("#", 1)[0]
        if target and not re.match(r"^[a-z]+:", target):
            found.append((markdown_file.parent / target).resolve())
    return found


class HandoutContents(unittest.TestCase):
    """The copy holds the course without the answers and without what serves only instructors."""

    @classmethod
    def setUpClass(cls):
        cls.work, cls.copy, cls.status, cls.out, cls.err = make_handout("handout-contents")
        cls.names = sorted(p.relative_to(cls.copy).as_posix() for p in cls.copy.rglob("*") if p.is_file())

    @classmethod
    def tearDownClass(cls):
        if cls.status == 0:
            shutil.rmtree(cls.work, ignore_errors=True)

    def test_the_handout_is_written_and_says_what_it_left_out(self):
        self.assertEqual(self.status, 0, f"{self.out}\n{self.err}")
        self.assertIn("solutions/: the reference solutions", self.out)
        self.assertTrue((self.copy / handout.MARKER).is_file())

    def test_no_solution_is_in_it_in_any_form(self):
        self.assertFalse((self.copy / "solutions").exists())
        self.assertFalse((self.copy / "tests" / "broken").exists())
        solutions = {p.read_bytes().strip() for p in (ROOT / "solutions").glob("*.cu")}
        for name in self.names:
            data = (self.copy / name).read_bytes()
            with self.subTest(file=name):
                self.assertNotIn(data.strip(), solutions)
                if name.endswith((".cu", ".cpp", ".h", ".in")):
                    self.assertNotRegex(data, rb'#\s*include\s*[<"][^>"\n]*solutions/')

    def test_no_instructor_preset(self):
        presets = json.loads((self.copy / "CMakePresets.json").read_text(encoding="utf-8"))
        names = {p["name"] for p in presets["configurePresets"]}
        self.assertNotIn("instructor", names)
        self.assertIn("default", names)
        for p in presets["configurePresets"]:
            self.assertNotIn("PUZZLES_USE_SOLUTIONS", p.get("cacheVariables", {}))
        for kind in ("buildPresets", "testPresets"):
            for p in presets.get(kind, []):
                self.assertIn(p["configurePreset"], names)

    def test_no_instructor_tools_tests_or_pages(self):
        for gone in ("checker/cli/commands/grade.py", "checker/cli/commands/handout.py", "checker/grading",
                     "checker/cmake/GradingExport.cmake", "tests/instructor", "docs/instructors.md",
                     "docs/dev/grading.md"):
            self.assertFalse((self.copy / gone).exists(), gone)
        self.assertFalse([n for n in self.names if re.match(r"checker/cli/course/(grading|handout)", n)])
        self.assertNotIn("GradingExport", (self.copy / "CMakeLists.txt").read_text(encoding="utf-8"))
        for page in ("README.md", "docs/README.md"):
            self.assertNotRegex((self.copy / page).read_text(encoding="utf-8"), r"(?mi)^#+\s+for instructors")
        done = subprocess.run([str(self.copy / "checker" / "run"), "help"], capture_output=True, text=True,
                              env=dict(os.environ, NO_COLOR="1"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("checker/run grade", done.stdout)
        self.assertNotIn("checker/run handout", done.stdout)

    def test_every_link_that_works_in_the_course_works_in_the_copy(self):
        for name in self.names:
            if not name.endswith(".md") or not (ROOT / name).exists():
                continue
            working = {str(t.relative_to(ROOT)) for t in relative_links(ROOT / name)
                       if t.exists() and ROOT in t.parents}
            for target in relative_links(self.copy / name):
                relative = str(target.relative_to(self.copy)) if self.copy in target.parents else None
                if relative in working:
                    with self.subTest(page=name, link=relative):
                        self.assertTrue(target.exists(), f"{name} links to {relative}, which the handout left out")

    def test_everything_else_is_copied_as_it_is(self):
        changed = {"CMakePresets.json", "CMakeLists.txt", "mkdocs.yml", handout.MARKER}
        for name in self.names:
            if name in changed or name.endswith(".md"):
                continue
            with self.subTest(file=name):
                self.assertEqual((self.copy / name).read_bytes(), (ROOT / name).read_bytes())
        # The site's nav loses exactly the pages left out, and nothing else.
        kept = (self.copy / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
        original = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
        dropped = [line for line in original if line not in kept]
        self.assertEqual(sorted(line.split()[-1] for line in dropped),
                         ["dev/grading.md", "instructors.md", "instructors/grading-classroom.md",
                          "instructors/grading-local.md", "instructors/grading-shards.md", "instructors:"])
        for puzzle in specs.load_all():
            self.assertTrue((self.copy / "puzzles" / f"{puzzle['id']}.cu").is_file())
        self.assertTrue(os.access(self.copy / "checker" / "run", os.X_OK))

    def test_keep_broken_keeps_the_corpus(self):
        work, copy, status, out, err = make_handout("handout-keep-broken", "--keep-broken")
        self.assertEqual(status, 0, err)
        changes = broken_kernels.changes(ROOT)
        self.assertTrue(changes)
        for change in changes:
            with self.subTest(change=change.name):
                self.assertEqual((copy / "tests" / "broken" / f"{change.name}.cu").read_text(encoding="utf-8"),
                                 broken_kernels.derive(change))
        kept_changes = [p.name for p in (copy / "tests" / "broken").glob("*.cu")
                        if broken_kernels.is_change(p.read_text(encoding="utf-8"))]
        self.assertEqual(kept_changes, [], "a change quotes its solution")
        shutil.rmtree(work, ignore_errors=True)


class HandoutRefuses(unittest.TestCase):
    """Nothing is overwritten, and the course never receives a copy of itself."""

    def setUp(self):
        self.work = work_dir("handout-refuses")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def refused(self, out, says):
        status, stdout, stderr = checker_run("handout", out)
        self.assertEqual(status, 2, f"{stdout}\n{stderr}")
        self.assertIn(says, stderr)
        self.assertNotIn("Traceback", stderr)

    def test_a_folder_that_is_not_empty(self):
        (self.work / "old").mkdir()
        (self.work / "old" / "notes.txt").write_text("keep me\n")
        self.refused(self.work / "old", "is not empty")
        self.assertEqual(sorted(p.name for p in (self.work / "old").iterdir()), ["notes.txt"])

    def test_a_file(self):
        (self.work / "file").write_text("x\n")
        self.refused(self.work / "file", "is a file")

    def test_a_folder_inside_the_course(self):
        inside = ROOT / "docs" / "handout-test-never-made"
        self.refused(inside, "is inside the course")
        self.assertFalse(inside.exists())


class HandoutRepository(unittest.TestCase):
    """--github names the published repository in the Colab badge and the notebook's COURSE cell."""

    def test_github_fills_in_the_badge_and_the_notebook(self):
        result = handout.plan(ROOT, False, github="my-school/matmul-puzzles")
        readme = result.changed["README.md"][0]
        self.assertIn("https://colab.research.google.com/github/my-school/matmul-puzzles/blob/main/docs/colab.ipynb",
                      readme)
        notebook = json.loads(result.changed["docs/colab.ipynb"][0])
        sources = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]
        self.assertIn('COURSE = "https://github.com/my-school/matmul-puzzles"', "\n".join(sources))
        for text in (readme, result.changed["docs/colab.ipynb"][0]):
            self.assertNotIn(handout.REPOSITORY_PLACEHOLDER, text)

    def test_without_it_the_placeholder_stays_and_the_command_says_so(self):
        result = handout.plan(ROOT, False)
        self.assertNotIn("docs/colab.ipynb", result.changed)
        self.assertIn(handout.REPOSITORY_PLACEHOLDER, (ROOT / "docs" / "colab.ipynb").read_text(encoding="utf-8"))

    def test_a_name_that_is_not_owner_slash_name_is_refused(self):
        work = work_dir("handout-repository")
        try:
            status, out, err = checker_run("handout", work / "copy", "--github", "https://github.com/x/y")
            self.assertEqual(status, 2, out + err)
            self.assertIn("give the repository as OWNER/NAME", err)
            self.assertFalse((work / "copy").exists())
        finally:
            shutil.rmtree(work, ignore_errors=True)


class HandoutSources(unittest.TestCase):
    """Only what git tracks is handed out; without git, a file that is not the course's own stops
    the handout; a class or grades folder never goes, tracked or not."""

    def setUp(self):
        self.work = work_dir("handout-sources")
        self.course = self.work / "course"
        for name in ("puzzles/p01_naive.cu", "docs/p01_naive.md", "README.md", "class/alice/p01_naive.cu",
                     "class/bob.zip", "grades/results.csv", "grades/results.md", "grades/details/alice.txt",
                     "backups/p01_naive.cu", "notes.txt"):
            (self.course / name).parent.mkdir(parents=True, exist_ok=True)
            (self.course / name).write_text(name + "\n")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def git(self, *args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=self.course, check=True,
                       capture_output=True)

    def test_with_git_only_tracked_files(self):
        if not shutil.which("git"):
            self.skipTest("git is not installed (Debian package git)")
        self.git("init", "-q")
        self.git("add", "puzzles", "docs", "README.md")
        self.git("commit", "-qm", "course")
        self.assertEqual(handout.course_files(self.course), ["README.md", "docs/p01_naive.md", "puzzles/p01_naive.cu"])

    def test_without_git_an_unknown_file_is_refused_and_named(self):
        with self.assertRaises(handout.HandoutError) as raised:
            handout.course_files(self.course)
        said = str(raised.exception)
        for name in ("class/alice/p01_naive.cu", "class/bob.zip", "grades/results.csv", "notes.txt"):
            self.assertIn(name, said)
        self.assertNotIn("backups/", said)  # never copied: the command line's own backups
        self.assertNotIn("puzzles/", said)

    def test_tracked_submissions_and_grades_are_left_out(self):
        if not shutil.which("git"):
            self.skipTest("git is not installed (Debian package git)")
        self.git("init", "-q")
        self.git("add", ".")
        self.git("commit", "-qm", "everything, by mistake")
        result = handout.plan(self.course, keep_broken=False)
        self.assertEqual(sorted(result.files), ["README.md", "docs/p01_naive.md", "notes.txt", "puzzles/p01_naive.cu"])
        self.assertEqual(result.left_out_shown[handout.CLASS], {"class/", "class/bob.zip"})
        self.assertEqual(result.left_out_shown[handout.GRADES], {"grades/"})


class HandoutBuild(unittest.TestCase):
    """The copy configures and builds a stub's checker the way a student does (checker/run pNN),
    and it fails cleanly: exit status 1, every case run, none passed. Objects that the copy
    compiles with the same command from the same bytes as this build are copied from it
    (tests/support/reuse_objects.py): a file the handout changed or left out is compiled."""

    def test_a_stub_checker_builds_in_the_copy_and_fails_cleanly(self):
        work, copy, status, out, err = make_handout("handout-build")
        self.assertEqual(status, 0, err)
        first = specs.load_all()[0]["id"]
        # The CPU-only preset: what CI has, and the quickest build.
        env = dict(os.environ, NO_COLOR="1", PRESET="cpu-only")
        launcher, _ = reuse_objects.best_launcher(build_dir(), ROOT, copy, copy / "build" / "cpu-only", work)
        if launcher:  # CMake's first configure takes the launcher from the environment
            env["CMAKE_CXX_COMPILER_LAUNCHER"] = ";".join(launcher)
        done = subprocess.run([str(copy / "checker" / "run"), first, "--backend=cpu"], cwd=copy,
                              capture_output=True, text=True, timeout=1800, env=env)
        self.assertEqual(done.returncode, 1, f"{done.stdout}\n{done.stderr}")
        self.assertIn("Result: 0 of", done.stdout)
        self.assertIn("Unwritten output", done.stdout)
        self.assertNotIn("Crash", done.stdout)
        shutil.rmtree(work, ignore_errors=True)


class HandoutSuite(unittest.TestCase):
    """The copy's own test suite passes: every test that needs what a handout leaves out skips."""

    def test_the_copy_passes_its_own_test_suite(self):
        if not os.environ.get("PUZZLES_TEST_HANDOUT_SUITE"):
            self.skipTest("set PUZZLES_TEST_HANDOUT_SUITE=1 to build a handout and run its whole test suite "
                          "(minutes)")
        work, copy, status, out, err = make_handout("handout-suite")
        self.assertEqual(status, 0, err)
        done = subprocess.run([str(copy / "checker" / "run"), "test"], cwd=copy, capture_output=True, text=True,
                              timeout=3500, env=dict(os.environ, NO_COLOR="1", PRESET="cpu-only"))
        self.assertEqual(done.returncode, 0, f"{done.stdout[-20000:]}\n{done.stderr[-5000:]}")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

"""checker/run shows the canaries' refusal as the reason a build failed (course/runner.py), and
keeps its usual words for any other failure outside the student's file. The build itself is
replaced by a stand-in that fails, so the test needs no compiler.

  python3 test_refusal_shown.py <test name>
"""
import io
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "checker" / "cli"))
from course import build, paths, runner  # noqa: E402

REFUSAL = "The course will not check kernels built by this compiler: Clang 99.0.0 (/usr/bin/clang++).\n"


class Preset:
    name = "cpu-only"


class RefusalShown(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.saved = {name: getattr(paths, name) for name in ("BUILD", "STATE", "LOGS", "REPORTS")}
        self.saved_build, self.saved_configure = build.build, build.configure
        paths.BUILD = Path(self.folder.name)
        paths.STATE = paths.BUILD / "course-state.json"
        paths.LOGS = paths.BUILD / "logs"
        paths.REPORTS = paths.BUILD / "reports"
        log = paths.BUILD / "failed.log"
        log.write_text("FAILED: canaries/canaries.stamp\nninja: build stopped: subcommand failed.\n")
        build.configure = lambda preset, out=None: True
        build.build = lambda preset, target: (1, log)

    def tearDown(self):
        for name, value in self.saved.items():
            setattr(paths, name, value)
        build.build, build.configure = self.saved_build, self.saved_configure
        self.folder.cleanup()

    def run_p01(self):
        out = io.StringIO()
        outcome = runner.run({"id": "p01_naive", "number": 1}, [], Preset(), out=out)
        return outcome, out.getvalue()

    def test_a_refused_compiler_is_the_reason_given(self):
        canaries = paths.BUILD / "cpu-only" / "canaries"
        canaries.mkdir(parents=True)
        (canaries / "refusal.txt").write_text(REFUSAL)
        outcome, printed = self.run_p01()
        self.assertEqual(outcome.status, 2)
        self.assertIn(REFUSAL.strip(), printed)
        self.assertNotIn("The build failed", printed)

    def test_without_a_refusal_the_usual_words_stay(self):
        outcome, printed = self.run_p01()
        self.assertEqual(outcome.status, 2)
        self.assertIn("The build failed, and not because of your file", printed)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: test_refusal_shown.py <test name>")
    result = unittest.TextTestRunner(verbosity=2).run(RefusalShown(sys.argv[1]))
    sys.exit(0 if result.wasSuccessful() else 1)

"""Commands started at the same moment in a fresh checkout (watch mode in one terminal and
`checker/run list` in another, or CTest running two tests): each must do its work, never end in
a traceback. The first command of a checkout keeps a pristine copy of every stub (course/stubs.py),
and two of them once wrote it through the same temporary file: the second rename found it gone.

  python3 test_concurrent_commands.py <test name>        (CTest runs it; see CMakeLists.txt)
"""
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import fixture  # noqa: E402  (its copy of the source tree: no build/, .git or backups/)

AT_ONCE = 8   # commands started together
ROUNDS = 6    # each round starts from a checkout no command has run in


class ConcurrentCommands(unittest.TestCase):
    def test_commands_started_at_once_in_a_fresh_checkout_all_succeed(self):
        with tempfile.TemporaryDirectory(prefix="course-concurrent-") as folder:
            copy = Path(folder) / "course"
            fixture.sync(ROOT, copy)
            for round_number in range(ROUNDS):
                shutil.rmtree(copy / "build", ignore_errors=True)
                started = [subprocess.Popen([str(copy / "checker" / "run"), "list"], cwd=copy, text=True,
                                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL)
                           for _ in range(AT_ONCE)]
                for command in started:
                    output, _ = command.communicate(timeout=120)
                    with self.subTest(round=round_number):
                        self.assertNotIn("Traceback", output)
                        self.assertEqual(command.returncode, 0, output)
                # Every stub was kept, whole, and no temporary file was left behind.
                kept = sorted(p.name for p in (copy / "build" / "pristine").iterdir())
                stubs = sorted(p.name for p in (copy / "puzzles").glob("p*.cu"))
                self.assertEqual(kept, stubs)
                for name in stubs:
                    self.assertEqual((copy / "build" / "pristine" / name).read_text(),
                                     (copy / "puzzles" / name).read_text())


def main():
    if len(sys.argv) != 2 or not hasattr(ConcurrentCommands, sys.argv[1]):
        sys.exit("usage: test_concurrent_commands.py <test name>")
    result = unittest.TextTestRunner(verbosity=2).run(ConcurrentCommands(sys.argv[1]))
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()

"""Watch mode's saves (checker/cli/course/watching.py, Saves) against real inotify events: each
way an editor saves a file is reported once, soon, and only once the file is whole.

    test_watch_saves.py [TestClass[.test_method]]

Each test writes files in a folder of its own the ways editors do (in place, a new file renamed
over the old one, a touch, a new file written slowly) and asks Saves what it saw, as watch
mode's loop does. Exits 77 (CTest's "Skipped") where inotifywait is missing."""
import os
import select
import shutil
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "checker" / "cli"))
from course import watching  # noqa: E402

NAME = "p04_tiled.cu"
WHOLE = b"__global__ void kernel() {}\n" * 200
# Longer than any save's own events take, shorter than a person's next save.
QUIET_SECONDS = 0.3


class Saves(unittest.TestCase):
    def setUp(self):
        self.folder = Path(tempfile.mkdtemp(prefix="watch-saves-"))
        self.addCleanup(shutil.rmtree, self.folder, True)
        (self.folder / NAME).write_bytes(WHOLE)
        self.saves = watching.Saves(self.folder)
        self.addCleanup(self.saves.close)
        self.assertEqual(self.saves.mechanism, "inotify", self.saves.note)
        self.saves.watch(NAME)
        time.sleep(0.2)  # inotifywait has set its watch (it prints nothing when it has: -q)

    def reports(self, seconds):
        """When (seconds from now) each report came and what the file held then, over `seconds`."""
        start, seen = time.monotonic(), []
        while (left := start + seconds - time.monotonic()) > 0:
            ready = select.select(self.saves.fds(), [], [], left)[0]
            if self.saves.check(ready):
                seen.append((time.monotonic() - start, (self.folder / NAME).read_bytes()))
        return seen

    def assert_one_whole_report(self, save, within=0.2):
        """Runs `save` beside Saves: one report, of the whole file; returns when it came (s)."""
        writer = threading.Thread(target=save)
        writer.start()
        seen = self.reports(QUIET_SECONDS + within)
        writer.join()
        self.assertEqual(len(seen), 1, f"reports at {[round(t, 3) for t, _ in seen]} s: one save, one run")
        at, text = seen[0]
        self.assertEqual(text, WHOLE, "the save was reported before the file was whole")
        return at

    def test_a_save_in_place_is_reported_once(self):
        def save():
            with open(self.folder / NAME, "wb") as f:
                f.write(WHOLE)
        self.assert_one_whole_report(save)

    def test_a_new_file_renamed_over_the_old_one_is_reported_once(self):
        def save():
            (self.folder / f".{NAME}.tmp").write_bytes(WHOLE)
            os.replace(self.folder / f".{NAME}.tmp", self.folder / NAME)
        self.assert_one_whole_report(save)

    def test_a_touch_is_reported_once(self):
        def save():
            os.utime(self.folder / NAME)  # attrib
            open(self.folder / NAME, "ab").close()  # close_write
        self.assert_one_whole_report(save)

    def test_a_file_created_and_written_slowly_is_reported_once_it_is_whole(self):
        # An editor that moves the old file aside, creates the new one and flushes it to disk
        # before it closes it: the create comes long before the write ends.
        def save():
            os.replace(self.folder / NAME, self.folder / f"{NAME}~")
            with open(self.folder / NAME, "wb") as f:
                f.write(WHOLE[:100])
                f.flush()
                time.sleep(0.25)
                f.write(WHOLE[100:])
        at = self.assert_one_whole_report(save, within=0.5)
        self.assertGreaterEqual(at, 0.25, "reported before the file was closed")

    def test_a_save_is_reported_within_a_twentieth_of_a_second(self):
        # An editor's save with a new mode after it, as some set it: one report, at once.
        def save():
            with open(self.folder / NAME, "wb") as f:
                f.write(WHOLE)
            os.chmod(self.folder / NAME, 0o644)
        at = self.assert_one_whole_report(save)
        self.assertLess(at, 0.05, "watch mode waited after the save was whole")

    def test_other_files_in_the_folder_are_not_reported(self):
        def save():
            (self.folder / "p05_other.cu").write_bytes(WHOLE)
            (self.folder / f".{NAME}.swp").write_bytes(b"swap")
        writer = threading.Thread(target=save)
        writer.start()
        seen = self.reports(QUIET_SECONDS)
        writer.join()
        self.assertEqual(seen, [])


if __name__ == "__main__":
    if not shutil.which("inotifywait"):
        print("SKIPPED: inotifywait is not installed (Debian package inotify-tools)")
        sys.exit(77)
    unittest.main(verbosity=2)

"""What watch mode waits on: saves of a file, and the student's keys.

Saves: inotifywait (Debian's inotify-tools) on the puzzles/ folder, which sees an editor's
save at once, including editors that write a new file and rename it over the old one, and a
`touch`; without
it, or with --poll (folders shared from another machine, where inotify sees nothing), the
file's size, time and inode are compared every 0.3 s.

Keys: on a terminal, one key at a time without Enter and without echo (the terminal's mode is
put back on the way out, whatever the way out); from a pipe, one command per line.
"""
import os
import re
import select
import shutil
import subprocess
import termios
import time

POLL_SECONDS = 0.3
ESCAPES = re.compile(r"\x1b(\[[0-9;]*[A-Za-z~]|O.|.)?")  # arrow keys and the like: not commands
SETTLE_SECONDS = 0.05  # polling: a changed file may still be being written
# An editor's save is several events, taken as one. It is whole once the file is closed after a
# write or renamed into place; what comes with it (a new mode, a new time) comes within
# microseconds, the same editor's next calls.
AFTER_WRITTEN_SECONDS = 0.01
# A file created or touched but not yet closed after a write (an editor that writes a new file
# and flushes it to disk before closing it): waited for this long, then run as it is.
UNTIL_WRITTEN_SECONDS = 1.0
# inotify's names for the events that end a save.
WRITTEN = {"CLOSE_WRITE", "MOVED_TO"}


class Keys:
    def __init__(self, stream):
        try:
            self.fd = stream.fileno()
        except (AttributeError, ValueError, OSError):
            self.fd = None
        self.tty = self.fd is not None and os.isatty(self.fd)
        self.closed = self.fd is None
        self.saved = None
        self.pending = ""

    def __enter__(self):
        if self.tty:
            self.saved = termios.tcgetattr(self.fd)
            mode = termios.tcgetattr(self.fd)
            mode[3] &= ~(termios.ICANON | termios.ECHO)  # keys at once, not echoed; Ctrl-C still works
            mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
            termios.tcsetattr(self.fd, termios.TCSANOW, mode)
        return self

    def __exit__(self, *exc):
        self.restore()
        return False

    def restore(self):
        if self.saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
            self.saved = None

    def read(self):
        """The commands that arrived: single characters from a terminal, words from a pipe."""
        try:
            data = os.read(self.fd, 256).decode("utf-8", errors="replace")
        except OSError:
            data = ""
        if not data:
            self.closed = True  # end of input: keep watching, stop reading
            return []
        if self.tty:
            data = ESCAPES.sub("", data)
            return [c.lower() for c in data if c.isprintable() and not c.isspace() or c == "\x04"]
        self.pending += data
        *lines, self.pending = self.pending.split("\n")
        return [line.strip().lower() for line in lines if line.strip()]


class Saves:
    """Reports saves of one file at a time (the file can change: watch mode moves on)."""

    def __init__(self, folder, poll=False):
        self.folder = folder
        self.name = None
        self.process = None
        self.buffer = b""
        self.note = None  # why polling, when inotifywait was wanted
        self.signature = None
        if not poll:
            if shutil.which("inotifywait"):
                self._start_inotify()
            else:
                self.note = "inotifywait is not installed (Debian package inotify-tools)"

    def _start_inotify(self):
        try:
            self.process = subprocess.Popen(
                ["inotifywait", "-m", "-q", "-e", "close_write", "-e", "moved_to", "-e", "create", "-e", "attrib",
                 "--format", "%e %f", str(self.folder)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        except OSError as error:
            self.process, self.note = None, f"inotifywait did not start ({error.strerror})"

    @property
    def mechanism(self):
        return "inotify" if self.process else "polling every 0.3 s"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        if self.process:
            self.process.terminate()
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process.stdout.close()
            self.process.stderr.close()
            self.process = None

    def watch(self, name):
        """From now on, report saves of folder/name; a save before this call is not reported."""
        self.name = name
        self.signature = self._stat()

    def _stat(self):
        try:
            info = os.stat(self.folder / self.name)
            return (info.st_mtime_ns, info.st_size, info.st_ino)
        except OSError:
            return None

    def fds(self):
        return [self.process.stdout.fileno()] if self.process else []

    def timeout(self):
        return None if self.process else POLL_SECONDS

    def check(self, ready):
        """True when the watched file was saved; `ready` are the fds select() found readable."""
        if not self.process:
            now = self._stat()
            if now != self.signature:
                time.sleep(SETTLE_SECONDS)
                self.signature = self._stat()
                return True
            return False
        if self.process.stdout.fileno() not in ready:
            return False
        events = self._read_events()
        if not events:
            return False
        # Take the rest of the same save with it: at once where the file is written, else until it is.
        deadline = time.monotonic() + UNTIL_WRITTEN_SECONDS
        while self.process:
            wait = AFTER_WRITTEN_SECONDS if events & WRITTEN else deadline - time.monotonic()
            if wait <= 0 or not select.select(self.fds(), [], [], wait)[0]:
                break
            events |= self._read_events()
        return True

    def _read_events(self):
        """The events inotifywait reported for the watched file since the last read: a set of
        inotify's names (CLOSE_WRITE, MOVED_TO, CREATE, ATTRIB); empty for other files' events."""
        chunk = os.read(self.process.stdout.fileno(), 4096)
        if not chunk:  # inotifywait stopped (too many watches, say): poll from now on
            try:
                message = self.process.stderr.read().decode("utf-8", errors="replace").strip()
            except OSError:
                message = ""
            self.close()
            self.note = f"inotifywait stopped ({message or 'no reason given'})"
            self.signature = self._stat()
            return set()
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        events = set()
        for line in lines:
            names, _, file = line.decode("utf-8", errors="replace").partition(" ")
            if file == self.name:
                events.update(names.split(","))
        return events

"""Child processes for grading: a time limit, bounded output, and a way to stop them all.

Students' kernels are untrusted: a checker can print without end, and a build or a run can
hang. Each child runs in a process group of its own, so that a time limit (or Ctrl-C) ends it
together with whatever it forked, and only the first and last part of a flood of output is kept.
"""
import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

HEAD_BYTES = 512 * 1024
TAIL_BYTES = 64 * 1024
# A child that prints more than this is stopped: an endless print ends in a second, not at the
# time limit.
OUTPUT_LIMIT = 16 * 1024 * 1024


@dataclass
class Finished:
    status: int | None  # None when the time limit or the output limit stopped it
    output: str
    seconds: float
    over_output: bool = False  # stopped for printing more than OUTPUT_LIMIT

    @property
    def timed_out(self):
        return self.status is None


_live = set()
_live_lock = threading.Lock()
_stopping = threading.Event()


def _kill_group(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def stop_all():
    """Ends every child still running (on Ctrl-C), each by its own process group, and starts
    no more."""
    _stopping.set()
    with _live_lock:
        running = list(_live)
    for process in running:
        _kill_group(process)


class _BoundedReader(threading.Thread):
    """Keeps the first HEAD_BYTES and the last TAIL_BYTES of a pipe, and drops the middle."""

    def __init__(self, pipe, on_flood=None):
        super().__init__(daemon=True)
        self.pipe = pipe
        self.on_flood = on_flood
        self.total = 0
        self.flooded = False
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0

    def run(self):
        while True:
            chunk = self.pipe.read1(65536) if hasattr(self.pipe, "read1") else self.pipe.read(65536)
            if not chunk:
                break
            self.total += len(chunk)
            if self.total > OUTPUT_LIMIT and not self.flooded and self.on_flood:
                self.flooded = True
                self.on_flood()
            room = HEAD_BYTES - len(self.head)
            if room > 0:
                self.head += chunk[:room]
                chunk = chunk[room:]
            if chunk:
                self.tail += chunk
                if len(self.tail) > TAIL_BYTES:
                    self.dropped += len(self.tail) - TAIL_BYTES
                    del self.tail[:len(self.tail) - TAIL_BYTES]

    def text(self):
        text = self.head.decode("utf-8", "replace")
        if self.dropped:
            text += f"\n[... {self.dropped} bytes of output left out ...]\n"
        return text + self.tail.decode("utf-8", "replace")


def run(command, cwd, time_limit, env=None):
    """Runs command with stdout and stderr together; kills its process group at the time limit."""
    start = time.monotonic()
    with _live_lock:  # so that stop_all() either sees this child or stops it from starting
        if _stopping.is_set():
            return Finished(None, "(not started: grading was interrupted)\n", 0.0)
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        _live.add(process)
    reader = _BoundedReader(process.stdout, on_flood=lambda: _kill_group(process))
    reader.start()
    try:
        status = process.wait(timeout=time_limit)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        process.wait()
        status = None
    finally:
        with _live_lock:
            _live.discard(process)
    # A grandchild that left the process group could keep the pipe open: do not wait for it.
    reader.join(timeout=5)
    process.stdout.close()
    if reader.flooded:
        status = None
    return Finished(status, reader.text(), time.monotonic() - start, reader.flooded)

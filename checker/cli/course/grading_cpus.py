"""The cores each grading job runs on.

Grading runs `jobs` submissions at once, one per core by default. A checker on the CPU backend
starts one worker per core it may use (engine: usable_cores()), so two checkers on two cores
would each start two workers, four threads taking turns on two cores, and each worker faults in
its own fiber stacks and shadow memory in the launch's fresh process. Each job therefore gets
cores of its own: its commands (the build and the checker) run under taskset, and a checker then
starts as many workers as its job has cores. The verdicts are the same (a correct kernel passes
with any number of workers, and the findings are the same); only the CPU time changes."""
import contextlib
import os
import queue
import shutil


def core_groups(cores, jobs):
    """The cores of each of `jobs` jobs, disjoint while there are enough: every job gets cores
    dealt in turn; with more jobs than cores, jobs share a core each. None where one job has
    every core (a single job), or nothing is known of the cores."""
    cores = sorted(cores)
    if jobs <= 1 or not cores:
        return None
    if jobs >= len(cores):
        return [[cores[i % len(cores)]] for i in range(jobs)]
    return [cores[i::jobs] for i in range(jobs)]


class CoreShares:
    """Hands each running job its group of cores (take()), and back when it ends."""

    def __init__(self, jobs):
        self.taskset = shutil.which("taskset")
        groups = core_groups(os.sched_getaffinity(0), jobs) if self.taskset else None
        self._groups = None
        if groups:
            self._groups = queue.Queue()
            for group in groups:
                self._groups.put(group)

    @contextlib.contextmanager
    def take(self):
        """A group of cores for one submission (None: no pinning); given back when it is graded."""
        if self._groups is None:
            yield None
            return
        group = self._groups.get()
        try:
            yield group
        finally:
            self._groups.put(group)

    def pinned(self, slot, group):
        """slot, with its commands run on the cores of group alone (slot itself for None)."""
        return slot if group is None else _PinnedSlot(slot, self.taskset, group)


class _PinnedSlot:
    """A sandbox slot whose commands run under taskset: the sandbox, the build and the checker
    inherit the cores."""

    def __init__(self, slot, taskset, group):
        self._slot = slot
        self._prefix = [taskset, "-c", ",".join(str(core) for core in group)]

    def __getattr__(self, name):
        return getattr(self._slot, name)

    def wrap(self, command, *args, **kwargs):
        wrapped, env = self._slot.wrap(command, *args, **kwargs)
        return self._prefix + list(wrapped), env

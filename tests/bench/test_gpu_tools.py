#!/usr/bin/env python3
"""bench/gpu's tools, checked without a GPU: make_p13_trace.py's edits to puzzle 13's reference
kernel (each anchor line found exactly once, the kernel otherwise unchanged)."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "bench" / "gpu" / "make_p13_trace.py"
SOLUTION = ROOT / "solutions" / "p13_warp_specialization.cu"


def trace(source_text):
    """(exit status, traced text, stderr) of make_p13_trace.py on source_text."""
    with tempfile.TemporaryDirectory() as work:
        source, out = Path(work) / "kernel.cu", Path(work) / "traced.cu"
        source.write_text(source_text, encoding="utf-8")
        r = subprocess.run([sys.executable, str(TOOL), str(source), str(out)], capture_output=True, text=True,
                           timeout=30)
        return r.returncode, out.read_text(encoding="utf-8") if out.exists() else "", r.stderr


class GpuTools(unittest.TestCase):
    def test_the_trace_fits_puzzle_13s_reference_kernel(self):
        original = SOLUTION.read_text(encoding="utf-8")
        status, traced, err = trace(original)
        self.assertEqual(status, 0, err)
        # Every record the schedule tool reads is written somewhere.
        for record in ("trace_rec[0] = sm_id()", "trace_rec[3] = global_ns()", "trace_rec[5] = traced_tiles",
                       "trace_rec[6] = global_ns()", "trace_rec[TRACE_FIRST_TILE + traced_tiles]"):
            self.assertIn(record, traced)
        # Lines are only added: the solution's lines are all there, in their order.
        remaining = iter(traced.splitlines())
        for line in original.splitlines():
            self.assertIn(line, remaining, f"line changed or lost: {line!r}")

    def test_a_kernel_it_does_not_fit_is_refused(self):
        original = SOLUTION.read_text(encoding="utf-8")
        anchor = "    registers_up<232>();"
        self.assertIn(anchor, original)
        status, traced, err = trace(original.replace(anchor, "    registers_up<240>();"))
        self.assertNotEqual(status, 0)
        self.assertIn("registers_up<232>();", err)
        self.assertIn("occurs 0 times", err)
        self.assertEqual(traced, "")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        suite = unittest.TestSuite([GpuTools(name) for name in sys.argv[1:]])
        sys.exit(0 if unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful() else 1)
    unittest.main()

#!/usr/bin/env python3
"""bench/summarize_variants.py on --bench-csv files: each kernel row beside cuBLAS's time at the
same shape from the same puzzle's checker, also where one file holds a whole run (several
puzzles timed at the same shape)."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "bench" / "summarize_variants.py"
HEADER = "puzzle,implementation,cublas,m,n,k,milliseconds,tflops,percent_of_baseline,baseline,device,launches"


def row(puzzle, implementation, cublas, ms, percent):
    return (f'{puzzle},{implementation},{cublas},4096,4096,4096,{ms},1.000,{percent},cuBLAS HGEMM,'
            f'"GPU (sm_90, 132 SMs)",25')


def summarize(*files, median=False):
    with tempfile.TemporaryDirectory() as work:
        paths = []
        for number, lines in enumerate(files, start=1):
            path = Path(work) / f"bench-{number}.csv"
            path.write_text("\n".join([HEADER, *lines]) + "\n", encoding="utf-8")
            paths.append(str(path))
        r = subprocess.run([sys.executable, str(TOOL), *(["--median"] if median else []), *paths],
                           capture_output=True, text=True, timeout=30)
        return r.returncode, r.stdout, r.stderr


# Two puzzles in one run, each with its own cuBLAS row at the same shape (timed in turn with it).
RUN = [row("p11_mma_sync", "matmul_mma_sync", 0, "0.3564", "63.66"),
       row("p11_mma_sync", "cuBLAS HGEMM", 1, "0.2269", "100.00"),
       row("p12_tma_wgmma", "matmul_tma_wgmma", 0, "0.2489", "86.56"),
       row("p12_tma_wgmma", "cuBLAS HGEMM", 1, "0.2154", "100.00")]


class SummarizeVariants(unittest.TestCase):
    def test_each_kernel_row_is_beside_its_own_puzzles_cublas(self):
        status, out, err = summarize(RUN)
        self.assertEqual(status, 0, err)
        lines = out.splitlines()
        self.assertEqual(len(lines), 2, out)
        self.assertTrue(lines[0].startswith("bench-1 p11 "), lines[0])
        self.assertIn("0.3564 ms", lines[0])
        self.assertIn("cuBLAS   0.2269 ms", lines[0])
        self.assertTrue(lines[1].startswith("bench-1 p12 "), lines[1])
        self.assertIn("cuBLAS   0.2154 ms", lines[1])

    def test_a_file_of_one_puzzle_is_named_by_the_file_alone(self):
        status, out, err = summarize(RUN[:2])
        self.assertEqual(status, 0, err)
        self.assertTrue(out.startswith("bench-1                  4096x4096x4096"), out)

    def test_median_over_rounds_per_puzzle_and_shape(self):
        second = [r.replace("63.66", "62.21").replace("86.56", "87.49") for r in RUN]
        third = [r.replace("63.66", "60.26").replace("86.56", "83.76") for r in RUN]
        status, out, err = summarize(RUN, second, third, median=True)
        self.assertEqual(status, 0, err)
        p11 = next(line for line in out.splitlines() if line.startswith("p11_mma_sync"))
        p12 = next(line for line in out.splitlines() if line.startswith("p12_tma_wgmma"))
        self.assertIn("63.66 %, 62.21 %, 60.26 %", p11)
        self.assertTrue(p11.endswith("62.21 %"), p11)
        self.assertTrue(p12.endswith("86.56 %"), p12)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        suite = unittest.TestSuite([SummarizeVariants(name) for name in sys.argv[1:]])
        sys.exit(0 if unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful() else 1)
    unittest.main()

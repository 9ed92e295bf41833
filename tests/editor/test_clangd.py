"""clangd reads kernel files through the build's compilation database (EditorDatabase.cmake).

With DATABASE/compile_commands.json and the course's .clangd, `clangd --check` reports no error
for puzzle 4's stub and for a Hopper kernel with inline PTX (puzzle 13's solution, or its stub in a
handout), and does report a typo: a copy of the stub whose kernel calls `__syncthreds()` gets an
error on that line, while the same copy spelled right gets none. The copies live in a scratch
folder with the stub's own database entry, the file name changed, and the course's .clangd.

  python3 test_clangd.py --source SOURCE --database BUILD/editor
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

# clangd --check prints each diagnostic it would publish; an error is an "E[time]" line:
#   E[10:11:12.345] [undeclared_var_use] Line 12: use of undeclared identifier '__syncthreds'
ERROR = re.compile(r"^E\[\d\d:\d\d:\d\d\.\d+\] (.*)$", re.M)
LINE = re.compile(r"\bLine (\d+): ")
ARGS = None


def check(path, database, cwd):
    """The error lines of `clangd --check` on one file, and clangd's whole output."""
    done = subprocess.run(["clangd", f"--compile-commands-dir={database}", f"--check={path}", "--check-lines=1"],
                          cwd=cwd, capture_output=True, text=True, timeout=240)
    output = done.stdout + done.stderr
    if "All checks completed" not in output:
        raise AssertionError(f"clangd --check did not finish (status {done.returncode}):\n{output[-3000:]}")
    return ERROR.findall(output), output


class Clangd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.source = Path(ARGS.source).resolve()
        cls.database = Path(ARGS.database).resolve()
        path = cls.database / "compile_commands.json"
        if not path.exists():  # the build writes it (target editor_database, part of every checker's build)
            raise AssertionError(f"{path} is missing: the build should have written it")
        cls.entries = {Path(e["file"]).resolve(): e for e in json.loads(path.read_text())}

    def test_every_kernel_file_has_an_entry_as_the_cpu_backend_compiles_it(self):
        files = sorted(self.source.glob("puzzles/*.cu")) + sorted(self.source.glob("solutions/*.cu"))
        self.assertTrue(files)
        for file in files:
            with self.subTest(file=file.name):
                arguments = self.entries[file.resolve()]["arguments"]
                self.assertEqual(arguments[arguments.index("-include") + 1], "cuda_cpu/kernel_shim.h")
                self.assertEqual(arguments[arguments.index("-x") + 1], "c++")
                self.assertTrue(any(a.endswith("/cuda_cpu/compat") for a in arguments), arguments)
        # CMake's own entries are there too: the engine's sources.
        self.assertTrue(any("checker/engine/src" in str(f) for f in self.entries))

    def test_a_stub_and_a_hopper_kernel_have_no_error(self):
        hopper = self.source / "solutions" / "p13_warp_specialization.cu"
        if not hopper.exists():  # a handout: the stub has the same inline PTX helpers
            hopper = self.source / "puzzles" / "p13_warp_specialization.cu"
        self.assertIn('"h"(', hopper.read_text(), "the Hopper kernel still binds a 16-bit PTX operand")
        for file in (self.source / "puzzles" / "p04_tiled.cu", hopper):
            with self.subTest(file=file.name):
                errors, output = check(file, self.database, self.source)
                self.assertEqual(errors, [], output[-3000:])

    def test_a_typo_is_reported_on_its_line(self):
        stub = self.source / "puzzles" / "p04_tiled.cu"
        text = stub.read_text()
        opening = "__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {\n"
        self.assertIn(opening, text)
        line = text[:text.index(opening)].count("\n") + 2
        body = ("  __shared__ float tile[TILE][TILE];\n  tile[threadIdx.y][threadIdx.x] = a[blockIdx.x];\n"
                "  {}();\n  c[0] = tile[0][0];\n")
        with tempfile.TemporaryDirectory() as scratch:
            scratch = Path(scratch)
            shutil.copyfile(self.source / ".clangd", scratch / ".clangd")
            entries = []
            for name, barrier in (("right.cu", "__syncthreads"), ("typo.cu", "__syncthreds")):
                (scratch / name).write_text(text.replace(opening, opening + body.format(barrier)))
                entry = dict(self.entries[stub.resolve()])
                entry["arguments"] = [str(scratch / name) if Path(a) == stub or a == str(stub) else a
                                      for a in entry["arguments"]]
                entry["file"] = str(scratch / name)
                entries.append(entry)
            (scratch / "compile_commands.json").write_text(json.dumps(entries))
            errors, output = check(scratch / "right.cu", scratch, scratch)
            self.assertEqual(errors, [], output[-3000:])
            errors, output = check(scratch / "typo.cu", scratch, scratch)
            self.assertEqual(len(errors), 1, output[-3000:])
            self.assertIn("__syncthreds", errors[0])
            self.assertEqual(LINE.search(errors[0]).group(1), str(line + 2), errors[0])


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--database", required=True)
    ARGS, rest = parser.parse_known_args()
    if not shutil.which("clangd"):
        print("SKIPPED: clangd is not installed (Debian package clangd)")
        return 77
    program = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=1)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())

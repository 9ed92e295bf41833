"""`checker/run test` after `checker/run p01`, on a machine with no GPU and no nvcc (CI, a laptop,
the dev container): one build tree, not two. Puzzle 1 configures build/default, and the test
command builds and runs the suite in that same tree, configuring nothing.

What is asserted is data: the cmake, ninja and ctest calls the two commands make (recorded by
stand-ins for those tools, first in PATH, which build nothing: which tree each command chooses is
what is tested, not CMake) and the build trees configured under build/. That `default` without a
CUDA compiler builds what `cpu-only` builds is CMakeLists.txt's: PUZZLES_ENABLE_CUDA, all that
cpu-only changes, only decides whether a CUDA compiler is looked for. Standard library only.

  python3 test_build_trees.py <test name>        (CTest runs it; see CMakeLists.txt)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "support"))
import fixture  # noqa: E402  (its copy of the source tree: no build/, .git or backups/)
from run_one_test import run_one  # noqa: E402

# The stand-in for cmake, ninja, ctest and nvidia-smi: records its call, and does the little the
# command line then reads (a configured tree's CMakeCache.txt, a checker that fails every case).
STAND_IN = r'''#!/usr/bin/env python3
import json, os, sys
from pathlib import Path
tool, args = os.path.basename(sys.argv[0]), sys.argv[1:]
with open(os.environ["TOOL_CALLS"], "a") as log:
    log.write(json.dumps({"tool": tool, "args": args, "cwd": os.getcwd()}) + "\n")
if tool == "nvidia-smi":
    print("No devices were found")
    sys.exit(6)
if tool == "cmake" and args[:1] == ["--preset"]:
    tree = Path("build") / args[1]
    tree.mkdir(parents=True, exist_ok=True)
    (tree / "CMakeCache.txt").write_text("CMAKE_BUILD_TYPE:STRING=RelWithDebInfo\n")
    print("-- Backends: cpu only (no CUDA toolkit found; the GPU backend is not built)")
target = None
if tool == "cmake" and "--target" in args:
    tree, target = Path(args[args.index("--build") + 1]), args[args.index("--target") + 1]
elif tool == "ninja":
    tree, target = Path(args[args.index("-C") + 1]), args[-1]
if target:
    (tree / "bin").mkdir(parents=True, exist_ok=True)
    checker = tree / "bin" / target
    checker.write_text("#!/bin/sh\necho 'Result: 0 of 1 cases passed. FAIL'\nexit 1\n")
    checker.chmod(0o755)
'''
TOOLS = ("cmake", "ninja", "ctest", "nvidia-smi")


class BuildTrees(unittest.TestCase):
    def test_checker_run_test_builds_in_the_tree_checker_run_p01_configured(self):
        # A machine without nvcc: the folders of PATH that hold one are left out (CUDA's own bin/).
        path = [d for d in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
                if d and not os.access(os.path.join(d, "nvcc"), os.X_OK)]
        needed = [tool for tool in ("bash", "python3", "dpkg-query", "nproc")
                  if not shutil.which(tool, path=os.pathsep.join(path))]
        if needed:
            self.skipTest(f"nvcc shares a folder of PATH with {', '.join(needed)}: a machine without nvcc cannot be "
                          "made here (without a GPU, puzzles build with cpu-only where nvcc is, by design)")
        missing = subprocess.run([str(ROOT / "checker" / "install-packages"), "--missing"],
                                 capture_output=True, text=True).stdout.split()
        if missing:
            self.skipTest(f"checker/run test first installs missing Debian packages, which a run of it "
                          f"installs: {', '.join(missing)}")
        with tempfile.TemporaryDirectory(prefix="course-trees-") as folder:
            work = Path(folder)
            copy = work / "course"
            fixture.sync(ROOT, copy)
            tools = work / "tools"
            tools.mkdir()
            for tool in TOOLS:
                (tools / tool).write_text(STAND_IN)
                (tools / tool).chmod(0o755)
            calls = work / "calls.jsonl"
            env = {name: value for name, value in os.environ.items()
                   if name not in ("PRESET", "CUDACXX", "CUDA_PATH", "CMAKE_CXX_COMPILER_LAUNCHER")}
            env.update(PATH=os.pathsep.join([str(tools), *path]), TOOL_CALLS=str(calls),
                       NO_COLOR="1", GIT_CEILING_DIRECTORIES=str(work))

            def run(*args):
                done = subprocess.run([str(copy / "checker" / "run"), *args], cwd=copy, env=env,
                                      capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
                made = [json.loads(line) for line in calls.read_text().splitlines()] if calls.exists() else []
                calls.unlink(missing_ok=True)
                return done, made

            def trees():
                return sorted(p.parent.name for p in (copy / "build").glob("*/CMakeCache.txt"))

            p01, p01_calls = run("p01")
            said = f"checker/run p01 said:\n{p01.stdout}{p01.stderr}"
            self.assertEqual(p01.returncode, 1, said)  # the stand-in checker fails its case
            configured = [c["args"][1] for c in p01_calls if c["tool"] == "cmake" and c["args"][:1] == ["--preset"]]
            self.assertEqual(configured, ["default"], said)
            self.assertEqual(trees(), ["default"], said)

            test, test_calls = run("test")
            said = f"checker/run test said:\n{test.stdout}{test.stderr}\ncalls: {test_calls}"
            self.assertEqual(test.returncode, 0, said)
            # Nothing configured: the tree p01 made is the one the suite builds and runs in.
            self.assertEqual([c for c in test_calls if c["tool"] == "cmake" and "--preset" in c["args"]], [], said)
            built = [c["args"][c["args"].index("--build") + 1] for c in test_calls
                     if c["tool"] == "cmake" and "--build" in c["args"]]
            tested = [c["args"][c["args"].index("--test-dir") + 1] for c in test_calls if c["tool"] == "ctest"]
            self.assertEqual(built, ["build/default"], said)
            self.assertEqual(tested, ["build/default"], said)
            self.assertEqual(trees(), ["default"], said)


if __name__ == "__main__":
    run_one(BuildTrees)

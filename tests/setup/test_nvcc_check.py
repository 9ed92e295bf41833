"""Where no GPU images are built, nvcc still compiles device code, and a file it refuses fails
the build with nvcc's message (add_nvcc_check, checker/cmake/KernelTargets.cmake).

The CPU backend compiles kernels as host C++, so it accepts some CUDA that nvcc refuses: a
__global__ function calling a host-only function is the common one. Run with NVCC set to the
build's CUDA compiler; skips where the build has none. Standard library only.
"""
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "support"))
from run_one_test import run_one  # noqa: E402

GOOD = """__device__ int twice(int x) { return 2 * x; }
__global__ void store_twice(int* out) { out[threadIdx.x] = twice(threadIdx.x); }
"""
# Line 2 calls a host function from a kernel: fine for a host compiler, an error for nvcc.
BAD = """int host_only(int x) { return x + 1; }
__global__ void calls_host(int* out) { out[threadIdx.x] = host_only(threadIdx.x); }
"""


class NvccCheck(unittest.TestCase):
    def test_nvcc_check_builds_machine_code_and_stops_the_build_at_a_file_nvcc_refuses(self):
        nvcc = os.environ.get("NVCC", "")
        if not nvcc or not os.access(nvcc, os.X_OK):
            self.skipTest("this build found no nvcc (nvcc comes with NVIDIA's CUDA toolkit)")
        with tempfile.TemporaryDirectory() as work:
            work = Path(work)
            (work / "good.cu").write_text(GOOD, encoding="utf-8")
            (work / "bad.cu").write_text(BAD, encoding="utf-8")
            (work / "CMakeLists.txt").write_text(
                "cmake_minimum_required(VERSION 3.20)\nproject(nvcc_check NONE)\n"
                f'set(CMAKE_CUDA_COMPILER "{nvcc}")\nset(CMAKE_CUDA_STANDARD 17)\n'
                f'include("{ROOT}/checker/cmake/KernelTargets.cmake")\n'
                'add_nvcc_check(good SOURCE "${CMAKE_CURRENT_SOURCE_DIR}/good.cu" ARCHITECTURES 75 90-real)\n'
                'add_nvcc_check(bad SOURCE "${CMAKE_CURRENT_SOURCE_DIR}/bad.cu" ARCHITECTURES 90)\n',
                encoding="utf-8")
            build = work / "build"
            configured = subprocess.run(["cmake", "-S", str(work), "-B", str(build), "-G", "Ninja"],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertEqual(configured.returncode, 0, configured.stdout)
            good = subprocess.run(["cmake", "--build", str(build), "--target", "good_nvcc_check"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertEqual(good.returncode, 0, good.stdout)
            for arch in ("75", "90"):
                cubin = build / "nvcc_check" / "good" / f"sm_{arch}.cubin"
                self.assertTrue(cubin.is_file() and cubin.stat().st_size > 0, f"{cubin} was not written")
            bad = subprocess.run(["cmake", "--build", str(build), "--target", "bad_nvcc_check"],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertNotEqual(bad.returncode, 0, bad.stdout)
            self.assertIn("bad.cu(2)", bad.stdout)
            self.assertIn("host_only", bad.stdout)


if __name__ == "__main__":
    run_one(NvccCheck)

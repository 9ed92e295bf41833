"""The tests run under the interpreter checker/run uses, whatever python3 comes first in PATH.

checker/install-packages' course_python picks Debian's /usr/bin/python3, where the Python
packages of checker/debian-packages.txt import, before the first python3 in PATH;
checker/cmake/CoursePython.cmake makes the same choice for every find_package(Python3) of the
build. A version manager's shim first in PATH (pyenv's) costs about 0.4 s an interpreter start,
and the suite starts hundreds. Standard library only.
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


def course_python(env=None):
    """What checker/run runs its Python with, resolved to a file."""
    script = f'. "{ROOT}/checker/install-packages"; course_python test; printf %s "$python"'
    out = subprocess.run(["bash", "-c", script], env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
    return os.path.realpath(out)


class Interpreter(unittest.TestCase):
    def test_the_tests_run_under_the_interpreter_checker_run_uses(self):
        self.assertEqual(os.path.realpath(sys.executable), course_python())

    def test_a_python3_shim_first_in_path_is_passed_over_where_debian_python_is(self):
        if not os.access("/usr/bin/python3", os.X_OK):
            self.skipTest("this machine has no /usr/bin/python3 (Debian package python3): "
                          "there is nothing to prefer to PATH's")
        with tempfile.TemporaryDirectory() as work:
            work = Path(work)
            shims = work / "shims"
            shims.mkdir()
            shim = shims / "python3"
            shim.write_text(f'#!/bin/sh\nexec "{os.path.realpath(sys.executable)}" "$@"\n', encoding="utf-8")
            shim.chmod(0o755)
            project = work / "project"
            project.mkdir()
            (project / "CMakeLists.txt").write_text(
                "cmake_minimum_required(VERSION 3.20)\nproject(interpreter NONE)\n"
                f'include("{ROOT}/checker/cmake/CoursePython.cmake")\n'
                "find_package(Python3 COMPONENTS Interpreter REQUIRED)\n"
                'message(STATUS "interpreter=${Python3_EXECUTABLE}")\n', encoding="utf-8")
            env = dict(os.environ, PATH=f"{shims}{os.pathsep}{os.environ.get('PATH', '')}")
            # PATH's python3 is the shim, so without the rule CMake takes it and the check fails.
            first = subprocess.run(["bash", "-c", "command -v python3"], env=env, check=True,
                                   stdout=subprocess.PIPE, text=True).stdout.strip()
            self.assertEqual(first, str(shim))
            configured = subprocess.run(["cmake", "-S", str(project), "-B", str(work / "build")], env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertEqual(configured.returncode, 0, configured.stdout)
            self.assertIn("interpreter=/usr/bin/python3\n", configured.stdout)
            self.assertEqual(course_python(env), os.path.realpath("/usr/bin/python3"))


if __name__ == "__main__":
    run_one(Interpreter)

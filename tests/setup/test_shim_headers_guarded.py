#!/usr/bin/env python3
"""checker/cmake/shim_headers_guarded.cmake, which decides whether kernel files may be
preprocessed with the kernel shim's macros alone: it must refuse a depfile that lists a header
marked #pragma once (such a header would be read again after the shim's macros, where the whole
shim skips it) and accept one whose headers are guarded or meant to be read again. Then the
build's own shim: a build that made the shim's macros has a shim whose headers pass the check,
and a build that did not has one that fails it.

    test_shim_headers_guarded.py --build <tree>
"""
import argparse
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "checker", "cmake",
                      "shim_headers_guarded.cmake")


def check(depfile):
    """(exit status, message) of the script's check of `depfile`."""
    done = subprocess.run(["cmake", f"-DDEPFILE={depfile}", "-P", SCRIPT], capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def check_fixtures(failures):
    with tempfile.TemporaryDirectory() as scratch:
        guarded = os.path.join(scratch, "guarded.h")
        write(guarded, "// A guarded header.\n#ifndef GUARDED_H_\n#define GUARDED_H_\nint f();\n#endif\n")
        again = os.path.join(scratch, "x_list.h")
        write(again, "ITEM(a)\nITEM(b)\n")  # meant to be read again: neither guard nor pragma
        once = os.path.join(scratch, "with space", "once.h")
        write(once, "// A header included once by its pragma.\n  #  pragma once\nstruct S {};\n")
        kept = os.path.join(scratch, "kept.d")
        write(kept, f"{scratch}/prelude_ptx.h: {scratch}/prelude.cpp \\\n  {guarded} \\\n  {again}\n")
        refused = os.path.join(scratch, "refused.d")
        write(refused, f"{scratch}/prelude_ptx.h: {scratch}/prelude.cpp \\\n  {guarded} "
                       f"{once.replace(' ', chr(92) + ' ')} \\\n  {again}\n")
        status, output = check(kept)
        if status != 0:
            failures.append(f"guarded and re-readable headers refused:\n{output}")
        status, output = check(refused)
        if status == 0:
            failures.append("a header marked #pragma once was accepted")
        elif once not in output:
            failures.append(f"the refusal does not name {once}:\n{output}")
        elif guarded in output:
            failures.append(f"the refusal names the guarded header too:\n{output}")


def check_build(build, failures):
    modes = [m for m in ("instrumented", "plain") if os.path.isfile(os.path.join(build, "kernel_prelude", m, "prelude.ii.d"))]
    if not modes:
        failures.append(f"{build} has no kernel shim's depfile (kernel_prelude/*/prelude.ii.d): build it first")
    for mode in modes:
        folder = os.path.join(build, "kernel_prelude", mode)
        status, output = check(os.path.join(folder, "prelude.ii.d"))
        made = os.path.isfile(os.path.join(folder, "prelude_macros_defined.h"))
        print(f"{mode}: shim's macros {'made' if made else 'not made'}; its headers "
              f"{'pass' if status == 0 else 'fail'} the check")
        if made != (status == 0):
            failures.append(f"{mode}: the build {'made' if made else 'did not make'} the shim's macros, "
                            f"but its headers {'pass' if status == 0 else 'fail'} the check:\n{output}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    args = parser.parse_args()
    failures = []
    check_fixtures(failures)
    check_build(args.build, failures)
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print("the check refuses a #pragma once header and accepts guarded ones; the build agrees with it")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

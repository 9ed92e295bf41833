#!/usr/bin/env python3
"""Instrumented kernel files are compiled with the code generator's older tracker of variable
locations (checker/cmake/KernelTargets.cmake says why): the object must be the one the compiler's
default tracker gives, byte for byte, or the choice has changed what the engine reads. For each
checker named, its kernel file's compile command as the build runs it (ninja -t commands), run
as it is and with the choice taken out.

    test_debug_value_tracker.py --build <tree> <checker>...
"""
import argparse
import filecmp
import os
import shlex
import subprocess
import sys
import tempfile

CHOICE = ["-mllvm", "-experimental-debug-variable-locations=false"]


def kernel_compile(build, target):
    """The compiler's command line for `target`'s kernel file (the one run through ptx_rewrite's
    --localize-symbols), without its depfile options."""
    done = subprocess.run(["ninja", "-C", build, "-t", "commands", target], capture_output=True, text=True,
                          check=True)
    lines = [line for line in done.stdout.splitlines() if "--localize-symbols" in line]
    if not lines:
        sys.exit(f"{target}: no kernel file compiled through ptx_rewrite --localize-symbols")
    words = shlex.split(lines[-1])
    words = words[words.index("--") + 1:]
    for option in ("-MT", "-MF"):
        while option in words:
            at = words.index(option)
            del words[at:at + 2]
    return [w for w in words if w != "-MD"]


def without(words, option):
    for at in range(len(words) - len(option) + 1):
        if words[at:at + len(option)] == option:
            return words[:at] + words[at + len(option):]
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("targets", nargs="+")
    args = parser.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        for target in args.targets:
            words = kernel_compile(args.build, target)
            default = without(words, CHOICE)
            if default is None:
                print(f"FAIL {target}: its kernel file is compiled without {' '.join(CHOICE)}")
                failures += 1
                continue
            objects = []
            for way, command in (("chosen", words), ("default", default)):
                command = list(command)
                output = os.path.join(scratch, f"{way}-{os.path.basename(target)}.o")
                command[command.index("-o") + 1] = output
                done = subprocess.run(command, cwd=args.build, capture_output=True, text=True)
                if done.returncode != 0:
                    sys.exit(f"{target}: the {way} compile failed:\n{done.stderr}")
                objects.append(output)
            same = filecmp.cmp(objects[0], objects[1], shallow=False)
            print(("ok   " if same else "FAIL ") + f"{target}: the kernel object is the same byte for byte with "
                  f"either tracker ({os.path.getsize(objects[0])} and {os.path.getsize(objects[1])} bytes)")
            failures += 0 if same else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

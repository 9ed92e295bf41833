#!/usr/bin/env python3
"""The instrumented kernel objects of a build carry no location lists for their local variables
(passes/variable_locations.h drops them: only a debugger reads them, and they cost most of the
code generation), while the engine's own needs stay: each __shared__ variable's DIE with its
thread-local location. A plain kernel object, which nothing drops them from, still has location
lists: that proves that this compiler writes them and this test can see them.

    test_variable_locations.py --plain <object> --instrumented <object> [<object>...]
        --shared <name>...   __shared__ variables the first instrumented object must describe
"""
import argparse
import re
import subprocess
import sys


def read(*command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


def location_lists(obj):
    """The object's location-list sections (DWARF 4's .debug_loc, DWARF 5's .debug_loclists)."""
    return sorted(set(re.findall(r"\.debug_loc(?:lists)?\b", read("readelf", "-S", "-W", obj))))


def thread_local_variables(obj):
    """Names of the variables whose DIE gives a thread-local location."""
    names, name = set(), None
    for line in read("readelf", "--debug-dump=info", obj).splitlines():
        if "Abbrev Number" in line:
            name = None
        elif "DW_AT_name" in line:
            name = line.rsplit(":", 1)[-1].strip()
        elif "DW_AT_location" in line and name and ("push_tls_address" in line or "form_tls_address" in line):
            names.add(name)
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plain", required=True)
    parser.add_argument("--instrumented", nargs="+", required=True)
    parser.add_argument("--shared", nargs="+", required=True)
    args = parser.parse_args()
    failures = []
    if not location_lists(args.plain):
        failures.append(f"{args.plain}: the plain kernel object has no location lists, so this test "
                        "cannot tell whether the instrumented ones drop theirs")
    for obj in args.instrumented:
        found = location_lists(obj)
        if found:
            failures.append(f"{obj}: location lists of local variables ({', '.join(found)}) in an instrumented "
                            "kernel object; the block-loop pass should have dropped them (variable_locations.h)")
    missing = set(args.shared) - thread_local_variables(args.instrumented[0])
    if missing:
        failures.append(f"{args.instrumented[0]}: no thread-local location for the __shared__ variables "
                        f"{', '.join(sorted(missing))}, which the engine reads (cpu/shared_layout.cpp)")
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print(f"{len(args.instrumented)} instrumented kernel objects without location lists; "
          f"{', '.join(args.shared)} keep their thread-local locations; the plain object has {location_lists(args.plain)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

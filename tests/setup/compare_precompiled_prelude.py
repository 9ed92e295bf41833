"""Compiles kernel files with and without the precompiled kernel shim and compares the objects.

A kernel file of the CPU build is preprocessed with the kernel shim's macros alone, or with the
whole shim whose text ptx_rewrite --prelude then leaves out (checker/cmake/KernelTargets.cmake),
and compiled against the shim's precompiled header (checker/engine/tools/precompiled_prelude.h).
For each kernel file of a build, this writes the whole text again (the build's own preprocessing
command, without the shim's macros, and ptx_rewrite without --prelude), compiles both with the
build's own command, the header's flags taken out for the whole text, and compares what the
engine and the checks depend on: the machine code, the symbols, the line table (address, file,
line, column) and the variables with their lines. A difference is a bug of the precompiled
prelude or of preprocessing with the shim's macros.

  python3 compare_precompiled_prelude.py --build B [--jobs N] [NAME...]

NAME: a part of a kernel file's path (p04_tiled_solution_kernel); default every kernel file
compiled against the header. Prints one line per file and the totals; exits 1 on any
difference, 2 on bad arguments.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import tempfile


def kernel_commands(build):
    """(source, arguments) of each kernel file that is compiled against a precompiled header."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as handle:
        entries = json.load(handle)
    found = []
    for entry in entries:
        arguments = entry.get("arguments") or shlex.split(entry["command"])
        if entry["file"].endswith("cpu_ptx.cpp") and "-include-pch" in arguments:
            found.append((entry["file"], entry["directory"], arguments))
    return found


def compiler_arguments(arguments):
    """The compile itself: the symbol-localizing launcher (ptx_rewrite --localize-symbols) taken off."""
    if "--localize-symbols" in arguments:
        return arguments[arguments.index("--") + 1:]
    return arguments


def without_header(arguments):
    """The same command without `-Xclang -include-pch -Xclang P -Xclang -include -Xclang H`."""
    kept, skip = [], 0
    for i, argument in enumerate(arguments):
        if skip:
            skip -= 1
            continue
        if argument == "-Xclang" and i + 1 < len(arguments) and arguments[i + 1] in ("-include-pch", "-include"):
            skip = 3
            continue
        if argument == "-Winvalid-pch":
            continue
        kept.append(argument)
    return kept


def with_output(arguments, source, output):
    changed = list(arguments)
    changed[changed.index("-o") + 1] = output
    changed[changed.index("-c") + 1] = source
    return changed


def facts(obj):
    """What the engine reads of an object, as text."""
    def run(*command):
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()}")
        return done.stdout

    code = "\n".join(line for line in run("objdump", "-d", "--no-show-raw-insn", obj).splitlines()[2:])
    symbols = run("nm", obj)
    lines = []
    for line in run("readelf", "--debug-dump=decodedline", obj).splitlines():
        fields = line.split()
        # "file  line  address  [view]  [stmt]": a row of the table.
        if len(fields) >= 3 and fields[1].isdigit() and fields[2].startswith("0x"):
            lines.append(" ".join(fields[:3]))
    variables = []
    info = run("readelf", "--debug-dump=info", obj).splitlines()
    for i, line in enumerate(info):
        if "DW_TAG_variable" in line:
            name = declared = ""
            for attribute in info[i + 1:i + 12]:
                if "DW_TAG_" in attribute:
                    break
                if "DW_AT_name" in attribute:
                    name = attribute.split(":")[-1].strip()
                if "DW_AT_decl_line" in attribute:
                    declared = attribute.split(":")[-1].strip()
            variables.append(f"{name} {declared}")
    return {"code": code, "symbols": symbols, "line table": "\n".join(lines), "variables": "\n".join(variables)}


def whole_preprocessing(build, source, scratch):
    """The kernel file preprocessed with the whole shim, and how the build preprocesses it: the
    path of the build's own file where the build preprocesses it so; else the build's command
    (ninja's) run again into `scratch` without the shim's macros (-include .../prelude_macros.h).
    Raises RuntimeError."""
    done = subprocess.run(["ninja", "-C", build, "-t", "commands", "-s", source], capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(f"ninja knows no command that makes {source}: {done.stderr.strip()}")
    steps = done.stdout.strip().splitlines()[-1].split(" && ")
    directory = shlex.split(steps[0])[1] if steps[0].startswith("cd ") else build
    preprocess = next((shlex.split(step) for step in steps if " -E " in step), None)
    if preprocess is None:
        raise RuntimeError(f"no preprocessing step in the command that makes {source}")
    macros = [i for i, word in enumerate(preprocess) if word == "-include" and i + 1 < len(preprocess)
              and preprocess[i + 1].endswith("prelude_macros.h")]
    if not macros:
        return os.path.join(os.path.dirname(source), "cpu.ii"), "the whole shim"
    whole, kept, skip = os.path.join(scratch, "whole_preprocessed.ii"), [], 0
    for i, word in enumerate(preprocess):
        if skip:
            skip -= 1
        elif i in macros or word in ("-MF", "-MT", "-o"):
            skip = 1
        elif word != "-MD":
            kept.append(word)
    done = subprocess.run(kept[:-1] + ["-o", whole, kept[-1]], cwd=directory, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"preprocessing with the whole shim failed: {done.stderr.strip()[:400]}")
    return whole, "the shim's macros"


def compare(source, directory, arguments, rewrite, build):
    """(None when the two objects agree, else what differs; how the build preprocesses the file)."""
    compile_arguments = compiler_arguments(arguments)
    with tempfile.TemporaryDirectory() as scratch:
        try:
            preprocessed, preprocessing = whole_preprocessing(build, source, scratch)
        except RuntimeError as error:
            return str(error), "?"
        return compare_objects(source, directory, compile_arguments, rewrite, preprocessed, scratch), preprocessing


def compare_objects(source, directory, compile_arguments, rewrite, preprocessed, scratch):
    """None when the kernel file's object and the whole text's agree, else what differs."""
    # The same path for both: the object's constructor and line table are named after it.
    text = os.path.join(scratch, "kernel", os.path.basename(source))
    os.makedirs(os.path.dirname(text))
    whole = os.path.join(scratch, "whole.ii")
    done = subprocess.run([rewrite, preprocessed, whole], capture_output=True, text=True)
    if done.returncode != 0:
        return f"ptx_rewrite without --prelude failed: {done.stderr.strip()}"
    objects = {}
    for kind, origin, command in (("whole", whole, without_header(compile_arguments)),
                                  ("header", source, compile_arguments)):
        with open(origin, "rb") as given, open(text, "wb") as copy:
            copy.write(given.read())
        obj = os.path.join(scratch, kind + ".o")
        done = subprocess.run(with_output(command, text, obj), cwd=directory, capture_output=True, text=True)
        if done.returncode != 0:
            return f"the {kind} compile failed: {done.stderr.strip()[:400]}"
        objects[kind] = facts(obj)
    different = [what for what in objects["whole"] if objects["whole"][what] != objects["header"][what]]
    return ", ".join(different) + " differ" if different else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.build, "compile_commands.json")):
        parser.error(f"--build {args.build}: no compile_commands.json there")
    rewrite = os.path.join(args.build, "checker", "engine", "ptx_rewrite")
    if not os.access(rewrite, os.X_OK):
        parser.error(f"--build {args.build}: no ptx_rewrite built there")
    everything = kernel_commands(args.build)
    unknown = [n for n in args.names if not any(n in k[0] for k in everything)]
    if unknown:
        print(f"no kernel file of this build compiled against the precompiled kernel shim matches {', '.join(unknown)}")
        return 1
    kernels = [k for k in everything if not args.names or any(n in k[0] for n in args.names)]
    if not kernels:
        print("no kernel file of this build is compiled against the precompiled kernel shim")
        return 1
    differences = 0
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        jobs = {source: pool.submit(compare, source, directory, arguments, rewrite, args.build)
                for source, directory, arguments in kernels}
        for source, job in jobs.items():
            name = os.path.relpath(os.path.dirname(source), args.build)
            problem, preprocessing = job.result()
            if problem:
                differences += 1
                print(f"DIFFERENT  {name} (preprocessed with {preprocessing}): {problem}")
            else:
                print(f"same       {name} (preprocessed with {preprocessing})")
    print(f"{len(kernels)} kernel files compiled with and without the precompiled kernel shim: {differences} differ")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())

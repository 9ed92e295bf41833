"""A compiler launcher for the tests' own build trees: reuses the main build's objects.

Some tests build the course in a tree of their own: the command-line tests on a copy of the
source tree (they edit puzzles/ and must never touch the real one), the handout test in a
handout, the instructors' test with PUZZLES_SOLVED. Compiling the engine and the checker
library again costs about 40 s on 2 cores each time, most of those tests' time. Such a tree is
configured with this script as CMAKE_CXX_COMPILER_LAUNCHER: for each compile, when the main
build compiled the same command (the trees' own paths aside) from byte-identical inputs, it
copies that object and writes the depfile ninja expects; otherwise it runs the compiler. The
engine and the checker library compile with the same commands with or without CUDA (only
their CUDA files differ), so a CPU-only tree reuses a CUDA build's objects.

  launcher: python3 reuse_objects.py --launcher --main-build B --from-source S \
                --to-source S2 --to-build B2 --work W
            prints the CMAKE_CXX_COMPILER_LAUNCHER value (a CMake list) for the tree B2 of S2,
            from whichever of B and its sibling build trees has the most reusable objects, or
            nothing when none has any
  compile:  python3 reuse_objects.py INDEX <compiler> <arguments...>   (the launcher's own calls)
"""
import argparse
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys

# The checkers and what they link (a kernel edited in the copy fails its digest check and is
# compiled).
REUSED = ("checker/",)


def _digest(path):
    """The file's content, less its whole-line // comments: generated headers name their tree's
    source in a comment, which changes no object. Lines stay where they are (debug line tables);
    an #include or a string that names a path still counts, so a kernel is never taken from the
    main tree for the copy's."""
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    kept = [b"" if line.lstrip().startswith(b"//") and not line.rstrip().endswith(b"\\") else line
            for line in lines]
    return hashlib.sha256(b"\n".join(kept)).hexdigest()


def _normalise(text, source, build):
    # The build tree may lie inside the source tree: replace the longer path first.
    return text.replace(build, "@BUILD@").replace(source, "@SOURCE@")


def _expand(text, source, build):
    return text.replace("@BUILD@", build).replace("@SOURCE@", source)


def make_index(index_path, from_source, from_build, to_source, to_build):
    """Writes the index of the main build's reusable objects; returns how many there are."""
    objects = {}
    if shutil.which("ninja") and os.path.exists(os.path.join(from_build, "build.ninja")):
        try:
            compdb = json.loads(subprocess.run(["ninja", "-C", from_build, "-t", "compdb"], capture_output=True,
                                               text=True, check=True).stdout)
        except (subprocess.CalledProcessError, ValueError):
            compdb = []
        entries = [e for e in compdb if e["output"].startswith(REUSED)]
        deps = _ninja_deps(from_build, [e["output"] for e in entries])
        for entry in entries:
            obj = os.path.join(from_build, entry["output"])
            inputs = deps.get(entry["output"])
            if not inputs or not os.path.exists(obj):
                continue
            made = os.stat(obj).st_mtime_ns
            try:
                if any(os.stat(d).st_mtime_ns > made for d in inputs):
                    continue  # the main build has not caught up with an edit: not reusable
                hashed = [[_normalise(d, from_source, from_build), _digest(d)] for d in inputs
                          if d.startswith((from_source, from_build))]
            except OSError:
                continue
            arguments = [_normalise(a, from_source, from_build) for a in shlex.split(entry["command"])]
            objects[json.dumps(arguments)] = {
                "object": obj,
                "deps": hashed,
                "system_deps": [d for d in inputs if not d.startswith((from_source, from_build))],
            }
    with open(index_path, "w") as handle:
        json.dump({"to_source": to_source, "to_build": to_build, "objects": objects}, handle)
    return len(objects)


def _ninja_deps(build, outputs):
    """{output: [absolute dependency paths]} from ninja's deps log."""
    if not outputs:
        return {}
    text = subprocess.run(["ninja", "-C", build, "-t", "deps", *outputs], capture_output=True,
                          text=True).stdout
    found, current = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            current = line.split(":", 1)[0]
            found[current] = []
        elif line.strip() and current is not None:
            path = line.strip()
            found[current].append(os.path.normpath(os.path.join(build, path)))
    return found


def launch(index_path, command):
    try:
        with open(index_path) as handle:
            index = json.load(handle)
        source, build = index["to_source"], index["to_build"]
        key = json.dumps([_normalise(a, source, build) for a in command])
        entry = index["objects"].get(key)
        if entry and "-o" in command and "-MF" in command:
            if all(_digest(_expand(path, source, build)) == digest for path, digest in entry["deps"]):
                output = command[command.index("-o") + 1]
                shutil.copyfile(entry["object"], output)
                deps = [_expand(path, source, build) for path, _ in entry["deps"]] + entry["system_deps"]
                with open(command[command.index("-MF") + 1], "w") as depfile:
                    depfile.write(output + ": " + " ".join(d.replace(" ", "\\ ") for d in deps) + "\n")
                return 0
    except (OSError, ValueError, KeyError):
        pass  # any doubt: compile
    os.execvp(command[0], command)


def candidate_builds(main_build):
    """The main build, then its sibling build trees (another preset may match the new tree's)."""
    main_build = os.path.realpath(main_build)
    found = [main_build]
    parent = os.path.dirname(main_build)
    if os.path.isdir(parent):
        found += sorted(os.path.join(parent, name) for name in os.listdir(parent)
                        if os.path.join(parent, name) != main_build
                        and os.path.exists(os.path.join(parent, name, "build.ninja")))
    return found


def best_launcher(main_build, from_source, to_source, to_build, work):
    """(the launcher as a list of arguments, or None; how many objects it can reuse)."""
    best, best_count = None, 0
    os.makedirs(work, exist_ok=True)
    for candidate in candidate_builds(main_build):
        index = os.path.join(work, f"reuse-{os.path.basename(candidate)}.json")
        count = make_index(index, os.path.realpath(from_source), candidate, os.path.realpath(to_source),
                           os.path.realpath(to_build))
        if count > best_count:
            best, best_count = index, count
    if best is None:
        return None, 0
    return [sys.executable, os.path.realpath(__file__), best], best_count


def main():
    if len(sys.argv) < 2 or sys.argv[1] != "--launcher":
        return launch(sys.argv[1], sys.argv[2:])
    parser = argparse.ArgumentParser()
    parser.add_argument("--launcher", action="store_true")
    for name in ("--main-build", "--from-source", "--to-source", "--to-build", "--work"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    launcher, _ = best_launcher(args.main_build, args.from_source, args.to_source, args.to_build, args.work)
    print(";".join(launcher) if launcher else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())

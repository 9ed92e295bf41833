"""The broken-kernel corpus: each tests/broken/<name>.cu is one change to a reference solution
(tests/broken/README.md): its description and Checker/Expect/Needs/Build lines, then a line
`// Change to solutions/<id>.cu:` and the change as a unified diff, every line a comment (so that
the file is still a valid, if empty, CUDA file). This module applies them, with
`patch --fuzz=0`, so that a retuned solution carries its broken kernels with it, and a change
that no longer applies says why.

A file without that line is a whole kernel (what `checker/run handout --keep-broken` writes,
since a handout has no solutions) and is taken as it is.

A derived kernel is the patched solution followed by the change's header (its description and
the Checker/Expect/Needs/Build lines that the tests read), so that it reads on its own, and the
line numbers the checker prints are the solution's.

    python3 checker/cli/course/broken_kernels.py derive ROOT OUT   # the build's configure step
    python3 checker/cli/course/broken_kernels.py check ROOT        # the test: every change applies

Standard library only.
"""
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

FOLDER = "tests/broken"
CHANGE_LINE = re.compile(r"^// Change to (solutions/\S+\.cu):$", re.M)


@dataclass
class Change:
    name: str  # p04_missing_first_barrier
    path: Path  # tests/broken/p04_missing_first_barrier.cu
    solution: Path  # solutions/p04_tiled.cu, or None when no solution's name starts with the prefix


class NotApplied(Exception):
    """The change does not apply to its solution: the message says why (patch's own words)."""


def is_change(text):
    return CHANGE_LINE.search(text) is not None


def changes(root):
    """Every change of the corpus, in name order."""
    root = Path(root)
    found = []
    for path in sorted((root / FOLDER).glob("p*.cu")):
        if not is_change(path.read_text(encoding="utf-8")):
            continue
        name = path.stem
        solutions = sorted((root / "solutions").glob(name[:3] + "_*.cu"))
        found.append(Change(name, path, solutions[0] if len(solutions) == 1 else None))
    return found


def header(text):
    """The change's header: the lines before its `// Change to ...:` line, without the `//` that
    ends the header."""
    at = CHANGE_LINE.search(text)
    return re.sub(r"\n//\s*$", "\n", text[:at.start()].rstrip("\n") + "\n") if at else text


def diff(text):
    """The unified diff after the `// Change to ...:` line, its comment marks taken off."""
    at = CHANGE_LINE.search(text)
    lines = text[at.end():].strip("\n").split("\n")
    return "\n".join(" " if line == "//" else line[3:] if line.startswith("// ") else line for line in lines) + "\n"


def derive(change):
    """The derived kernel's text; NotApplied when the change does not apply."""
    if change.solution is None:
        raise NotApplied(f"no single file in solutions/ starts with '{change.name[:3]}_'")
    patch = shutil.which("patch")
    if not patch:
        raise NotApplied("the patch program is not installed (Debian package patch)")
    text = change.path.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{change.name}.cu"
        diff_file = Path(tmp) / f"{change.name}.diff"
        diff_file.write_text(diff(text), encoding="utf-8")
        done = subprocess.run([patch, "--fuzz=0", "--batch", "--reject-file=-",
                               "--no-backup-if-mismatch", "-o", str(out), str(change.solution),
                               "-i", str(diff_file)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            said = [line for line in (done.stdout + done.stderr).splitlines() if not line.startswith("patching file")]
            words = "; ".join(line.strip() for line in said if line.strip()) or \
                f"patch exited with status {done.returncode}"
            raise NotApplied(words)
        code = out.read_text(encoding="utf-8")
    return code.rstrip("\n") + "\n\n" + header(text).rstrip("\n") + "\n"


def kernels(root):
    """{name: text} of every broken kernel that applies, derived or (in a handout, which has no
    solutions) written out whole, and [(change, reason)] for the changes that do not apply."""
    found, failed = {}, []
    for path in sorted((Path(root) / FOLDER).glob("p*.cu")):
        text = path.read_text(encoding="utf-8")
        if not is_change(text):
            found[path.stem] = text
    for change in changes(root):
        try:
            found[change.name] = derive(change)
        except NotApplied as error:
            failed.append((change, str(error)))
    return found, failed


def derive_all(root, out):
    """Write every broken kernel to OUT (only when its text changed, so that the build does not
    rebuild it), remove those whose change is gone; [(change, reason)] for the changes that do not
    apply."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    found, failed = kernels(root)
    written = set()
    for name, text in found.items():
        target = out / f"{name}.cu"
        written.add(target.name)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
    for stale in out.glob("*.cu"):
        if stale.name not in written:
            stale.unlink()
    return failed


def _relative(root, path):
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def main(argv):
    if len(argv) == 3 and argv[0] == "derive":
        root = Path(argv[1]).resolve()
        failed = derive_all(root, argv[2])
        for change, why in failed:
            # CMake shows these lines as a warning; the test named below fails with them.
            print(f"{_relative(root, change.path)} does not apply to "
                  f"{_relative(root, change.solution) if change.solution else 'a solution'}, so "
                  f"broken_{change.name} is not built: {why}")
        return 0
    if len(argv) == 2 and argv[0] == "check":
        root = Path(argv[1]).resolve()
        found = changes(root)
        failed = []
        for change in found:
            try:
                derive(change)
            except NotApplied as error:
                failed.append(f"{_relative(root, change.path)}: {error}")
        for line in failed:
            print(line)
        print(f"{len(found) - len(failed)} of {len(found)} changes in {FOLDER}/ apply to their solutions")
        return 1 if failed else 0
    print("usage: broken_kernels.py derive ROOT OUT | check ROOT", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

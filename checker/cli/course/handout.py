"""The students' copy of the course: everything but what gives the answers away or serves only
instructors, with the files that mention those adjusted. Everything is decided in memory and
checked before a single file is written.
"""
import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field


MARKER = "HANDOUT"
MARKER_TEXT = """\
This is the students' copy of the course, made by `checker/run handout`.

It has no reference solutions (solutions/), no instructors' presets, tools or pages, and no
kernels that are solutions in all but name (bench/tuning/, the files that include a solution,
and tests/broken/ unless the instructor kept it). The tests and benchmarks that need them see
this file and skip, saying why.
"""

TOOLS = "the instructors' tools (grade, handout, tune)"
# Left out of every handout: (path, why). A folder ends with "/".
LEFT_OUT = [
    ("solutions/", "the reference solutions"),
    ("bench/tuning/", "the tuning files: other values of the reference solutions' constants"),
    ("bench/gpu_run.sh", "the GPU test run, which runs the reference solutions"),
    ("bench/gpu/p13_schedule.cu", "puzzle 13's reference kernel, timed and traced outside its checker"),
    ("bench/gpu/make_p13_trace.py", "puzzle 13's reference kernel, timed and traced outside its checker"),
    ("tests/instructor/", "the instructors' tests"),
    ("checker/grading/", TOOLS),
    ("checker/cmake/GradingExport.cmake", TOOLS),
    ("checker/cli/commands/grade.py", TOOLS),
    ("checker/cli/commands/handout.py", TOOLS),
    ("checker/cli/commands/tune.py", TOOLS),
    ("docs/instructors.md", "the instructors' guide"),
    ("docs/instructors/", "the instructors' guide"),
    ("checker/cli/commands/classroom.py", TOOLS),
    ("docs/dev/grading.md", "grading's design notes"),
]
BROKEN = ("tests/broken/", "broken kernels: each is a change to a solution")
# (pattern, why, how the summary names the files it matches)
LEFT_OUT_PATTERNS = [
    (re.compile(r"^checker/cli/course/(grading|handout|tuning)\w*\.py$"), TOOLS,
     "checker/cli/course/grading*.py, handout*.py and tuning.py"),
]
# Never copied: what builds leave behind, and the command line's backups of kernels (which
# would be the instructor's own).
JUNK = re.compile(r"(^|/)(__pycache__|\.git|build)/|\.pyc$|^\.device/|^backups/")

# The course's repository, one fact in two files: the README's "Open in Colab" badge and the
# notebook's COURSE cell, which clones it. The course names a placeholder; the handout of a
# course published on GitHub names that repository (--github OWNER/NAME).
REPOSITORY_PLACEHOLDER = "OWNER/REPOSITORY"
REPOSITORY_FILES = ("README.md", "docs/colab.ipynb")
GITHUB_REPOSITORY = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}")

# Lines of CMakeLists.txt that name what a handout leaves out.
CMAKE_LINES_OUT = [re.compile(r"^\s*include\(GradingExport\).*\n?", re.M)]
HOLDS_SOLUTION = "holds or #includes a reference solution"
SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp", ".cc", ".h", ".hpp", ".in")


class HandoutError(Exception):
    """The handout cannot be made: the message says why."""


@dataclass
class Plan:
    files: dict = field(default_factory=dict)  # relative path -> source Path (copied as it is)
    changed: dict = field(default_factory=dict)  # relative path -> (new text, source Path for its mode)
    left_out: dict = field(default_factory=dict)  # why -> [relative paths]
    left_out_shown: dict = field(default_factory=dict)  # why -> {folders, patterns or paths}
    notes: list = field(default_factory=list)


# Without git, the files a handout may carry: those under the course's own top-level folders
# and files. Anything else (a class folder, grades, notes) is not guessed at: it is refused.
COURSE_TOP = {"puzzles", "solutions", "checker", "docs", "tests", "bench", ".ci", ".devcontainer", ".github", ".gitignore",
              ".gitattributes", ".clang-format", ".clangd", ".vscode", "CMakeLists.txt", "CMakePresets.json",
              "README.md", "LICENSE", "mkdocs.yml"}
ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
PUZZLE_FILE = re.compile(r"^p\d\d_\w+\.cu$")
COURSE_KERNEL_FOLDERS = ("puzzles/", "solutions/", "tests/", "bench/")
GRADES = "a grading's results (results.md and results.csv), never handed out"
CLASS = "students' submissions (a class folder or an archive), never handed out"


def course_files(root):
    """The course's files: what git tracks (never what it does not: a class or grades folder
    kept in the course is untracked); without git, the files under the course's own folders,
    and HandoutError naming any other file, since it cannot tell what that is."""
    if (root / ".git").exists() and shutil.which("git"):
        done = subprocess.run(["git", "ls-files", "-z", "--cached"], cwd=root, capture_output=True)
        if done.returncode == 0:
            names = {n for n in done.stdout.decode("utf-8", "surrogateescape").split("\0") if n}
            return sorted(n for n in names if not JUNK.search(n) and (root / n).is_file())
    found, unknown = [], []
    for path in root.rglob("*"):
        name = path.relative_to(root).as_posix()
        if not path.is_file() or JUNK.search(name) or name.startswith(".git/"):
            continue
        (found if name.split("/", 1)[0] in COURSE_TOP else unknown).append(name)
    if unknown:
        shown = "\n  ".join(sorted(unknown)[:20]) + (f"\n  ... and {len(unknown) - 20} more" if len(unknown) > 20 else "")
        raise HandoutError("the course is not a git checkout, and these files are not the course's own: the "
                           f"handout cannot tell what they are, so it makes nothing:\n  {shown}\nMove them out of "
                           "the course (a class or grades folder belongs outside it), or make the handout from "
                           "a git checkout, which copies only what git tracks.")
    return sorted(found)


def _not_course(name, names):
    """(why, how the summary names it) for a file that is students' work or grades, even if
    tracked; None otherwise."""
    parts = name.split("/")
    for depth in range(1, len(parts)):
        folder = "/".join(parts[:depth])
        if f"{folder}/results.csv" in names and f"{folder}/results.md" in names:  # what grade writes
            return GRADES, folder + "/"
    if name.endswith(ARCHIVES):
        return CLASS, name
    if PUZZLE_FILE.match(parts[-1]) and not name.startswith(COURSE_KERNEL_FOLDERS):
        return CLASS, (parts[0] + "/") if len(parts) > 1 else name
    return None


def _why_left_out(name, keep_broken):
    """(why, how the summary names it), or None for a file the handout keeps."""
    rules = LEFT_OUT + ([] if keep_broken else [BROKEN])
    for path, why in rules:
        if name == path or (path.endswith("/") and name.startswith(path)):
            return why, path
    for pattern, why, shown in LEFT_OUT_PATTERNS:
        if pattern.match(name):
            return why, shown
    return None


def without_instructor_sections(text):
    """Markdown without its "For instructors" sections (to the next heading of the same or a
    higher level) and without <!-- instructors --> ... <!-- /instructors --> blocks."""
    text = re.sub(r"<!--\s*instructors\s*-->.*?<!--\s*/instructors\s*-->\n?", "", text, flags=re.S)
    out, skipping, level, fenced = [], False, 0, False
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        m = None if fenced else re.match(r"^(#{1,6})\s+(.*)$", line)
        if m:
            if skipping and len(m.group(1)) <= level:
                skipping = False
            if not skipping and re.match(r"for instructors\b", m.group(2).strip(), re.I):
                skipping, level = True, len(m.group(1))
        if not skipping:
            out.append(line)
    return re.sub(r"\n{3,}", "\n\n", "".join(out)).rstrip("\n") + "\n"


def without_instructor_presets(text):
    """CMakePresets.json without the presets that build against solutions/."""
    presets = json.loads(text)
    gone = set()
    configure = presets.get("configurePresets", [])
    changed = True
    while changed:  # a preset inheriting from one that goes, goes too
        changed = False
        for p in configure:
            inherits = p.get("inherits", [])
            inherits = [inherits] if isinstance(inherits, str) else inherits
            uses_solutions = str(p.get("cacheVariables", {}).get("PUZZLES_USE_SOLUTIONS", "")).upper() in ("ON", "TRUE", "1")
            if p["name"] not in gone and (p["name"] == "instructor" or uses_solutions or
                                          "PUZZLES_SOLVED" in p.get("cacheVariables", {}) or gone & set(inherits)):
                gone.add(p["name"])
                changed = True
    presets["configurePresets"] = [p for p in configure if p["name"] not in gone]
    for kind in ("buildPresets", "testPresets", "packagePresets", "workflowPresets"):
        if kind in presets:
            presets[kind] = [p for p in presets[kind] if p.get("configurePreset") not in gone and p["name"] not in gone]
    return json.dumps(presets, indent=2) + "\n", sorted(gone)


def without_empty_sections(lines):
    """mkdocs.yml's lines without a nav section ("- Title:") whose pages have all gone."""
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)- [^:]+:\s*$", line)
        if m:
            following = next((n for n in lines[i + 1:] if n.strip()), "")
            if len(following) - len(following.lstrip()) <= len(m.group(1)):
                continue
        out.append(line)
    return out


def plan(root, keep_broken, github=None):
    """What the handout holds, what it leaves out and what it changes; checked for solutions.
    github: the repository (OWNER/NAME) the copy is published as, for the Colab badge and notebook."""
    result = Plan()
    names = course_files(root)
    known = set(names)
    for name in names:
        rule = _not_course(name, known) or _why_left_out(name, keep_broken)
        if rule:
            result.left_out.setdefault(rule[0], []).append(name)
            result.left_out_shown.setdefault(rule[0], set()).add(rule[1])
        else:
            result.files[name] = root / name
    if not any(n.startswith("puzzles/") for n in result.files):
        raise HandoutError("the course has no puzzles/ folder to hand out")
    hand_out_stubs(root, result)
    if keep_broken:
        write_out_broken_kernels(root, result)

    def change(name, text):
        if text != (root / name).read_text(encoding="utf-8"):
            result.changed[name] = (text, root / name)

    if "CMakePresets.json" in result.files:
        text, gone = without_instructor_presets((root / "CMakePresets.json").read_text(encoding="utf-8"))
        change("CMakePresets.json", text)
        if gone:
            result.notes.append("CMakePresets.json: without the preset" + ("s " if len(gone) > 1 else " ") +
                                ", ".join(gone))
    if "CMakeLists.txt" in result.files:
        text = (root / "CMakeLists.txt").read_text(encoding="utf-8")
        for pattern in CMAKE_LINES_OUT:
            text = pattern.sub("", text)
        change("CMakeLists.txt", text)
        if "CMakeLists.txt" in result.changed:
            result.notes.append("CMakeLists.txt: without the line that exports the build for grading")
    for name in sorted(result.files):
        if name.endswith(".md"):
            text = without_instructor_sections((root / name).read_text(encoding="utf-8"))
            change(name, text)
            if name in result.changed:
                result.notes.append(f"{name}: without its instructors' sections")
    if github:
        named = []
        for name in REPOSITORY_FILES:
            if name in result.files:
                text = result.changed[name][0] if name in result.changed else (root / name).read_text(encoding="utf-8")
                if REPOSITORY_PLACEHOLDER in text:
                    result.changed[name] = (text.replace(REPOSITORY_PLACEHOLDER, github), root / name)
                    named.append(name)
        if named:
            result.notes.append(f"{' and '.join(named)}: the Colab link and notebook clone github.com/{github}")
    gone_pages = [n[len("docs/"):] for ns in result.left_out.values() for n in ns
                  if n.startswith("docs/") and n.endswith(".md")]
    if "mkdocs.yml" in result.files and gone_pages:
        lines = (root / "mkdocs.yml").read_text(encoding="utf-8").splitlines(keepends=True)
        kept = [line for line in lines if not any(re.search(rf"[\s:]{re.escape(p)}\s*$", line) for p in gone_pages)]
        change("mkdocs.yml", "".join(without_empty_sections(kept)))
    leave_out_solutions(root, result)
    return result


def write_out_broken_kernels(root, result):
    """tests/broken holds changes to the solutions; a handout has none, so each change goes as the
    kernel it makes (and the change itself, which quotes a solution, stays out)."""
    from course import broken_kernels
    changes = [c for c in broken_kernels.changes(root)
               if c.path.relative_to(root).as_posix() in result.files]
    for c in changes:
        name = c.path.relative_to(root).as_posix()
        del result.files[name]
        try:
            text = broken_kernels.derive(c)
        except broken_kernels.NotApplied as error:
            raise HandoutError(f"{name} does not apply to its solution ({error}); fix it, or make the "
                               "handout without --keep-broken.")
        kernel = f"{broken_kernels.FOLDER}/{c.name}.cu"
        result.files[kernel] = c.path
        result.changed[kernel] = (text, c.path)
    if changes:
        result.notes.append(f"{broken_kernels.FOLDER}/: each change written out as the kernel it makes "
                            f"({len(changes)} kernels; the changes quote the solutions)")


def hand_out_stubs(root, result):
    """Every puzzle file as a stub, even where the instructor has been solving it in puzzles/."""
    try:
        from course import stubs  # the stubs as first handed out: git's HEAD, or build/pristine/
    except ImportError:
        stubs = None
    marker = stubs.MARKER if stubs else "FILL ME IN"
    for name in sorted(n for n in result.files if re.fullmatch(r"puzzles/[^/]+\.cu", n)):
        text = (root / name).read_text(encoding="utf-8", errors="replace")
        if marker in text:
            continue
        puzzle = name[len("puzzles/"):-len(".cu")]
        original, where = stubs.stub(puzzle) if stubs else (None, "no copy of the stubs was kept")
        if original is None:
            raise HandoutError(f"{name} is not a stub any more (it has no {marker} marker), and its "
                               f"stub cannot be found: {where}. Restore it, then make the handout.")
        result.changed[name] = (original, root / name)
        result.notes.append(f"{name}: the stub from {where} (the file in puzzles/ has been edited)")


def leave_out_solutions(root, result):
    """Leaves out whatever would still give a solution away: a copy of one, or a source file
    that #includes one (a benchmark that times the reference kernels, say)."""
    solutions = {}
    if (root / "solutions").is_dir():
        for path in sorted((root / "solutions").glob("*.cu")):
            solutions[path.read_bytes().strip()] = path.name
    for name in sorted(result.files):
        data = result.changed[name][0].encode("utf-8") if name in result.changed else result.files[name].read_bytes()
        if data.strip() in solutions or (name.endswith(SOURCE_SUFFIXES) and
                                         re.search(rb'#\s*include\s*[<"][^>"\n]*solutions/', data)):
            del result.files[name]
            result.changed.pop(name, None)
            result.left_out.setdefault(HOLDS_SOLUTION, []).append(name)
            result.left_out_shown.setdefault(HOLDS_SOLUTION, set()).add(name)


def write(result, out):
    out.mkdir(parents=True, exist_ok=True)
    for name, source in sorted(result.files.items()):
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if name in result.changed:
            target.write_text(result.changed[name][0], encoding="utf-8")
            shutil.copymode(source, target)
        else:
            shutil.copy2(source, target)
    (out / MARKER).write_text(MARKER_TEXT, encoding="utf-8")

#!/usr/bin/env python3
"""checker/run grade against hostile submissions: each attack is contained by the sandbox and
costs only its own cell, and the honest students' grades are what they would be anyway.

Each hostile file is the reference solution of puzzle 1 with an attack in a static initialiser
(it runs when the checker starts). When the attack is stopped, the file aborts: so an attack that
got through would pass, and the test would see it. One class, graded once:

    python3 tests/instructor/test_grade_hostile.py Hostile
    python3 tests/instructor/test_grade_hostile.py SandboxSetup
    python3 tests/instructor/test_grade_hostile.py NoSandbox
"""
import csv
import io
import os
import shutil
import socket
import stat
import unittest
from pathlib import Path
from unittest import mock

from support import ROOT, build_dir, checker_run, main, tree_fingerprint, work_dir

from course import grading_sandbox  # noqa: E402  (support puts checker/cli on the path)
from course.grading_processes import run as run_process  # noqa: E402

PUZZLE = "p01_naive"
SECRET = "the grades say: top secret 4711"
# Planted while the class is graded, next to the course and in the grader's home: whoever
# clones into their home keeps keys, dotfiles and other checkouts beside the course.
NEIGHBOUR_SECRET = "next to the course: a neighbour's secret 5813"
HOME_SECRET = "in the grader's home: a private key 2137"


def solution():
    return (ROOT / "solutions" / f"{PUZZLE}.cu").read_text(encoding="utf-8")


def hostile(attack, includes="#include <cstdio>\n#include <cstdlib>\n"):
    """The solution, after a static initialiser that runs attack (C++ returning true when the
    attack worked) and aborts when it did not."""
    return (includes + "namespace {\nbool attack() {\n" + attack + "\n}\n"
            "const bool attacked = attack() || (std::abort(), false);\n}  // namespace\n\n" + solution())


# paul_poisons: a C++ function that writes POISON into every .o and .cu file under a folder, and
# says whether it could read or write one.
POISON_BYTES = b"poisoned by paul"
OWN_MAIN = grading_sandbox.SCRATCH_AT / "build" / "CMakeFiles" / "checker_main.dir" / "checker_main.cpp.o"
POISONER = r"""
#define POISON "poisoned by paul"
namespace {
bool poison(const std::string& dir, int depth) {
  DIR* d = opendir(dir.c_str());
  if (!d) return false;
  bool reached = false;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name, path = dir + "/" + name;
    struct stat st;
    if (name == "." || name == ".." || lstat(path.c_str(), &st) != 0) continue;
    bool target = name.size() > 3 && (name.compare(name.size() - 2, 2, ".o") == 0 ||
                                      name.compare(name.size() - 3, 3, ".cu") == 0);
    if (S_ISDIR(st.st_mode) && depth < 16) {
      reached = poison(path, depth + 1) || reached;
    } else if (S_ISREG(st.st_mode) && target) {
      if (FILE* f = std::fopen(path.c_str(), "r+b")) { std::fputs(POISON, f); std::fclose(f); reached = true; }
      if (FILE* f = std::fopen(path.c_str(), "rb")) { std::fclose(f); reached = true; }  // read is enough
    }
  }
  closedir(d);
  return reached;
}
}  // namespace
"""


def c_string(path):
    return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'


def way_down(folder, targets):
    """The names in folder that lie on the way down to one of targets: all that the sandbox may
    show of a folder above what it shows."""
    return sorted({Path(t).relative_to(folder).parts[0] for t in targets if Path(folder) in Path(t).parents})


def peek(files, folders):
    """C++ that prints each of files it can open and each entry of folders (a dict: folder ->
    the names it may show) beyond those names, and returns true when there was any."""
    code = "bool seen = false;\nconst char* files[] = {" + ", ".join(c_string(f) for f in files) + "};\n"
    code += ("for (const char* path : files)\n"
             "  if (FILE* f = std::fopen(path, \"r\")) { char line[256]; seen = true;\n"
             "    while (std::fgets(line, sizeof line, f)) std::fputs(line, stdout); std::fclose(f); }\n")
    for folder, names in folders.items():
        allowed = ", ".join([c_string(n) for n in names] + [c_string("."), c_string("..")])
        code += ("if (DIR* d = opendir(" + c_string(folder) + ")) {\n"
                 "  const char* allowed[] = {" + allowed + "};\n"
                 "  while (dirent* e = readdir(d)) {\n"
                 "    bool ok = false;\n"
                 "    for (const char* name : allowed) ok = ok || std::strcmp(name, e->d_name) == 0;\n"
                 "    if (!ok) { seen = true;\n"
                 "      std::printf(\"ivan listed %s/%s\\n\", " + c_string(folder) + ", e->d_name); }\n"
                 "  }\n  closedir(d);\n}\n")
    return code + "return seen;"


class Hostile(unittest.TestCase):
    RUN_LIMIT = 20  # seconds per checker run: a fork bomb that got through ends here

    @classmethod
    def setUpClass(cls):
        build = build_dir()
        if not (build / "CMakeCache.txt").exists():
            raise unittest.SkipTest(f"no configured build at {build}: run checker/run test first")
        cls.work = work_dir("grade-hostile")
        try:  # a machine that cannot sandbox is reported as such, not as a failure of the sandbox
            grading_sandbox.Bubblewrap([], [], 1).probe(cls.work)
        except grading_sandbox.SandboxUnavailable as error:
            raise unittest.SkipTest(str(error).splitlines()[0])
        c = cls.class_dir = cls.work / "class"
        cls.out = cls.work / "results"
        cls.out.mkdir()
        (cls.out / "results.csv").write_text(SECRET + "\n")  # the grades of an earlier grading
        cls.outside = cls.work / "outside.txt"  # next to the class: grading's own folder
        home = Path.home().resolve()
        cls.planted = {ROOT.parent / f"neighbour-secret-{os.getpid()}.txt": NEIGHBOUR_SECRET,
                       home / f".grading-test-secret-{os.getpid()}": HOME_SECRET}
        # What the sandbox may show of the folders above the course and the build: the way down.
        shown = [ROOT / "checker", build.resolve()]
        above = {home, ROOT.parent, ROOT} | {p for s in shown for p in s.parents}
        peeked = {str(f): way_down(f, shown) for f in sorted(above) if f != Path("/")}
        cls.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        cls.listener.bind(("127.0.0.1", 0))
        cls.listener.listen(8)
        port = cls.listener.getsockname()[1]
        alice = c / "alice" / f"{PUZZLE}.cu"
        # Grading's own work folder (the template trees, every scratch folder) goes here, inside
        # the build's grading export, which the sandbox shows: the work folder must be hidden there.
        cls.grader_tmp = build / "grading" / "grade-hostile-tmp"
        shutil.rmtree(cls.grader_tmp, ignore_errors=True)
        cls.grader_tmp.mkdir()
        targets = [cls.outside, ROOT / "escaped.txt", build / "grading" / "settings.cmake"]
        files = {
            "alice": solution(),
            "bob": (ROOT / "puzzles" / f"{PUZZLE}.cu").read_text(encoding="utf-8"),
            # system(): rewrite a classmate's submission, list the class.
            "hugo_system": hostile(f'return std::system("ls {c}/* && echo pwned >> {alice}") == 0;'),
            # A classmate's file, the grades, the course's solutions, a file next to the course and
            # one in the grader's home; and a listing of every folder above the course and the build
            # (the home among them), which may show the way down and nothing else.
            "ivan_reads": hostile(
                peek([alice, cls.out / "results.csv", ROOT / "solutions" / f"{PUZZLE}.cu", *cls.planted], peeked),
                "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <dirent.h>\n"),
            # Outside the scratch folder: next to the class, in the course, the instructor's build.
            "jade_writes": hostile(
                "const char* paths[] = {" + ", ".join(c_string(t) for t in targets) + "};\n"
                "for (const char* path : paths)\n"
                "  if (FILE* f = std::fopen(path, \"a\")) { std::fputs(\"// escaped\\n\", f); std::fclose(f); return true; }\n"
                "return false;"),
            # A fork bomb, kept small enough to be survivable should the limit not hold.
            "kurt_forks": hostile(
                "for (int i = 0; i < 1000; ++i) {\n"
                "  pid_t child = fork();\n"
                "  if (child < 0) return false;\n"
                "  if (child == 0) { sleep(20); _exit(0); }\n"
                "}\nreturn true;",
                "#include <cstdlib>\n#include <unistd.h>\n"),
            # 100 GB, in pieces small enough for the kernel's overcommit check: only a limit stops it.
            "lena_allocates": hostile(
                "static char* volatile kept[100];  // used, so that the compiler keeps every malloc\n"
                "for (int i = 0; i < 100; ++i) {\n"
                "  kept[i] = static_cast<char*>(std::malloc(std::size_t(1) << 30));\n"
                "  if (!kept[i]) return false;\n"
                "  kept[i][0] = 1;\n"
                "}\nreturn true;"),
            # An endless print.
            "milo_prints": hostile('for (;;) std::fputs("all work and no play makes a dull kernel\\n", stdout);'),
            # A connection to a port the grader's machine listens on.
            "nora_connects": hostile(
                "int s = socket(AF_INET, SOCK_STREAM, 0);\n"
                "sockaddr_in to{}; to.sin_family = AF_INET; to.sin_port = htons(" + str(port) + ");\n"
                "to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);\n"
                "return s >= 0 && connect(s, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0;",
                "#include <cstdlib>\n#include <arpa/inet.h>\n#include <netinet/in.h>\n#include <sys/socket.h>\n"),
            # The template tree every submission's build starts from: poison its own copy of the
            # checker main (which must stay its own), then every object or kernel file it can
            # reach in grading's work folder (the template, other students' trees).
            "paul_poisons": hostile(
                f"if (FILE* f = std::fopen({c_string(OWN_MAIN)}, \"r+b\")) {{ std::fputs(POISON, f); std::fclose(f); }}\n"
                f"return poison({c_string(cls.grader_tmp)}, 0);",
                "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <string>\n#include <dirent.h>\n"
                "#include <sys/stat.h>\n" + POISONER),
            "zoe": solution(),
        }
        for student, text in files.items():
            (c / student).mkdir(parents=True)
            (c / student / f"{PUZZLE}.cu").write_text(text, encoding="utf-8")
        (c / "olga_links").mkdir()
        (c / "olga_links" / f"{PUZZLE}.cu").symlink_to("/etc/passwd")  # outside the class
        cls.before = {t: (t.read_bytes() if t.exists() else None) for t in targets}
        cls.class_before = tree_fingerprint(c)
        os.environ["TMPDIR"] = str(cls.grader_tmp)
        try:
            for path, text in list(cls.planted.items()):
                try:
                    path.write_text(text + "\n")
                except PermissionError:  # a folder the grader cannot write: its listing is still checked
                    del cls.planted[path]
            cls.status, cls.stdout, cls.stderr = checker_run(
                "grade", c, "--build-dir", build, "--backend=cpu", "--jobs", "2", "--run-timeout", cls.RUN_LIMIT,
                "--out", cls.out, "--keep", timeout=600)
        finally:
            del os.environ["TMPDIR"]
            for path in cls.planted:
                path.unlink(missing_ok=True)
        cls.class_after = tree_fingerprint(c)
        cls.after = {t: (t.read_bytes() if t.exists() else None) for t in targets}
        cls.listener.setblocking(False)
        try:
            cls.connection = cls.listener.accept()
        except BlockingIOError:
            cls.connection = None
        cls.listener.close()
        cls.rows = {}
        if (cls.out / "results.csv").exists():
            rows = list(csv.reader(io.StringIO((cls.out / "results.csv").read_text(encoding="utf-8"))))
            cls.rows = {r[0]: r[1] for r in rows[1:]}

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "work", None) and cls.status == 0:
            shutil.rmtree(cls.work, ignore_errors=True)
            shutil.rmtree(cls.grader_tmp, ignore_errors=True)

    def cell(self, student):
        self.assertIn(student, self.rows, f"no row for {student}:\n{self.stdout}\n{self.stderr}")
        return self.rows[student]

    def detail(self, student):
        return (self.out / "details" / f"{student}.txt").read_text(encoding="utf-8")

    def test_grading_ran_in_the_sandbox_and_says_so(self):
        self.assertEqual(self.status, 0, f"{self.stdout}\n{self.stderr}")
        self.assertIn("Sandbox: bubblewrap", (self.out / "results.md").read_text(encoding="utf-8"))

    def test_honest_students_get_the_grades_they_would_get_anyway(self):
        self.assertEqual(self.cell("alice"), "pass")
        self.assertRegex(self.cell("bob"), r"^fail: unwritten output \(\d+ of \d+ in c\)$")

    def test_every_attack_is_its_own_submissions_failure(self):
        for student in ("hugo_system", "ivan_reads", "jade_writes", "kurt_forks", "lena_allocates", "nora_connects",
                        "paul_poisons"):
            with self.subTest(student=student):
                self.assertEqual(self.cell(student), "fail: the checker stopped with signal 6",
                                 self.detail(student)[-3000:])

    def test_system_and_writes_reach_nothing_outside_the_scratch_folder(self):
        self.assertEqual(self.class_before, self.class_after)
        self.assertEqual(self.before, self.after)
        self.assertFalse((ROOT / "escaped.txt").exists())

    def test_a_classmates_file_the_grades_the_solutions_and_the_home_are_out_of_sight(self):
        detail = self.detail("ivan_reads")
        self.assertNotIn(SECRET, detail)
        self.assertNotIn(NEIGHBOUR_SECRET, detail)
        self.assertNotIn(HOME_SECRET, detail)
        self.assertNotIn("ivan listed ", detail)  # a folder above the course showed more than the way down
        self.assertNotIn("__global__", detail.split("--- p01_naive --backend", 1)[-1])
        self.assertNotIn("alice", self.detail("hugo_system").split("--- p01_naive --backend", 1)[-1])

    def test_no_connection_reached_the_grader_s_machine(self):
        self.assertIsNone(self.connection)

    def test_the_template_trees_are_out_of_reach_and_each_copy_is_its_own(self):
        self.assertEqual(self.cell("zoe"), "pass")  # graded after paul_poisons, from the same template
        kept = sorted(self.grader_tmp.glob("puzzle-grading-*"))
        self.assertEqual(len(kept), 1, self.stdout)
        template = kept[0] / "templates" / PUZZLE / "build"
        main_object = template / OWN_MAIN.relative_to(grading_sandbox.SCRATCH_AT / "build")
        self.assertTrue(main_object.is_file(), f"no template at {template}")
        self.assertNotIn(POISON_BYTES, main_object.read_bytes())
        for current, dirs, files in os.walk(template):  # the grader's, not a sandbox's uid
            for name in [current] + [os.path.join(current, n) for n in dirs + files]:
                self.assertEqual(os.lstat(name).st_uid, os.getuid(), name)
        # The attack did run: its own copy was its own to change.
        own = [p for p in kept[0].glob(f"*paul_poisons/{PUZZLE}/build")]
        self.assertEqual(len(own), 1)
        self.assertIn(POISON_BYTES, (own[0] / main_object.relative_to(template)).read_bytes())

    def test_an_endless_print_is_stopped_at_the_output_limit(self):
        self.assertEqual(self.cell("milo_prints"), "fail: printed more than 16 MiB")

    def test_a_linked_submission_is_refused_unread(self):
        self.assertEqual(self.cell("olga_links"), "fail: not graded: a symbolic link")
        self.assertNotIn("root:", self.detail("olga_links"))


class SandboxSetup(unittest.TestCase):
    """Where bubblewrap is missing or cannot set up its namespaces, grading says why and stops;
    where it works, it shows what grading reads and nothing else, wherever the course lies."""

    def setUp(self):
        self.work = work_dir("grade-sandbox-setup")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def probe(self, bwrap):
        sandbox = grading_sandbox.Bubblewrap([], [], 1, bwrap=str(bwrap))
        with self.assertRaises(grading_sandbox.SandboxUnavailable) as raised:
            sandbox.probe(self.work)
        return str(raised.exception)

    def test_without_bubblewrap(self):
        said = self.probe(self.work / "no-such-bwrap")
        self.assertIn("bubblewrap (bwrap) is not installed", said)
        self.assertIn("--no-sandbox", said)

    def test_without_user_namespaces(self):
        fake = self.work / "bwrap"  # what bwrap says where user namespaces are turned off
        fake.write_text("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'bubblewrap 0.8.0'; exit 0; }\n"
                        "echo 'bwrap: No permissions to create new namespace, likely because the kernel does "
                        "not allow non-privileged user namespaces.' >&2\nexit 1\n")
        fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
        said = self.probe(fake)
        self.assertIn("cannot be set up here: bwrap: No permissions to create new namespace", said)
        self.assertIn("--no-sandbox", said)

    def sandbox(self, readable, hidden=()):
        """A sandbox that works here, showing readable, or the test is skipped."""
        sandbox = grading_sandbox.Bubblewrap(readable, hidden, 1)
        try:
            sandbox.probe(self.work)
        except grading_sandbox.SandboxUnavailable as error:
            self.skipTest(str(error).splitlines()[0])
        return sandbox

    def inside(self, sandbox, script):
        """What script (sh) prints in sandbox, run from a scratch folder of its own."""
        scratch = self.work / "scratch"
        scratch.mkdir(exist_ok=True)
        with sandbox.slot() as slot:
            slot.prepare(scratch)
            command, env = slot.wrap(["sh", "-c", script], scratch, 10, {})
            return run_process(command, cwd=scratch, time_limit=30, env=env).output

    def test_a_sandbox_that_works_passes_the_probe_and_hides_what_it_should(self):
        sandbox = self.sandbox([ROOT], [ROOT / "docs"])
        self.assertRegex(sandbox.version, r"^\d+\.\d+")
        home = Path.home().resolve()
        output = self.inside(sandbox, f"id -u; ls {ROOT / 'docs'} | wc -l; ls {ROOT / 'README.md'}; "
                                      f"touch {ROOT / 'x'} 2>&1; echo $(ls -A {home} 2>&1)")
        lines = output.splitlines()
        self.assertNotEqual(lines[0], "0", output)  # not root, whoever grades
        self.assertEqual(lines[1], "0", output)  # a hidden folder is empty
        self.assertEqual(lines[2], str(ROOT / "README.md"), output)  # the course is readable
        self.assertIn("Read-only file system", lines[3])
        # The grader's home: absent, or (where the course lies in it) the way down to the course.
        if home in ROOT.parents:
            self.assertEqual(lines[4], ROOT.relative_to(home).parts[0], output)
        elif home != ROOT and ROOT not in home.parents:
            self.assertIn("No such file or directory", lines[4])

    def course_tree(self, course, around):
        """A checkout of the course and its build, as far as grading goes, and around it the files
        of around (path -> text). Returns (the build, what the sandbox must show, what not)."""
        build = course / "build" / "cpu-only"
        secrets = {**around, **{
            course / "solutions" / "p01_naive.cu": "the course's solution",
            course / ".git" / "config": "the course's history",
            course / "class" / "alice" / "p01_naive.cu": "a student's kernel inside the course",
            build / "checker" / "p01_naive": "a checker built from the solutions",
            build / "Testing" / "Temporary" / "LastTest.log": "a test log",
        }}
        shown = {
            course / "checker" / "grading" / "CMakeLists.txt": "the grading project",
            course / "checker" / "cmake" / "KernelTargets.cmake": "the course's CMake modules",
            course / "checker" / "engine" / "include" / "engine.h": "the engine's headers",
            build / "grading" / "settings.cmake": "the build's settings for grading",
            build / "checker" / "engine" / "libengine.a": "the engine",
        }
        for path, text in {**secrets, **shown}.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text + "\n")
        # The grading export names the headers and the libraries, as export() writes them.
        (build / "grading" / "targets.cmake").write_text(
            "set_target_properties(engine PROPERTIES\n"
            f'  INTERFACE_INCLUDE_DIRECTORIES "{course}/checker/engine/include"\n'
            f'  IMPORTED_LOCATION_RELWITHDEBINFO "{build}/checker/engine/libengine.a"\n)\n')
        (build / "grading" / "imported.cmake").write_text("")
        for current, dirs, files in os.walk(self.work):  # as a checkout is: readable by all
            for name in [current] + [os.path.join(current, n) for n in dirs]:
                os.chmod(name, 0o755)
        return build, shown, secrets

    def graded_view(self, course, build, hidden, folders, files):
        """What a submission lists of folders and reads of files, in the sandbox grade sets up
        for a course and its build (a dict: path -> what it printed)."""
        sandbox = self.sandbox([], hidden)
        sandbox.show(grading_sandbox.what_grading_reads(course / "checker" / "grading", build, course),
                     covering=[course, build])
        output = self.inside(sandbox, "".join(f"echo {f}: $(ls -A {f} 2>&1)\n" for f in folders) +
                             "".join(f"echo {f}: $(cat {f} 2>/dev/null)\n" for f in files))
        return {path: said.strip() for path, _, said in (line.partition(":") for line in output.splitlines())}

    def test_a_course_in_a_home_folder_shows_the_way_down_to_what_grading_reads_and_nothing_else(self):
        """Wherever the course lies (here in a home folder, beside a classmate's home), the
        sandbox shows what_grading_reads() of it and of its build, and of each folder above them
        only the name on the way down: no dotfiles, keys, other checkouts, solutions, history,
        classes or grades."""
        homes = self.work / "home"
        home = homes / "someone"
        course = home / "course"
        build, shown, secrets = self.course_tree(course, {
            homes / "classmate" / "p01_naive.cu": "a classmate's kernel",
            home / ".ssh" / "id_ed25519": "a private key",
            home / ".bash_history": "a typed password",
            home / "other-checkout" / "solutions" / "p01_naive.cu": "another checkout's solution",
            home / "course-grades" / "results.csv": "last year's grades",
        })
        seen = self.graded_view(course, build, [course / "class"],
                                [homes, home, course, course / "checker", course / "build", build, build / "checker"],
                                sorted({**secrets, **shown}))
        self.assertEqual(seen[str(homes)], "someone", seen)
        self.assertEqual(seen[str(home)], "course", seen)
        self.assertEqual(seen[str(course)], "build checker", seen)
        self.assertEqual(seen[str(course / "checker")], "cmake engine grading", seen)
        self.assertEqual(seen[str(course / "build")], "cpu-only", seen)
        self.assertEqual(seen[str(build)], "checker grading", seen)
        self.assertEqual(seen[str(build / "checker")], "engine", seen)
        for path, text in shown.items():
            self.assertEqual(seen[str(path)], text, seen)
        for path in secrets:
            self.assertEqual(seen[str(path)], "", seen)

    def test_a_course_in_a_toolchain_folder_shows_what_grading_reads_and_nothing_else(self):
        """A course in a folder the sandbox shows whole (/opt/course, /usr/local/src/course; here
        a stand-in for /opt): the rest of the toolchain folder shows, the rest of the course does
        not, and a class kept there (a folder grading hides) is an empty folder."""
        opt = self.work / "opt"
        course = opt / "course"
        build, shown, secrets = self.course_tree(course, {
            opt / "classes" / "2026" / "alice" / "p01_naive.cu": "a class kept in /opt"})
        shown[opt / "llvm" / "bin" / "clang"] = "a compiler in /opt"
        (opt / "llvm" / "bin").mkdir(parents=True, mode=0o755)
        (opt / "llvm" / "bin" / "clang").write_text("a compiler in /opt\n")
        with mock.patch.object(grading_sandbox, "TOOLCHAIN", grading_sandbox.TOOLCHAIN + [str(opt)]):
            seen = self.graded_view(course, build, [opt / "classes" / "2026"],
                                    [opt, opt / "classes" / "2026", course, course / "checker", build],
                                    sorted({**secrets, **shown}))
        self.assertEqual(seen[str(opt)], "classes course llvm", seen)
        self.assertEqual(seen[str(opt / "classes" / "2026")], "", seen)  # hidden: an empty folder
        self.assertEqual(seen[str(course)], "build checker", seen)
        self.assertEqual(seen[str(course / "checker")], "cmake engine grading", seen)
        self.assertEqual(seen[str(build)], "checker grading", seen)
        for path, text in shown.items():
            self.assertEqual(seen[str(path)], text, seen)
        for path in secrets:
            self.assertEqual(seen[str(path)], "", seen)

class NoSandbox(unittest.TestCase):
    """grade --no-sandbox grades as the sandbox would, bare, and says so."""

    def test_a_solution_passes_without_the_sandbox(self):
        build = build_dir()
        if not (build / "CMakeCache.txt").exists():
            self.skipTest(f"no configured build at {build}: run checker/run test first")
        work = work_dir("grade-no-sandbox")
        (work / "class" / "alice").mkdir(parents=True)
        (work / "class" / "alice" / f"{PUZZLE}.cu").write_text(solution(), encoding="utf-8")
        status, stdout, stderr = checker_run("grade", work / "class", "--build-dir", build, "--backend=cpu",
                                             "--no-sandbox", "--out", work / "results", timeout=600)
        self.assertEqual(status, 0, f"{stdout}\n{stderr}")
        results = (work / "results" / "results.md").read_text(encoding="utf-8")
        self.assertIn("Sandbox: none (--no-sandbox)", results)
        rows = list(csv.reader(io.StringIO((work / "results" / "results.csv").read_text(encoding="utf-8"))))
        self.assertEqual(rows[1][:2], ["alice", "pass"], results)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("NO_COLOR", "1")
    main()

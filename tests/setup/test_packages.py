"""No test may skip for a Debian package that the README's test command does not install.

`checker/run test` installs the packages of checker/debian-packages.txt (through
checker/install-packages); `checker/run packages test` prints which. A test that cannot run
without a package says so in its skip reason as "(Debian package NAME)" or "(the GROUP
packages of checker/debian-packages.txt: ...)"; `checker/run test` turns such a skip into a
failure. This test reads every skip reason in tests/ and fails if one names a package that
`checker/run test` does not install, or speaks of something "not installed" without saying
which package (or that it is not a Debian package), so that the rule cannot be dodged by
wording. Standard library only.
"""
import re
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Where a test says it skips: Python's unittest, the doctest helper, scripts printing SKIPPED.
SKIP_SITE = re.compile(r"skipTest\(|SkipTest\(|note_skipped\(|SKIPPED")
PACKAGE = re.compile(r"Debian packages? ([a-z0-9][a-z0-9.+-]*(?:[ ,]+(?:and )?[a-z0-9][a-z0-9.+-]*)*)")
GROUP = re.compile(r"the ([a-z0-9-]+) packages of checker/debian-packages\.txt")
ABSENT = re.compile(r"not installed|is missing|are missing|not found|needs the package")
NOT_DEBIAN = "not a Debian package"
SOURCES = {".py", ".cpp", ".h", ".sh", ".cmake", ".txt"}


def skip_reasons(text):
    """(line number, statement) for every skip site: the line and the two after it, which
    hold the rest of a reason split over lines."""
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if SKIP_SITE.search(line):
            yield number, " ".join(l.strip() for l in lines[number - 1:number + 2])


def problems(reason, installed, groups):
    """What is wrong with one skip reason, as sentences (none when it keeps the rule)."""
    named = [name for match in PACKAGE.finditer(reason)
             for name in re.split(r"[ ,]+(?:and )?", match.group(1)) if name]
    found = []
    for name in named:
        if name not in installed:
            found.append(f"it skips for the Debian package {name}, which `checker/run test` does not install")
    for match in GROUP.finditer(reason):
        if match.group(1) not in groups:
            found.append(f"it skips for the {match.group(1)} packages, a group `checker/run test` does not install")
    if ABSENT.search(reason) and not named and not GROUP.search(reason) and NOT_DEBIAN not in reason:
        found.append("it skips for something missing without naming the Debian package "
                     "(write \"(Debian package NAME)\", or say it is not a Debian package)")
    return found


def run(*args):
    return subprocess.run([str(ROOT / "checker" / "run"), *args], cwd=ROOT, check=True,
                          stdout=subprocess.PIPE, text=True).stdout.split()


class SkipReasons(unittest.TestCase):
    def setUp(self):
        self.installed = set(run("packages", "test"))
        listed = (ROOT / "checker" / "debian-packages.txt").read_text(encoding="utf-8").splitlines()
        every_group = {line.split()[1] for line in listed if line.strip() and not line.startswith("#")}
        self.groups = {group for group in every_group if set(run_list(group)) <= self.installed}

    def test_checker_run_test_installs_every_listed_package(self):
        listed = set(run_list())
        self.assertEqual(listed - self.installed, set())

    def test_no_test_skips_for_a_package_that_checker_run_test_does_not_install(self):
        found = []
        seen = 0
        for path in sorted((ROOT / "tests").rglob("*")):
            if path.suffix not in SOURCES or not path.is_file() or path == Path(__file__).resolve():
                continue
            for number, reason in skip_reasons(path.read_text(encoding="utf-8", errors="replace")):
                seen += 1
                found += [f"{path.relative_to(ROOT)}:{number}: {p}" for p in problems(reason, self.installed, self.groups)]
        self.assertGreater(seen, 10, "the scan found almost no skip sites: has the convention changed?")
        self.assertEqual(found, [], "\n".join(found))

    def test_the_rule_catches_what_it_should(self):
        installed, groups = {"git", "mkdocs"}, {"docs"}
        self.assertEqual(problems('skipTest("git is not installed (Debian package git)")', installed, groups), [])
        self.assertEqual(problems("MkDocs is not installed (the docs packages of checker/debian-packages.txt: mkdocs)",
                                  installed, groups), [])
        self.assertEqual(problems("ncu is not installed: it comes with the CUDA toolkit, not a Debian package",
                                  installed, groups), [])
        self.assertEqual(len(problems("needs the Debian package qemu-user", installed, groups)), 1)
        self.assertEqual(len(problems("the bench packages of checker/debian-packages.txt", installed, groups)), 1)
        self.assertEqual(len(problems('skipTest("git is not installed")', installed, groups)), 1)
        self.assertEqual(len(problems("(Debian packages git, mkdocs and clangd)", installed, groups)), 1)


def run_list(*groups):
    return subprocess.run([str(ROOT / "checker" / "install-packages"), "--list", *groups], cwd=ROOT, check=True,
                          stdout=subprocess.PIPE, text=True).stdout.split()


if __name__ == "__main__":
    unittest.main(verbosity=1)

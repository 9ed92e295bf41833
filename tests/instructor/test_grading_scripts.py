#!/usr/bin/env python3
"""The job-array and CI-matrix scripts of docs/instructors/grading-shards.md are what an
instructor copies: each must parse (bash -n; YAML), and each must split the class into as many
shards as it runs (Slurm's --array=1-N and GitHub's matrix [1..N] against --shard K/N), and merge
them all.

    python3 tests/instructor/test_grading_scripts.py Scripts
"""
import re
import subprocess
import unittest

from support import ROOT, main

PAGE = ROOT / "docs" / "instructors" / "grading-shards.md"


def blocks(language):
    """The page's fenced code blocks in that language."""
    text = PAGE.read_text(encoding="utf-8")
    return [m.group(1) for m in re.finditer(rf"^```{language}\n(.*?)^```$", text, re.M | re.S)]


def shard_counts(text):
    """Every N of --shard K/N in the text."""
    return {int(n) for n in re.findall(r"--shard\s+(?:\$\{\{[^}]*\}\}|\S*?)/(\d+)", text)}


class Scripts(unittest.TestCase):
    def test_the_slurm_script_parses_and_its_array_covers_every_shard(self):
        [script] = blocks("bash")
        done = subprocess.run(["bash", "-n"], input=script, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        first, last = map(int, re.search(r"^#SBATCH --array=(\d+)-(\d+)", script, re.M).groups())
        self.assertEqual(first, 1)
        self.assertEqual(shard_counts(script), {last})

    def test_the_github_matrix_parses_and_covers_every_shard(self):
        try:
            import yaml
        except ImportError:
            self.skipTest("PyYAML is not installed (Debian package python3-yaml)")
        [text] = blocks("yaml")
        workflow = yaml.safe_load(text)
        grade = workflow["jobs"]["grade"]
        shards = grade["strategy"]["matrix"]["shard"]
        self.assertEqual(shards, list(range(1, len(shards) + 1)))
        commands = "\n".join(step.get("run", "") for step in grade["steps"])
        self.assertEqual(shard_counts(commands), {len(shards)})
        self.assertIn("checker/install-packages", commands, "install through the course's installer")
        merge = workflow["jobs"]["merge"]
        self.assertEqual(merge["needs"], "grade")
        self.assertTrue(any("grade --merge" in step.get("run", "") for step in merge["steps"]))

    def test_the_checks_fail_on_a_broken_script(self):
        done = subprocess.run(["bash", "-n"], input="if true; then\n", capture_output=True, text=True)
        self.assertNotEqual(done.returncode, 0)
        self.assertEqual(shard_counts("--shard $K/8 ... --shard 1/4"), {8, 4})


if __name__ == "__main__":
    main()

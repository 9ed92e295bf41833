#!/usr/bin/env python3
"""checker/run tune: the tuning files name the specs' constants, each variant is the solution with
those constants changed, and its checker uses them. tests/instructor/CMakeLists.txt registers one
CTest test per class:

    python3 tests/instructor/test_tune.py TuningFiles
"""
import shutil
import unittest

from support import ROOT, build_dir, checker_run, main

from course import specs, tuning  # noqa: E402  (support puts checker/cli on the path)


class TuningFiles(unittest.TestCase):
    """bench/tuning/<id>.json against the spec and the solution, without building anything."""

    def test_every_tuning_file_reads_and_changes_only_its_constants(self):
        files = sorted((ROOT / tuning.FOLDER).glob("p*.json"))
        self.assertTrue(files)
        for path in files:
            with self.subTest(file=path.name):
                spec = specs.find(path.stem)
                variants = tuning.read(ROOT, spec)
                self.assertEqual(variants[0], ("spec", {}))
                self.assertGreater(len(variants), 1)
                solution = (ROOT / "solutions" / f"{spec['id']}.cu").read_text(encoding="utf-8")
                for name, values in variants[1:]:
                    source = tuning.variant_source(solution, values, f"{spec['id']}.cu")
                    changed = [(a, b) for a, b in zip(solution.splitlines(), source.splitlines()) if a != b]
                    self.assertEqual(len(changed), len(values), name)
                    for constant, value in values.items():
                        self.assertIn(f"constexpr int {constant} = {value};", source)

    def test_a_bad_tuning_file_says_what_is_wrong(self):
        spec = dict(specs.find("p07"))
        work = ROOT / "build" / "tune-test"
        (work / tuning.FOLDER).mkdir(parents=True, exist_ok=True)
        self.addCleanup(shutil.rmtree, work, ignore_errors=True)
        for text, words in (('{"sweep": {"BX": [8]}}', "names BX, which is not a constant of the spec"),
                            ('{"sweep": {"BK": [0]}}', "BK = 0 is not a positive whole number"),
                            ('{"variants": [{"BK": 16}], "why": "x", "also": 1}', "unknown field also"),
                            ('{"sweep": ', "not JSON")):
            (work / tuning.FOLDER / f"{spec['id']}.json").write_text(text, encoding="utf-8")
            with self.subTest(text=text), self.assertRaises(tuning.TuningError) as caught:
                tuning.read(work, spec)
            self.assertIn(words, str(caught.exception))
        with self.assertRaises(tuning.TuningError):
            tuning.read(work / "nowhere", spec)

    def test_the_spec_values_are_one_variant_and_a_constant_defined_twice_is_refused(self):
        spec = specs.find("p07")
        self.assertEqual([n for n, _ in tuning.read(ROOT, spec)], ["spec", "BK=16"])
        with self.assertRaises(tuning.TuningError):
            tuning.variant_source("constexpr int BK = 8;\nconstexpr int BK = 8;\n", {"BK": 16}, "x.cu")

    def test_the_rows_of_every_variant_go_to_one_csv_with_a_variant_column(self):
        head = "puzzle,implementation,m\n"
        merged = tuning.merged_csv([("spec", head + "p07,a,1\n"), ("BK=16", head + "p07,a,1\np07,b,2\n")])
        self.assertEqual(merged, "variant,puzzle,implementation,m\nspec,p07,a,1\nBK=16,p07,a,1\nBK=16,p07,b,2\n")


class TuneCommand(unittest.TestCase):
    """checker/run tune end to end on the CPU backend (puzzle 7: two variants)."""

    def test_without_a_gpu_timing_stops_with_status_2(self):
        if shutil.which("nvidia-smi"):
            self.skipTest("this machine may have a GPU")
        status, out, err = checker_run("tune", "p07", "--build-dir", build_dir(), timeout=60)
        self.assertEqual(status, 2, out + err)
        self.assertIn("timing needs an NVIDIA GPU", err)
        self.assertIn("--backend=cpu", err)

    def test_each_variant_is_built_and_checked_with_its_own_constants(self):
        if not (build_dir() / "CMakeCache.txt").exists():
            self.skipTest(f"no configured build at {build_dir()}")
        status, out, err = checker_run("tune", "p07", "--backend=cpu", "--build-dir", build_dir(), "--jobs", "2")
        self.assertIn(status, (1, 2), out + err)
        self.assertIn("Not timed: timing needs an NVIDIA GPU", out)
        self.assertRegex(out, r"\n  spec +passed\n")
        work = ROOT / "build" / "tune" / "p07_bank_conflicts"
        # The checker's launch formulas and budgets use the variant's constants, not the spec's.
        self.assertIn("at most 8 * ceil(k / 8) global loads", (work / "spec" / "checker.log").read_text())
        self.assertIn("at most 16 * ceil(k / 16) global loads", (work / "BK16" / "checker.log").read_text())


if __name__ == "__main__":
    main()

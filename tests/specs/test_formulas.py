#!/usr/bin/env python3
"""The specs' formulas, evaluated by the Python reader (checker/cli/course/specs.py), against the
shared table tests/support/formula_cases.json; tests/checkers/test_specs.cpp holds the C++
evaluator to the same table, so the two cannot drift apart."""
import json
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "checker" / "cli"))

from course import site_facts, specs  # noqa: E402

TABLE = json.loads((ROOT / "tests" / "support" / "formula_cases.json").read_text(encoding="utf-8"))["cases"]


class Formulas(unittest.TestCase):
    def test_the_shared_table(self):
        self.assertGreater(len(TABLE), 10)
        for case in TABLE:
            with self.subTest(formula=case["formula"]):
                if "error" in case:
                    with self.assertRaises(ValueError) as caught:
                        specs.evaluate(case["formula"], case["variables"])
                    self.assertIn(case["error"], str(caught.exception))
                    self.assertTrue(str(caught.exception).startswith(f"cannot evaluate the formula '{case['formula']}'"))
                else:
                    self.assertEqual(specs.evaluate(case["formula"], case["variables"]), case["value"])

    def test_the_site_uses_the_same_evaluator(self):
        self.assertIs(site_facts.evaluate, specs.evaluate)

    def test_every_spec_formula_evaluates(self):
        for spec in specs.load_all():
            variables = {name: float(v) for name, v in spec.get("constants", {}).items()}
            variables.update({"n": 64.0, "m": 64.0, "k": 64.0, "size": 64.0, "SMS": 132.0})  # SMS: the device's
            launch = spec["launch"]
            for formula in launch["block"] + launch["grid"] + specs.cluster(spec):
                with self.subTest(spec=spec["id"], formula=formula):
                    self.assertGreaterEqual(specs.evaluate(formula, variables), 1)


    def test_a_cluster_is_read_as_the_checker_reads_it(self):
        """tests/checkers/test_specs.cpp refuses the same clusters with the same messages."""
        hopper = {"requires_gpu": "sm_90a", "launch": {"block": ["128"], "grid": ["4"]}}
        self.assertEqual(specs.cluster(hopper), [])
        self.assertEqual(specs.cluster({**hopper, "launch": {"cluster": ["CLUSTER_M", 1]}}), ["CLUSTER_M", "1"])
        self.assertEqual(specs.cluster({"requires_gpu": "sm_100", "launch": {"cluster": [2]}}), ["2"])
        refusals = [
            ({"requires_gpu": "sm_90a", "launch": {"cluster": []}}, "launch.cluster: one to three"),
            ({"requires_gpu": "sm_90a", "launch": {"cluster": [1, 1, 1, 1]}}, "launch.cluster: one to three"),
            ({"requires_gpu": "sm_90a", "launch": {"cluster": 2}}, "launch.cluster: one to three"),
            ({"requires_gpu": "sm_90a", "launch": {"cluster": [0, 1]}},
             "launch.cluster: every dimension of a cluster is at least 1"),
            ({"requires_gpu": "sm_90a", "launch": {"cluster": [1.5]}}, "launch.cluster: must be a whole number"),
            ({"requires_gpu": "sm_90a", "launch": {"cluster": [True]}}, "launch.cluster: must be a whole number"),
            ({"requires_gpu": "sm_80", "launch": {"cluster": [2, 1]}},
             "launch.cluster: thread block clusters need a Hopper GPU or newer: set requires_gpu to sm_90 or sm_90a"),
            ({"launch": {"cluster": [2, 1]}}, "launch.cluster: thread block clusters need a Hopper GPU or newer"),
        ]
        for spec, message in refusals:
            with self.subTest(spec=spec), self.assertRaises(ValueError) as caught:
                specs.cluster(spec)
            self.assertTrue(str(caught.exception).startswith(message), str(caught.exception))


if __name__ == "__main__":
    unittest.main(verbosity=1)

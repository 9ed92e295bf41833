#!/usr/bin/env python3
"""The checkers' --json report: documents from real checkers (a solution, a stub, broken kernels,
a usage error) checked against the JSON Schema in docs/dev/report-json.md and against what each
kernel is known to do. tests/report/CMakeLists.txt registers one CTest test per method:

    REPORT_TEST_BIN=build/default/test-bin python3 tests/report/test_report_json.py <method>
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "checker" / "cli"))

from course import broken_kernels, report, specs  # noqa: E402

SCHEMA_PAGE = ROOT / "docs" / "dev" / "report-json.md"
BIN = Path(os.environ.get("REPORT_TEST_BIN") or ROOT / "build" / "default" / "test-bin")


# --- The schema: the page's ```json block, and a validator for the keywords it uses ------------

def documented_schema():
    text = SCHEMA_PAGE.read_text(encoding="utf-8")
    block = re.search(r"^## The schema$.*?^```json\n(.*?)^```$", text, re.M | re.S)
    assert block, f"{SCHEMA_PAGE.name} has no ```json block under '## The schema'"
    return json.loads(block.group(1))


_TYPES = {"null": lambda v: v is None, "boolean": lambda v: isinstance(v, bool),
          "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
          "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
          "string": lambda v: isinstance(v, str), "array": lambda v: isinstance(v, list),
          "object": lambda v: isinstance(v, dict)}
KNOWN_KEYWORDS = {"type", "required", "properties", "items", "enum", "const", "$ref", "oneOf", "definitions"}


def problems(value, schema, root, where="$"):
    """Where value breaks schema (JSON Schema's type, required, properties, items, enum, const,
    $ref to #/definitions/..., oneOf); an empty list when it follows it."""
    unknown = set(schema) - KNOWN_KEYWORDS
    if unknown:  # a keyword this validator would silently ignore: the page must not use it
        return [f"{where}: the schema uses {sorted(unknown)}, which this test does not check"]
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/definitions/")
        return problems(value, root["definitions"][name], root, where)
    if "oneOf" in schema:
        matching = [s for s in schema["oneOf"] if not problems(value, s, root, where)]
        return [] if len(matching) == 1 else [f"{where}: matches {len(matching)} of oneOf's choices, not 1"]
    found = []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            return [f"{where}: {json.dumps(value)[:60]} is not {' or '.join(types)}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{where}: no '{key}'")
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                found += problems(value[key], sub, root, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found += problems(item, schema["items"], root, f"{where}[{i}]")
    return found


# --- Running checkers --------------------------------------------------------------------------

def run_checker(name, *options):
    """(status, document, stdout text, stderr text) of one checker run with --json."""
    binary = BIN / name
    if not binary.exists():
        raise AssertionError(f"{binary} is missing: build it first "
                             "(cmake --build <build> --target report_json_checkers)")
    done = subprocess.run([str(binary), *options, "--json"], capture_output=True, text=True, timeout=240,
                          env=dict(os.environ, NO_COLOR="1"))
    try:
        doc = json.loads(done.stdout)
    except ValueError:
        raise AssertionError(f"{name} {' '.join(options)} --json printed no JSON document:\n{done.stdout[:2000]}")
    return done.returncode, doc, done.stdout, done.stderr


# The kernels, their options (as their trailers in tests/broken/ give them), the status they exit
# with and what their report must say.
RUNS = {
    "solution": ("p01_naive_solution", ("--backend=cpu",), 0),
    "stub": ("p01_naive_stub", ("--backend=cpu", "--quick"), 1),
    "off_by_one": ("broken_p01_off_by_one", ("--backend=cpu", "--size=16"), 1),
    "missing_barrier": ("broken_p02_missing_barrier", ("--backend=cpu", "--size=5"), 1),
    "barrier_in_if": ("broken_p05_barrier_in_if", ("--backend=cpu", "--quick"), 1),
    "divide_by_zero": ("broken_p05_divide_by_zero", ("--backend=cpu", "--quick"), 1),
    "too_much_shared": ("broken_p03_too_much_shared", ("--backend=cpu",), 1),
    "usage": ("p01_naive_solution", ("--no-such-option",), 2),
    "profile_bench": ("p01_naive_solution", ("--backend=cpu", "--profile", "--bench", "--quick"), 0),
}
_cache = {}


def run(key):
    if key not in _cache:
        name, options, _ = RUNS[key]
        _cache[key] = run_checker(name, *options)
    return _cache[key]


def trailer_lines(name):
    """The lines a broken kernel's trailer names ('// Expect: ... at line 15 of ...'), in order:
    the kernels are derived from the solutions (tests/broken/README.md), so their lines move."""
    change = {c.name: c for c in broken_kernels.changes(ROOT)}[name]
    expects = re.findall(r"^// Expect: (.*)$", broken_kernels.derive(change), re.M)
    return [int(n) for e in expects for n in re.findall(r"\bat line (\d+)", e)]


def first_finding(doc):
    for case in doc["kernels"][0]["cases"]:
        for r in case["runs"]:
            if r["findings"]:
                return case, r["findings"][0]
    raise AssertionError("no finding in the report")


class ReportJson(unittest.TestCase):
    def test_every_document_follows_the_documented_schema(self):
        schema = documented_schema()
        for key, (name, options, status) in RUNS.items():
            with self.subTest(run=key):
                code, doc, _, _ = run(key)
                self.assertEqual(problems(doc, schema, schema), [])
                self.assertEqual(code, status)
                self.assertEqual(doc["status"], code)
        # The validator itself finds a broken document.
        _, doc, _, _ = run("off_by_one")
        broken = json.loads(json.dumps(doc))
        broken["kernels"][0]["cases"][0]["runs"][0]["findings"][0]["kind"] = "typo"
        del broken["verdict"]["passed"]
        self.assertEqual(len(problems(broken, schema, schema)), 2)

    def test_a_solution_passes_with_every_case_and_its_backend(self):
        code, doc, _, _ = run("solution")
        self.assertEqual(code, 0)
        self.assertIsNone(doc["error"])
        self.assertEqual(doc["puzzle"]["id"], "p01_naive")
        self.assertEqual(doc["puzzle"]["output"], "c")
        self.assertEqual(doc["verdict"]["passed"], True)
        kernel = doc["kernels"][0]
        self.assertEqual(doc["verdict"]["cases_passed"], doc["verdict"]["cases_total"])
        self.assertEqual(len(kernel["cases"]), doc["verdict"]["cases_total"])
        self.assertTrue(all(c["passed"] and c["runs"][0]["values"]["wrong"] == 0 for c in kernel["cases"]))
        self.assertEqual(kernel["cases"][0]["worked"], True)
        self.assertEqual(doc["backend"], {"requested": "cpu", "mode": "cpu",
                                          "reason": {"code": "requested", "data": {}}})
        self.assertIn("cpu", kernel["backends"])
        self.assertEqual(report.summary(doc), f"{len(kernel['cases'])} of {len(kernel['cases'])} cases passed")
        self.assertEqual(report.backend_words(doc), f"cpu ({kernel['backends']['cpu']})")
        # Each run carries the launch it got, as the spec's formulas give it at the case's size.
        launch = specs.find("p01_naive")["launch"]
        for case in kernel["cases"]:
            size = {"n": case["shape"]["n"]}
            expected = {"grid": [int(specs.evaluate(f, size)) for f in launch["grid"]] + [1],
                        "block": [int(specs.evaluate(f, size)) for f in launch["block"]] + [1],
                        "cluster": None, "dynamic_shared_bytes": 0}
            self.assertEqual(case["runs"][0]["launch"], expected)

    def test_a_stub_fails_with_unwritten_values(self):
        code, doc, _, _ = run("stub")
        self.assertEqual(code, 1)
        self.assertEqual(doc["verdict"]["cases_passed"], 0)
        worked = doc["kernels"][0]["cases"][0]
        values = worked["runs"][0]["values"]
        self.assertEqual(values["elements"], worked["shape"]["m"] * worked["shape"]["n"])
        self.assertEqual(values["unwritten"], values["elements"])
        self.assertEqual([e["index"] for e in values["first_unwritten"]], [0, 1, 2, 3, 4])
        self.assertEqual(values["first_unwritten"][1], {"index": 1, "row": 0, "col": 1})

    def test_broken_kernels_report_their_finding_with_kind_thread_buffer_and_line(self):
        # The kernel, its finding's kind, buffer, (block, thread), line: the trailers' facts.
        off_by_one, = trailer_lines("p01_off_by_one")
        race_write, race_read = trailer_lines("p02_missing_barrier")
        expected = {
            "off_by_one": ("out_of_bounds", "b", ([0, 0, 0], [0, 0, 0]), off_by_one, "p01_off_by_one.cu"),
            "missing_barrier": ("shared_race", "a_row", ([0, 0, 0], [1, 0, 0]), race_read, "p02_missing_barrier.cu"),
            "divide_by_zero": ("fault", None, ([0, 0, 0], [0, 0, 0]), None, None),
        }
        for key, (kind, buffer, (block, thread), line, file) in expected.items():
            with self.subTest(run=key):
                _, doc, _, _ = run(key)
                _, f = first_finding(doc)
                self.assertEqual(f["kind"], kind)
                self.assertEqual((f["block"], f["thread"]), (block, thread))
                if buffer:
                    self.assertEqual(f["buffer"], buffer)
                if line:
                    self.assertEqual(f["at"]["line"], line)
                    self.assertEqual(Path(f["at"]["file"]).name, file)
        _, doc, _, _ = run("off_by_one")
        case, f = first_finding(doc)
        self.assertEqual((f["index"], f["buffer_elements"], f["is_write"]), (16, 16, False))
        self.assertEqual(case["runs"][0]["finding_totals"].get("out_of_bounds", 0) >= 1, True)
        _, doc, _, _ = run("missing_barrier")
        _, f = first_finding(doc)
        self.assertEqual((f["other"]["thread"], f["other"]["is_write"], f["other"]["at"]["line"]),
                         ([0, 0, 0], True, race_write))
        _, doc, _, _ = run("barrier_in_if")
        _, f = first_finding(doc)
        self.assertEqual(f["kind"], "barrier_divergence")
        waiting = [g for g in f["groups"] if not g["returned"]]
        returned = [g for g in f["groups"] if g["returned"]]
        self.assertEqual(([g["count"] for g in waiting], [g["at"]["line"] for g in waiting]),
                         ([4], trailer_lines("p05_barrier_in_if")))
        self.assertEqual([g["count"] for g in returned], [5])

    def test_a_refused_launch_is_reported_as_its_rule_and_numbers(self):
        code, doc, _, _ = run("too_much_shared")
        self.assertEqual(code, 1)
        kernel = doc["kernels"][0]
        refused = kernel["cases"][0]["runs"][0]["refused"]
        self.assertEqual((refused["code"], refused["kernel"], refused["requested"], refused["limit"]),
                         ("static_shared_too_large", "matmul_row_col_shared", 65536, 49152))
        self.assertEqual(len(kernel["cases"]), 1)  # nothing more runs after a refusal
        self.assertEqual(kernel["cases_not_run"], kernel["cases_total"] - 1)

    def test_a_usage_error_is_a_document_with_status_2(self):
        code, doc, stdout, stderr = run("usage")
        self.assertEqual(code, 2)
        self.assertEqual(doc["error"]["code"], "usage")
        self.assertIn("--no-such-option", doc["error"]["message"])
        self.assertIn("--help", stderr)
        self.assertEqual(report.summary(doc), doc["error"]["message"])

    def test_json_on_stdout_moves_the_text_to_stderr(self):
        _, doc, stdout, stderr = run("solution")
        self.assertEqual(json.loads(stdout), doc)  # nothing else on stdout
        self.assertIn("Result: ", stderr)
        self.assertIn("Puzzle 1: ", stderr)
        # --json=FILE: the text stays on stdout, the same document goes to the file.
        out = Path(tempfile.gettempdir()) / f"report-test-{os.getpid()}.json"
        try:
            done = subprocess.run([str(BIN / "p01_naive_solution"), "--backend=cpu", f"--json={out}"],
                                  capture_output=True, text=True, timeout=240, env=dict(os.environ, NO_COLOR="1"))
            self.assertIn("Result: ", done.stdout)
            written = report.read(out)
            self.assertIsNotNone(written)
            self.assertEqual(written["verdict"], doc["verdict"])
        finally:
            out.unlink(missing_ok=True)

    def test_profile_rows_and_bench_measures_without_a_gpu(self):
        code, doc, _, _ = run("profile_bench")
        self.assertEqual(code, 0)
        kernel = doc["profile"]["cpu"][0]
        self.assertEqual(kernel["kernel"], "matmul_naive")
        rows = kernel["rows"]
        self.assertTrue(rows)
        self.assertTrue(all(r["line"] > 0 and r["requests"] > 0 and not r["shared"] for r in rows))
        self.assertEqual(sorted(r["excess"] for r in rows)[::-1], [r["excess"] for r in rows])  # costliest first
        bench = doc["bench"]
        self.assertEqual((bench["timed"], bench["not_timed"], bench["rows"]), (False, "cpu_requested", []))
        measure = bench["cpu_measures"][0]
        shape = measure["shape"]
        # The naive kernel: 2 loads per multiply-add, k of them per thread.
        self.assertEqual(measure["total_global_loads"], 2 * shape["m"] * shape["n"] * shape["k"])
        self.assertEqual(measure["busiest_thread_global_loads"], 2 * shape["k"])

    def test_grading_words_come_from_the_report(self):
        words = {key: report.failure_words(run(key)[1]) for key in
                 ("stub", "off_by_one", "missing_barrier", "barrier_in_if", "divide_by_zero", "too_much_shared",
                  "usage")}
        self.assertRegex(words["stub"], r"^unwritten output \(16 of 16 in c\)$")
        self.assertEqual(words["off_by_one"], "out-of-bounds read of b (line {})".format(*trailer_lines("p01_off_by_one")))
        self.assertEqual(words["missing_barrier"], "race on a_row (lines {}, {})".format(*trailer_lines("p02_missing_barrier")))
        self.assertEqual(words["barrier_in_if"], "barrier divergence (line {})".format(*trailer_lines("p05_barrier_in_if")))
        self.assertRegex(words["divide_by_zero"], r"^crash: integer division by zero")
        self.assertEqual(words["too_much_shared"],
                         "launch refused: 65536 bytes of __shared__ memory (at most 49152)")
        self.assertEqual(words["usage"], "unknown option '--no-such-option'")
        # The async proxy's findings name both lines: the unfenced write (or the wgmma) and the use.
        fence = {"kind": "proxy_fence", "at": {"line": 255}, "other": {"at": {"line": 250}}}
        self.assertEqual(report.finding_words(fence, "cpu"), "fence.proxy.async missing (lines 250, 255)")
        early = {"kind": "wgmma_accumulator", "at": {"line": 192}, "other": {"at": {"line": 100}}}
        self.assertEqual(report.finding_words(early, "cpu"), "wgmma accumulator used before its wait (lines 100, 192)")


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + [f"ReportJson.{m}" for m in sys.argv[1:]], verbosity=1)

"""The puzzle specs (checker/specs/*.json, docs/dev/spec.md), read the way the checkers read them.

The one Python reader of the specs: the command line, grading and the course site all load them
here, and evaluate their formulas with `evaluate`, which agrees with the checkers' own evaluator
(checker/lib/src/expression.cpp) on the shared table tests/support/formula_cases.json.
"""
import ast
import json
import math
import re

from course import paths


class PuzzleNotFound(Exception):
    pass


def read(path):
    """One spec file as a dict; ValueError (json's) when it is not JSON."""
    return json.loads(path.read_text(encoding="utf-8"))


def load_all(folder=None):
    """Every spec of `folder` (checker/specs by default), in order of number."""
    specs = [read(p) for p in sorted((folder or paths.SPECS).glob("p*.json"))]
    return sorted(specs, key=lambda s: s["number"])


def find(name, specs=None):
    """A puzzle named by number ("4", "04", "p04") or id ("p04_tiled")."""
    specs = specs if specs is not None else load_all()
    text = str(name).strip().lower()
    match = re.fullmatch(r"p?0*(\d+)", text)
    for spec in specs:
        if spec["id"] == text or (match and spec["number"] == int(match.group(1))):
            return spec
    raise PuzzleNotFound(
        f"no puzzle called '{name}'. The puzzles are: " + ", ".join(s["id"] for s in specs))


def kernel_name(kernel):
    """'matmul_warp_tiled' for 'matmul_warp_tiled<BM, BN>'."""
    return kernel.split("<", 1)[0].strip()


def cluster(spec):
    """The thread block cluster's formulas, x first ([] without clusters), checked as the checker
    checks "launch.cluster" (checker/lib/src/spec.cpp): one to three whole numbers (at least 1) or
    formulas, and a spec that asks for them needs requires_gpu sm_90 or newer. ValueError says why."""
    launch = spec.get("launch", {})
    if "cluster" not in launch:
        return []
    value = launch["cluster"]
    if not isinstance(value, list) or not 1 <= len(value) <= 3:
        raise ValueError('launch.cluster: one to three whole numbers or formulas, x first: [2, 1] or ["CLUSTER_M", 1]')
    formulas = []
    for item in value:
        if isinstance(item, str):
            formulas.append(item)
        elif isinstance(item, int) and not isinstance(item, bool):
            if item < 1:
                raise ValueError("launch.cluster: every dimension of a cluster is at least 1")
            formulas.append(str(item))
        else:
            raise ValueError("launch.cluster: must be a whole number")
    arch = re.fullmatch(r"sm_(\d+)a?", spec.get("requires_gpu", ""))
    if not arch or int(arch.group(1)) < 90:
        raise ValueError("launch.cluster: thread block clusters need a Hopper GPU or newer: "
                         "set requires_gpu to sm_90 or sm_90a")
    return formulas


# ---------------------------------------------------------------- formulas

_FUNCTIONS = {"ceil": math.ceil, "floor": math.floor, "min": min, "max": max}


def evaluate(formula, variables):
    """A spec formula's value (numbers, names, + - * / and ceil, floor, min, max; exact division).
    ValueError, with the formula, for anything else."""
    def fail(why):
        raise ValueError(f"cannot evaluate the formula '{formula}': {why}")

    def value(node):
        if isinstance(node, ast.Expression):
            return value(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and \
                not isinstance(node.value, bool):
            return float(node.value)
        if isinstance(node, ast.Name):
            if node.id not in variables:
                fail(f"'{node.id}' is not known here")
            return float(variables[node.id])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in (ast.Add, ast.Sub, ast.Mult, ast.Div):
            a, b = value(node.left), value(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if b == 0:
                fail("division by zero")
            return a / b
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS \
                and not node.keywords and node.args:
            return float(_FUNCTIONS[node.func.id](*[value(a) for a in node.args]))
        fail("only numbers, names, + - * / ( ) and ceil, floor, min, max are allowed")

    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError as error:
        fail(error.msg)
    return value(tree)

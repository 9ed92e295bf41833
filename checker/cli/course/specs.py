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

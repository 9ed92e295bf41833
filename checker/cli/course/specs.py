"""The puzzle specs (checker/specs/*.json, docs/dev/spec.md), read the way the checkers read them."""
import json
import re

from course import paths


class PuzzleNotFound(Exception):
    pass


def load_all():
    """Every spec, in order of number."""
    specs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(paths.SPECS.glob("p*.json"))]
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

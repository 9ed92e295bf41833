"""Tuning files (bench/tuning/<id>.json): which of a puzzle's spec constants `checker/run tune`
sweeps, and the variants they make. A variant is the reference solution with some of its
`constexpr int NAME = value;` lines changed, built into a checker whose spec constants are changed
to match (checker/grading's CONSTANTS), so that its launch formulas, budgets and timing are the
variant's own.

A tuning file:

    {
      "why": "what the sweep is for",
      "sweep": {"BK": [8, 16, 32]},                    every combination of these values
      "variants": [{"BN": 128, "WM": 32, "TN": 8}]     and these combinations (optional)
    }

The spec's own values are always a variant ("spec"). Standard library only.
"""
import csv
import io
import itertools
import json
import re
from pathlib import Path

FOLDER = "bench/tuning"


class TuningError(ValueError):
    """A tuning file that cannot be used: the message names the file and what is wrong."""


def path_for(root, puzzle_id):
    return Path(root) / FOLDER / f"{puzzle_id}.json"


def variant_name(values):
    return " ".join(f"{name}={value}" for name, value in values.items()) or "spec"


def read(root, spec):
    """[(name, {constant: value})] for the puzzle's tuning file, the spec's own values first."""
    path = path_for(root, spec["id"])
    shown = f"{FOLDER}/{path.name}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise TuningError(f"{shown} does not exist: it names the constants of checker/specs/{spec['id']}.json "
                          "to sweep (bench/tuning/README.md)")
    except json.JSONDecodeError as error:
        raise TuningError(f"{shown}:{error.lineno}: not JSON: {error.msg}")
    constants = spec.get("constants", {})
    if not isinstance(data, dict) or not ({"sweep", "variants"} & set(data)):
        raise TuningError(f"{shown}: an object with \"sweep\" and/or \"variants\" is expected")
    unknown = set(data) - {"why", "sweep", "variants"}
    if unknown:
        raise TuningError(f"{shown}: unknown field {', '.join(sorted(unknown))} (why, sweep, variants)")

    def checked(name, value, where):
        if name not in constants:
            raise TuningError(f"{shown}: {where} names {name}, which is not a constant of the spec "
                              f"({', '.join(constants) or 'it has none'})")
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise TuningError(f"{shown}: {where}: {name} = {value!r} is not a positive whole number")
        return value

    combos = []
    sweep = data.get("sweep", {})
    if not isinstance(sweep, dict):
        raise TuningError(f"{shown}: \"sweep\" maps constants to lists of values")
    for name, values in sweep.items():
        if not isinstance(values, list) or not values:
            raise TuningError(f"{shown}: sweep.{name} must be a list of values")
        for value in values:
            checked(name, value, f"sweep.{name}")
    names = list(sweep)
    for values in itertools.product(*(sweep[n] for n in names)):
        combos.append(dict(zip(names, values)))
    extra = data.get("variants", [])
    if not isinstance(extra, list):
        raise TuningError(f"{shown}: \"variants\" is a list of objects")
    for i, variant in enumerate(extra):
        if not isinstance(variant, dict) or not variant:
            raise TuningError(f"{shown}: variants[{i}] must be an object of constants")
        combos.append({name: checked(name, value, f"variants[{i}]") for name, value in variant.items()})

    out, seen = [("spec", {})], {()}
    for combo in combos:
        changed = {n: v for n, v in combo.items() if constants[n] != v}  # a spec value is no change
        key = tuple(sorted(changed.items()))
        if key not in seen:
            seen.add(key)
            out.append((variant_name(changed), changed))
    return out


def variant_source(solution_text, values, solution_name):
    """The solution with `constexpr int NAME = ...;` of each constant set to the variant's value."""
    text = solution_text
    for name, value in values.items():
        pattern = re.compile(rf"^(\s*constexpr\s+int\s+{re.escape(name)}\s*=\s*)\d+(\s*;)", re.M)
        found = pattern.findall(text)
        if len(found) != 1:
            raise TuningError(f"{solution_name} defines 'constexpr int {name} = <number>;' {len(found)} times, "
                              "so the variant cannot change it")
        text = pattern.sub(rf"\g<1>{value}\g<2>", text)
    return text


def merged_csv(parts):
    """One CSV from [(variant name, the CSV text a checker's --bench-csv wrote)]: a `variant` column first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = None
    for name, text in parts:
        rows = list(csv.reader(io.StringIO(text)))
        if not rows:
            continue
        if header is None:
            header = ["variant"] + rows[0]
            writer.writerow(header)
        for row in rows[1:]:
            writer.writerow([name] + row)
    return out.getvalue()

"""The checker's report for tools: the document a checker writes with --json or --json=FILE
(docs/dev/report-json.md), and the few words the command line and grading make of it.

Everything here reads fields, never the sentences the checker prints for students: those can be
reworded freely.
"""
import json

SCHEMA = 1  # the version this module reads; a checker's document says its own


class ReportError(Exception):
    """The document is missing, not JSON, or of a schema this module does not read."""


def load(text):
    """The document from its text; ReportError when it is not one this module reads."""
    try:
        doc = json.loads(text)
    except ValueError as error:
        raise ReportError(f"the checker's report is not JSON ({error})") from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise ReportError(f"the checker's report has schema {doc.get('schema') if isinstance(doc, dict) else None}, "
                          f"not {SCHEMA}")
    return doc


def read(path):
    """The document in a file, or None when the checker wrote none (it crashed, or was stopped)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    try:
        return load(text)
    except ReportError:
        return None


def summary(doc):
    """One line: "6 of 6 cases passed", or the problem that stopped the checker."""
    if doc.get("error"):
        return doc["error"]["message"]
    verdict = doc.get("verdict")
    if not verdict:
        return ""
    return f"{verdict['cases_passed']} of {verdict['cases_total']} cases passed"


def backend_words(doc):
    """Where the kernels ran, with each backend's own description: "cpu (CPU, 2 worker threads)"."""
    backend = doc.get("backend") or {}
    kernels = doc.get("kernels") or []
    described = kernels[0]["backends"] if kernels else {}
    mode = backend.get("mode")
    if mode == "gpu_with_cpu_checks":
        return f"gpu ({described.get('gpu', '?')}), then cpu ({described.get('cpu', '?')})"
    if mode in ("cpu", "gpu"):
        return f"{mode} ({described.get(mode, '?')})"
    return ""


# --- A failing case in a few words -----------------------------------------------------------

def _lines_part(lines):
    lines = sorted({n for n in lines if n})
    if not lines:
        return ""
    return f" (line {lines[0]})" if len(lines) == 1 else " (lines " + ", ".join(map(str, lines)) + ")"


def _line(at):
    return at["line"] if at else 0


def _first_clause(text):
    for mark in ":;(.":
        text = text.split(mark, 1)[0]
    return text.strip()


_REFUSALS = {
    "empty_grid": lambda r: "empty grid",
    "empty_block": lambda r: "empty block",
    "too_many_threads": lambda r: f"{r['requested']} threads per block (at most {r['limit']})",
    "block_too_large": lambda r: "block too large",
    "grid_too_large": lambda r: "grid too large",
    "static_shared_too_large": lambda r: f"{r['requested']} bytes of __shared__ memory (at most {r['limit']})",
    "dynamic_shared_too_large": lambda r: f"{r['requested']} bytes of dynamic shared memory (at most {r['limit']})",
    "shared_too_large": lambda r: f"{r['static_shared'] + r['requested']} bytes of shared memory (at most {r['limit']})",
    "attribute_too_large": lambda r: f"{r['requested']} bytes of dynamic shared memory (at most {r['limit']})",
    "no_extern_shared": lambda r: "dynamic shared memory but no extern __shared__ array",
    "registers_limit_threads": lambda r: f"too many registers for {r['requested']} threads per block",
    "launch_failed": lambda r: _first_clause(r["cuda_error"]) or "the launch failed",
    "tensor_map_refused": lambda r: "tensor map refused",
    "empty_cluster": lambda r: "empty cluster",
    "cluster_too_large": lambda r: f"{r['requested']} blocks per cluster (at most {r['limit']})",
    "grid_not_whole_clusters": lambda r: "grid not a whole number of clusters",
}

_KIND_WORDS = {
    "misaligned": "misaligned access",
    "warp_divergence": "warp divergence",
    "warp_misuse": "warp function misused",
    "async_copy": "asynchronous copy used before its wait",
    "assertion": "assertion failed",
    "uninitialized_shared": "read of unwritten shared memory",
    "inline_ptx": "inline PTX",
    "deadlock": "deadlock",
    "async_proxy": "shared memory used against the asynchronous units",
    "cluster_order": "cluster synchronization missing",
    "proxy_fence": "fence.proxy.async missing",
    "wgmma_accumulator": "wgmma accumulator used before its wait",
}


def _crash(f, backend):
    detail = f.get("detail") or ""
    if backend == "gpu" and not f["thread_known"]:  # detail: CUDA's own words for the error
        return "crash on the GPU: " + _first_clause(detail)
    what = "integer division by zero" if "division by zero" in detail else _first_clause(detail)
    return "crash: " + what + _lines_part([_line(f["at"])])


def finding_words(f, backend):
    """One finding in a few words, with its lines: "race on a_tile (lines 14, 16)"."""
    kind = f["kind"]
    if kind == "out_of_bounds":
        return f"out-of-bounds {'write' if f['is_write'] else 'read'} of {f['buffer']}" + _lines_part([_line(f['at'])])
    if kind == "shared_out_of_bounds":
        return "out-of-bounds shared memory" + _lines_part([_line(f["at"])])
    if kind == "shared_race":
        return f"race on {f['buffer']}" + _lines_part([_line(f["at"]), _line(f.get("other", {}).get("at"))])
    if kind == "barrier_divergence":
        return "barrier divergence" + _lines_part([_line(g["at"]) for g in f.get("groups", []) if not g["returned"]])
    if kind == "fault":
        return _crash(f, backend)
    if kind == "timeout":
        return "kernel time limit (endless loop?)"
    if kind in ("proxy_fence", "wgmma_accumulator"):  # both lines: the write or the wgmma, and the use
        return _KIND_WORDS[kind] + _lines_part([_line(f.get("other", {}).get("at")), _line(f["at"])])
    return _KIND_WORDS.get(kind, kind.replace("_", " ")) + _lines_part([_line(f["at"])])


def _run_words(run, output):
    if run["refused"]:
        r = run["refused"]
        return "launch refused: " + _REFUSALS.get(r["code"], lambda _: r["code"].replace("_", " "))(r)
    if run["findings"]:
        return finding_words(run["findings"][0], run["backend"])
    values = run["values"]
    if values and values["unwritten"]:
        return f"unwritten output ({values['unwritten']} of {values['elements']} in {output})"
    if values and values["wrong"]:
        return f"wrong values ({values['wrong']} of {values['elements']} in {output})"
    loads = run["global_loads"]
    if loads and loads["over_budget"]:
        return f"too many global loads ({loads['busiest_thread']}, at most {loads['budget']})"
    if run["bank_conflicts"]:
        return f"bank conflicts ({run['bank_conflicts']['worst_ways']}-way)" + \
            _lines_part([_line(run["bank_conflicts"]["at"])])
    if run["scattered_loads"]:
        return "scattered global loads" + _lines_part([_line(run["scattered_loads"]["at"])])
    if run["order_dependent"]:
        return "result depends on thread order"
    return ""


def failure_words(doc):
    """The first thing wrong in the first failing case, in a few words."""
    if doc.get("error"):
        return _first_clause(doc["error"]["message"]) or "the checker could not run"
    output = (doc.get("puzzle") or {}).get("output", "the output")
    for kernel in doc.get("kernels") or []:
        for case in kernel["cases"]:
            if case["passed"]:
                continue
            for run in case["runs"]:
                words = _run_words(run, output)
                if words:
                    return words
    if (doc.get("verdict") or {}).get("device_lost"):
        return "the GPU stopped responding"
    bench = doc.get("bench")
    if bench and bench.get("not_timed") == "differs_from_cublas":
        return "result differs from cuBLAS at a benchmark size"
    return "see the details"

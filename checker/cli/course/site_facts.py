"""The facts the doc pages take from the puzzle specs, and the checks that keep them in step.

Two kinds of facts:

- Generated blocks. A page holds, between two HTML comments, text made from the specs:

      <!-- BEGIN GENERATED configuration: from checker/specs/p04_tiled.json by checker/run docs --update -->

      | | |
      ...

      <!-- END GENERATED -->

  `configuration` (on a puzzle page: kernel, launch, constants, sizes, limits, what a pass prints),
  `puzzles` (the course index's table) and `bench` (the sizes each puzzle is timed at); and the
  blocks of figures, from the specs and the committed runs (speed_blocks.py, docs/dev/figures.md):
  `puzzle-files`, `speed-summary`, `speed-puzzle(p06,p04)`, `measurements`, `log(PATH)`. The site
  is built from them whatever the page holds; `checker/run docs --update` rewrites the blocks in
  the files (README.md's too), and a page whose block is out of date fails the build and the tests.
- Facts in the prose and in sample output (`[1/6] worked example, n = 4`, `Result: 6 of 6 cases
  passed`, the worked example's matrices, a load budget's message, `TILE = 16`, the page title):
  check_page() compares them with the spec.

Standard library only: MkDocs's hooks (checker/site/hooks.py) import this module too.
"""
import math
import re

from course.specs import evaluate  # noqa: F401  (the one formula evaluator; pages and tests use it from here too)
from course.specs import cluster as cluster_formulas

KIND = r"([\w-]+(?:\([^)\n]*\))?)"  # configuration, speed-puzzle(p06,p04), log(docs/dev/runs/...)
BEGIN = re.compile(r"<!-- BEGIN GENERATED " + KIND + r"(?::[^>]*)? -->\n")
END = "<!-- END GENERATED -->"
BLOCK = re.compile(r"(<!-- BEGIN GENERATED " + KIND + r"(?::[^>]*)? -->\n)(.*?)(" + re.escape(END) + ")", re.S)
PUZZLE_PAGE = re.compile(r"^(p\d\d_\w+)\.md$")


# ---------------------------------------------------------------- the spec, read as the checker reads it

class Spec:
    """One puzzle spec with what the pages need derived from it (see checker/lib/src/spec.cpp)."""

    def __init__(self, data):
        self.data = data
        self.number = data["number"]
        self.id = data["id"]
        self.title = data["title"]
        self.learn = data["learn"]
        self.computes = data["computes"]
        self.constants = dict(data.get("constants", {}))
        self.launch = data["launch"]
        self.cluster = cluster_formulas(data)  # [] without thread block clusters
        self.cases = data["cases"]
        self.limits = data.get("limits", {})
        self.bench = data.get("bench")
        self.params = _parameters(data["signature"])
        ints = [name for kind, name in self.params if kind == "int"]
        self.square = len(ints) == 1
        self.size_name = ints[0] if self.square else None
        self.output_name = next(name for kind, name in self.params if "*" in kind and "const" not in kind)
        # "tensor_maps": {"a_map": {"matrix": "a", "box": [columns, rows], "swizzle": 128}}: the kernel
        # takes a and b as TMA tensor maps of halves (and may store c through one of floats), which
        # the checker encodes (spec.cpp, kernel_args.cpp).
        self.tensor_maps = {name: data["tensor_maps"][name] for kind, name in self.params if "CUtensorMap" in kind}
        self.input_types = {}
        for kind, name in self.params:
            if "*" in kind and "const" in kind:
                self.input_types[name] = _element(kind)
            elif name in self.tensor_maps and self.tensor_maps[name]["matrix"] != "c":
                self.input_types[self.tensor_maps[name]["matrix"]] = "__half"
        self.requires_gpu = data.get("requires_gpu")
        self.gpu_words = gpu_requirement_words(self.requires_gpu) if self.requires_gpu else None

    @property
    def page(self):
        return f"{self.id}.md"

    def kernels(self):
        return [k.split("<", 1)[0].strip() for k in self.data["kernels"]]

    def signature_text(self, kernel):
        return f"{kernel}({', '.join(f'{kind} {name}' for kind, name in self.params)})"

    def variables(self, dims):
        m, n, k = dims
        v = {name: float(value) for name, value in self.constants.items()}
        v.update(m=float(m), n=float(n), k=float(k))
        if self.size_name:
            v[self.size_name] = float(n)
        return v

    def dims(self, size):
        """(m, n, k) of a size as the spec writes it: n, or [m, n, k]."""
        return (size, size, size) if self.square else tuple(size)

    def size_words(self, size):
        m, n, k = self.dims(size)
        return f"{self.size_name} = {n}" if self.square else f"m = {m}, n = {n}, k = {k}"

    def sizes_list(self, sizes):
        if self.square:
            return f"{self.size_name} = " + ", ".join(str(s) for s in sizes)
        return "m × n × k = " + ", ".join("×".join(str(d) for d in s) for s in sizes)

    def target_words(self, of=""):
        """The bench target as the checker states it: "100 %{of} at 4096×4096×4096" (the spec's
        target_at, or the largest timed shape)."""
        shapes = self.bench["shapes"]
        if self.bench.get("target_at") == "every":
            return f"{_number(self.bench['target_percent_of_cublas'])} %{of} at every timed shape"
        at = self.bench.get("target_at") or max(shapes, key=lambda s: s if self.square else s[0] * s[1] * s[2])
        size = f"{self.size_name} = {at}" if self.square else "×".join(str(d) for d in at)
        return f"{_number(self.bench['target_percent_of_cublas'])} %{of} at {size}"

    def case_count(self, backend):
        return 1 + len(self.cases[backend])

    def formula_words(self, formula):
        """The formula with the constants replaced by their values, as the checker prints it."""
        return substitute(formula, self.constants)

    def load_budget(self):
        return self.limits.get("global_loads_per_thread")


def _parameters(signature):
    inside = signature[signature.index("(") + 1:signature.rindex(")")]
    out = []
    for piece in inside.split(","):
        piece = piece.strip()
        cut = max(piece.rfind(" "), piece.rfind("*"), piece.rfind("&"))
        out.append((piece[:cut + 1].strip(), piece[cut + 1:].strip()))
    return out


def gpu_requirement_words(arch):
    """'sm_90a' -> 'a Hopper GPU (sm_90a: compute capability 9.0)', as the checker says it
    (gpu_requirement_words in checker/lib/src/explain.cpp)."""
    m = re.fullmatch(r"sm_(\d+)(a?)", arch)
    if not m:
        raise ValueError(f"requires_gpu is '{arch}': write sm_80, sm_90a, ...")
    number = int(m.group(1))
    family = "Hopper" if number >= 90 else "Ampere" if number >= 80 else ""
    if m.group(2):
        return f"a {family} GPU ({arch}: compute capability {number // 10}.{number % 10})"
    return f"an {family} GPU or newer ({arch})"


def _element(kind):
    base = re.sub(r"const|\*|__restrict__|\s", "", kind)
    return "__half" if base in ("__half", "half") else "float"


# ---------------------------------------------------------------- formulas

def substitute(formula, constants):
    for name, number in constants.items():
        formula = re.sub(rf"\b{re.escape(name)}\b", str(number), formula)
    return formula


def pretty(formula):
    """'2 * ceil(n / 16)' -> '2·⌈n/16⌉', for people."""
    text = formula
    for name, (left, right) in {"ceil": ("⌈", "⌉"), "floor": ("⌊", "⌋")}.items():
        while True:
            at = text.find(name + "(")
            if at < 0:
                break
            depth, end = 0, at + len(name)
            for end in range(at + len(name), len(text)):
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                if depth == 0:
                    break
            text = text[:at] + left + text[at + len(name) + 1:end] + right + text[end + 1:]
    return text.replace(" * ", "·").replace(" / ", "/")


def _number(value):
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _times(parts):
    return " × ".join(parts)


def code_words(text):
    """Put C names in code spans, so that `__shared__` is not read as bold Markdown."""
    return re.sub(r"(?<![`\w])(__\w+__|\w+\(\))(?![`\w])", r"`\1`", text)


def _cell(text):
    return text.replace("|", "\\|")


# ---------------------------------------------------------------- the generated blocks

def configuration_table(spec):
    """A puzzle page's facts table, from its spec."""
    consts = spec.constants
    rows = []
    kernels = spec.kernels()
    names = "Kernel" if len(kernels) == 1 else "Kernels"
    rows.append((names, "<br>".join(f"`{spec.signature_text(k)}`" for k in kernels)))
    if spec.square:
        computes = f"`{spec.computes}` for {spec.size_name} × {spec.size_name} matrices"
    else:
        computes = f"`{spec.computes}` with a m × k, b k × n and {spec.output_name} m × n"
    if set(spec.input_types.values()) == {"float"}:
        computes += " of `float`, row-major"
    else:
        inputs = " and ".join(f"{n} `{t}`" for n, t in spec.input_types.items())
        input_maps = [name for name, m in spec.tensor_maps.items() if m["matrix"] != "c"]
        output_maps = [name for name, m in spec.tensor_maps.items() if m["matrix"] == "c"]
        if input_maps:
            inputs += " (as the tensor maps " + " and ".join(f"`{name}`" for name in input_maps) + ")"
        output = f"{spec.output_name} `float`"
        if output_maps:
            output += f" (stored through the tensor map `{output_maps[0]}`)"
        computes += f", row-major: {inputs}, {output}"
    if spec.data.get("b_is_transpose_of_a"):
        computes += "; the checker fills b with aᵀ"
    rows.append(("Computes", computes))
    if spec.gpu_words:
        rows.append(("Runs on", f"the CPU backend on any machine; the GPU backend on {spec.gpu_words}"))

    block = spec.launch["block"]
    block_values = [spec.formula_words(f) for f in block]
    words = _times(pretty(v) for v in block_values)
    try:
        threads = math.prod(evaluate(v, {}) for v in block_values)
        if len(block) > 1:
            words += f" = {_number(threads)}"
        words += " threads"
    except ValueError:
        words += " threads"
    if block_values != block:
        words += f" ({_times(block)})"
    rows.append(("Block", words))
    grid = [pretty(spec.formula_words(f)) for f in spec.launch["grid"]]
    rows.append(("Grid", "1 block" if grid == ["1"] else _times(grid) + " blocks"))
    if spec.cluster:
        cluster = [pretty(spec.formula_words(f)) for f in spec.cluster]
        rows.append(("Cluster", _times(cluster) + " blocks, which run together as one thread block cluster"))
    tile = [pretty(spec.formula_words(f)) for f in spec.data["output_tile"]]
    rows.append(("One block computes", f"{_times(tile)} elements of `{spec.output_name}` (rows × columns)"))
    if spec.launch.get("dynamic_shared_bytes"):
        rows.append(("Dynamic shared memory", pretty(spec.formula_words(spec.launch["dynamic_shared_bytes"]))
                     + " bytes"))
    if consts:
        rows.append(("Constants" if len(consts) > 1 else "Constant",
                     ", ".join(f"`{name} = {value}`" for name, value in consts.items())))
    for name, tensor_map in spec.tensor_maps.items():
        rows.append((f"Tensor map `{name}`", tensor_map_words(spec, tensor_map)))

    cases = spec.cases
    sizes = f"worked example {spec.size_words(cases['worked'])}; random matrices at "
    if cases["cpu"] == cases["gpu"]:
        sizes += f"{spec.sizes_list(cases['cpu'])} on either backend"
    else:
        sizes += f"{spec.sizes_list(cases['cpu'])} (CPU backend), {spec.sizes_list(cases['gpu'])} (GPU)"
    rows.append(("Sizes checked", sizes))
    if "max" in cases:
        rows.append(("Largest size", f"{spec.size_name} ≤ {cases['max']}"))
    budget = spec.load_budget()
    if budget:
        rows.append(("Global loads", f"at most {pretty(spec.formula_words(budget['max']))} per thread "
                                     f"(counted on the CPU backend): {budget['why']}"))
    conflicts = spec.limits.get("shared_bank_conflicts")
    if conflicts:
        rows.append(("Bank conflicts", f"at most {conflicts['max_ways']}-way on a shared-memory access: "
                                       f"{conflicts['why']}"))
    sectors = spec.limits.get("global_sectors_per_request")
    if sectors:
        rows.append(("Sectors per request", f"at most {_number(sectors['max'])} on average per global load: "
                                            f"{sectors['why']}"))
    cpu, gpu = (len(kernels) * spec.case_count(b) for b in ("cpu", "gpu"))
    passed = f"`Result: {cpu} of {cpu} cases passed. PASS`"
    passed += " on either backend" if cpu == gpu else f" on the CPU backend, {gpu} of {gpu} on a GPU"
    rows.append(("A full pass prints", passed))
    if spec.bench:
        baseline = {"sgemm": "cuBLAS SGEMM", "hgemm": "cuBLAS HGEMM (fp16 inputs, fp32 accumulation)"}
        timed = f"{spec.sizes_list(spec.bench['shapes'])}, against {baseline[spec.bench['baseline']]}"
        if "target_percent_of_cublas" in spec.bench:
            timed += f"; the target for the reference solution: {spec.target_words(' of it')}"
        rows.append(("Timed at", timed))
    lines = ["| | |", "|---|---|"] + [f"| {name} | {_cell(code_words(value) if name in _PROSE else value)} |"
                                       for name, value in rows]
    return "\n".join(lines) + "\n"


_PROSE = {"Global loads", "Bank conflicts", "Sectors per request"}


def tensor_map_words(spec, tensor_map):
    """One tensor map as the checker encodes it (checker/lib/src/kernel_args.cpp): the row-major
    matrix as a 2-D tensor {columns, rows}, its box, its swizzle, and the driver's rule for rows."""
    matrix = tensor_map["matrix"]
    columns, rows = {"a": ("k", "m"), "b": ("n", "k"), "c": ("n", "m")}[matrix]
    elements, per_row = ("floats", 4) if matrix == "c" else ("halves", 8)
    box = [_number(evaluate(f, {n: float(v) for n, v in spec.constants.items()})) for f in tensor_map["box"]]
    words = f"{matrix} as {columns} columns × {rows} rows; boxes of {_times(box)} {elements} (columns × rows"
    words += ")" if box == tensor_map["box"] else f": {_times(tensor_map['box'])})"
    swizzle = tensor_map["swizzle"]
    words += f", {swizzle}-byte swizzle" if swizzle else ", no swizzle"
    edge = "tensor stores write only inside c" if matrix == "c" else f"zeros where a box leaves {matrix}"
    words += f"; {edge}; {columns} a multiple of {per_row}, so that each row of {matrix} " \
             "is a multiple of 16 bytes"
    return words


def puzzles_table(specs):
    """The course index's table of puzzles."""
    lines = ["| # | Puzzle | You learn |", "|---|---|---|"]
    for s in specs:
        lines.append(f"| {s.number} | [{_cell(s.title)}]({s.page}) | {_cell(code_words(s.learn))} |")
    return "\n".join(lines) + "\n"


def bench_table(specs):
    """Which sizes each puzzle's kernel is timed at, against which cuBLAS routine."""
    lines = ["| # | Puzzle | Timed at | Against |", "|---|---|---|---|"]
    for s in specs:
        if not s.bench:
            continue
        against = "cuBLAS " + s.bench["baseline"].upper()
        if "target_percent_of_cublas" in s.bench:
            against += f" (target: {s.target_words()})"
        lines.append(f"| {s.number} | [{_cell(s.title)}]({s.page}) | {s.sizes_list(s.bench['shapes'])} | {against} |")
    return "\n".join(lines) + "\n"


def render_block(kind, page, specs):
    """The text of one generated block on a page (a path under docs/, or ../README.md), or None for an
    unknown kind; ValueError when a figures block cannot be made (speed_blocks.BlockError).
    Blank lines around it keep every Markdown reader (GitHub's too) from joining it to the comments."""
    text = None
    from course import speed_blocks  # late: it reads the committed runs
    if speed_blocks.handles(kind):
        text = speed_blocks.render(kind, specs)[0]
    elif kind == "puzzles":
        text = puzzles_table(specs)
    elif kind == "bench":
        text = bench_table(specs)
    elif kind == "configuration":
        spec = spec_of_page(page, specs)
        text = configuration_table(spec) if spec else None
    return None if text is None else "\n" + text + "\n"


def header(kind, page, specs):
    source = "checker/specs"
    from course import speed_blocks
    if speed_blocks.handles(kind):
        source = speed_blocks.render(kind, specs)[1]
    elif kind == "configuration":
        spec = spec_of_page(page, specs)
        source = f"checker/specs/{spec.id}.json" if spec else source
    return f"<!-- BEGIN GENERATED {kind}: from {source} by checker/run docs --update -->\n"


def spec_of_page(page, specs):
    match = PUZZLE_PAGE.match(page)
    if not match:
        return None
    return next((s for s in specs if s.id == match.group(1)), None)


def regenerate(page, text, specs):
    """(the text with every generated block made anew, problems): a problem names a stale or unknown block."""
    problems = []

    def fresh(match):
        begin, kind, old = match.group(1), match.group(2), match.group(3)
        try:
            new = render_block(kind, page, specs)
            new_begin = header(kind, page, specs)
        except ValueError as error:
            problems.append(f"the generated block '{kind}' cannot be made: {error}")
            return match.group(0)
        if new is None:
            problems.append(f"a generated block '{kind}' that nothing generates here "
                            "(configuration, on a puzzle page; puzzles; bench; puzzle-files; speed-summary; "
                            "speed-puzzle(pNN); measurements; log(PATH))")
            return match.group(0)
        if old != new or begin != new_begin:
            source = new_begin.split(": from ", 1)[-1].split(" by ", 1)[0]
            source = "checker/specs" if source.startswith("checker/specs") else source
            problems.append(f"the generated '{kind}' block is out of date with {source}: "
                            "run checker/run docs --update\n" + _diff(old, new))
        return new_begin + new + END

    return BLOCK.sub(fresh, text), problems


def _diff(old, new):
    import difflib
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "on the page", "generated", n=1))


def insert_configuration(text, spec, specs):
    """A puzzle page without a configuration block gets one, under '## The configuration',
    before the first second-level heading."""
    block = "## The configuration\n\n" + header("configuration", spec.page, specs) + \
        render_block("configuration", spec.page, specs) + END + "\n\n"
    at = re.search(r"^## ", text, re.M)
    if not at:
        return text.rstrip("\n") + "\n\n" + block
    return text[:at.start()] + block + text[at.start():]


# ---------------------------------------------------------------- checks on the prose and the sample output

def check_page(page, text, specs):
    """Problems with the facts of a puzzle page that come from its spec; [] for other pages."""
    spec = spec_of_page(page, specs)
    if spec is None:
        return []
    problems = []
    if not BLOCK.search(text):
        problems.append("no generated configuration block: run checker/run docs --update to add one")
    title = re.search(r"^# (.+)$", text, re.M)
    want = f"Puzzle {spec.number}: {spec.title}"
    if not title or title.group(1).strip() != want:
        problems.append(f"the title should be '# {want}' (checker/specs/{spec.id}.json)")
    problems += _check_constants(spec, text)
    for block in code_blocks(text):
        problems += _check_output(spec, block)
    problems += _check_inline_results(spec, text)
    problems += _check_budget_messages(spec, prose_with_inline(text))
    return problems


def code_blocks(text):
    """The contents of the fenced code blocks of a Markdown text."""
    return [m.group(2) for m in re.finditer(r"^(```+)[^\n]*\n(.*?)^\1\s*$", text, re.M | re.S)]


def prose(text):
    """The text without fenced code blocks, inline code and generated blocks."""
    text = BLOCK.sub("", text)
    text = re.sub(r"^(```+)[^\n]*\n.*?^\1\s*$", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def _check_constants(spec, text):
    problems = []
    for name, value in spec.constants.items():
        for m in re.finditer(rf"\b{re.escape(name)} = (\d+)\b", prose(text)):
            if int(m.group(1)) != value:
                problems.append(f"'{m.group(0)}' in the text, but the spec says {name} = {value} "
                                "(a different value on purpose belongs in `code`)")
    return problems


def _totals(spec, block):
    allowed = {spec.case_count("cpu"), spec.case_count("gpu")}
    if "--size" in block:
        allowed.add(2)
    if "--quick" in block:
        allowed |= {min(3, spec.case_count("cpu")), min(3, spec.case_count("gpu"))}
    return allowed


def _results(spec, allowed):
    """What 'Result: P of T' can say: every kernel of the spec runs the cases."""
    return {len(spec.kernels()) * count for count in allowed}


def _check_inline_results(spec, text):
    problems = []
    allowed = _results(spec, {spec.case_count("cpu"), spec.case_count("gpu")})
    for m in re.finditer(r"Result: (\d+) of (\d+) cases passed", prose_with_inline(text)):
        if int(m.group(2)) not in allowed:
            problems.append(f"'{m.group(0)}', but a full run has {_or(allowed)} cases")
    return problems


def prose_with_inline(text):
    text = BLOCK.sub("", text)
    return re.sub(r"^(```+)[^\n]*\n.*?^\1\s*$", "", text, flags=re.M | re.S)


def _or(values):
    values = sorted(values)
    return " or ".join(str(v) for v in values)


_CASE = re.compile(r"^\[(\d+)/(\d+)\] (worked example|random, seed \d+), (.+?)\s*$", re.M)


def _check_output(spec, block):
    """Sample checker output in one code block."""
    problems = []
    allowed = _totals(spec, block)
    for m in re.finditer(r"Result: (\d+) of (\d+) cases passed", block):
        if int(m.group(2)) not in _results(spec, allowed):
            problems.append(f"sample output '{m.group(0)}', but a run has {_or(_results(spec, allowed))} cases "
                            "(2 with --size: put the command in the same code block)")
    for m in _CASE.finditer(block):
        index, total, label, size = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        if total not in allowed:
            problems.append(f"sample output '{m.group(0).strip()}': a run has {_or(allowed)} cases")
        if label == "worked example":
            if index != 1:
                problems.append(f"sample output '{m.group(0).strip()}': the worked example is case 1")
            if size != spec.size_words(spec.cases["worked"]):
                problems.append(f"sample output '{m.group(0).strip()}': the worked example is at "
                                f"{spec.size_words(spec.cases['worked'])}")
        else:
            known = [spec.size_words(s) for s in spec.cases["cpu"] + spec.cases["gpu"]]
            expected = {spec.size_words(spec.cases[b][index - 2]) for b in ("cpu", "gpu")
                        if total == spec.case_count(b) and 2 <= index <= total}
            if size not in known or (expected and "--size" not in block and size not in expected):
                problems.append(f"sample output '{m.group(0).strip()}': case {index} of {total} is at "
                                f"{_or(expected) if expected else 'one of the sizes of cases.cpu or cases.gpu'}")
    problems += _check_worked_values(spec, block)
    problems += _check_budget_messages(spec, block)
    return problems


def _values(line):
    """[0.0, 1.0, nan] -> floats; None when the list is cut short ('...')."""
    m = re.search(r"\[([^\]]*)\]", line)
    if not m or "..." in m.group(1):
        return None
    return [float(v) for v in m.group(1).split(",") if v.strip()]


def worked_problem(spec):
    """The worked example's a, b and expected output, as checker/lib/src/matrices.cpp makes them."""
    m, n, k = spec.dims(spec.cases["worked"])
    a = [float(i) for i in range(m * k)]
    if spec.data.get("b_is_transpose_of_a"):
        b = [a[col * k + row] for row in range(k) for col in range(n)]
    else:
        b = [float(k * n - i) for i in range(k * n)]
    product = [sum(a[r * k + j] * b[j * n + c] for j in range(k)) for r in range(m) for c in range(n)]
    epilogue = spec.data.get("epilogue")
    if epilogue == "relu":
        product = [max(0.0, v) for v in product]
    elif epilogue == "alpha_beta":
        product = None  # depends on the output's starting values; not checked here
    return a, b, product


def _check_worked_values(spec, block):
    problems = []
    for m in _CASE.finditer(block):
        if m.group(3) != "worked example":
            continue
        following = block[m.end():].split("\n[", 1)[0]
        lines = {}
        for line in following.splitlines():
            found = re.match(r"\s+(\w+):\s+\[", line)
            if found:
                lines.setdefault(found.group(1), line)
        a, b, expected = worked_problem(spec)
        for name, want in (("a", a), ("b", b), ("expected", expected)):
            got = _values(lines[name]) if name in lines else None
            if got is not None and want is not None and got != want:
                problems.append(f"sample output: the worked example's {name} is {_list(want)}, not {_list(got)}")
        outputs = [name for name in lines if name not in ("a", "b", "expected")]
        for name in outputs:
            if name != spec.output_name:
                problems.append(f"sample output: the output is called '{spec.output_name}', not '{name}'")
                continue
            got = _values(lines[name])
            passed = re.search(r"^\s+PASS\s*$", following, re.M)
            if got is not None and passed and expected is not None and got != expected:
                problems.append(f"sample output: a passing worked example prints {name}: {_list(expected)}")
    return problems


def _list(values):
    return "[" + ", ".join("nan" if math.isnan(v) else f"{v:.1f}" for v in values) + "]"


def _check_budget_messages(spec, block):
    """A load budget's message, as the checker prints it (checker/lib/src/explain.cpp)."""
    problems = []
    budget = spec.load_budget()
    flat = re.sub(r"\s+", " ", block).replace("`", "")
    whole = re.compile(r"this puzzle allows (\d+) \((.+?) at (\w+ = \d+(?:, n = \d+, k = \d+)?)(?:: (.+?)\)\.)?")
    for start in re.finditer(r"this puzzle allows \d+", flat):
        m = whole.match(flat, start.start())
        if not m:
            problems.append(f"sample output '{start.group(0)}': give the whole message, with the formula and "
                            "the size, so that it can be checked")
            continue
        if not budget:
            problems.append("sample output shows a load budget, but the spec has none")
            continue
        allowed, formula, where, why = int(m.group(1)), m.group(2), m.group(3), m.group(4)
        if formula != spec.formula_words(budget["max"]):
            problems.append(f"sample output: the budget is printed as '{spec.formula_words(budget['max'])}', "
                            f"not '{formula}'")
        if why and "..." not in why and why != re.sub(r"\s+", " ", budget["why"]):
            problems.append(f"sample output: the budget's reason is '{budget['why']}'")
        sizes = dict(part.split(" = ") for part in where.split(", "))
        if spec.square:
            dims = (int(sizes.get(spec.size_name, 0)),) * 3
        else:
            dims = (int(sizes["m"]), int(sizes["n"]), int(sizes["k"]))
        value = evaluate(budget["max"], spec.variables(dims))
        if round(value) != allowed:
            problems.append(f"sample output: at {where} the budget is {_number(value)} loads, not {allowed}")
    return problems

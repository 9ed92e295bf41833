"""docs/img/speed.svg: the current run's kernels against cuBLAS, drawn from its bench.csv.

One panel per cuBLAS baseline (SGEMM for the float kernels, HGEMM for fp16 tensor cores), so that
the float kernels are not dwarfed by the tensor cores. In each, every kernel at the largest size
its puzzle is timed at: a grey bar for cuBLAS in the same run, the kernel's bar over it, and the
kernel's % of cuBLAS written on it, rounded as every figure is (run_facts.figure). Text is 12 pt on
a 7.5-inch-wide figure, the width of a page of the site, so that it reads at the size of the page's
text.

The SVG is written here, with the standard library: a bar chart needs rectangles, lines and text,
and a plotting library would be the course's heaviest dependency. It records the CSV it was drawn
from and the CSV's SHA-256 (its <dc:source> and <dc:identifier>), so that a test can tell a stale
plot (drawn_from()). The same CSV always gives the same file.
"""
import hashlib
import math
import re
from xml.sax.saxutils import escape

from course import run_facts

WIDTH_INCHES = 7.5
FONT_POINTS = 12
KERNEL_COLOUR = "#1f5fa8"
CUBLAS_COLOUR = "#c8c8c8"
AXIS_COLOUR = "#444444"
TITLE = "Reference solutions against cuBLAS"

# The layout, in points (the SVG's user units).
WIDTH = 72 * WIDTH_INCHES
ROW = 30.0                 # one kernel: its cuBLAS bar is 0.8 of it, its own 0.5
CHAR = 0.6 * FONT_POINTS   # a generous average width of a character of a sans-serif font
MARGIN = 8.0
PERCENT_ROOM = 7 * CHAR    # right of the widest bar, for the text " 100 %" at its end
AXIS_ROOM = 2.9 * FONT_POINTS  # under a panel: tick labels and the axis title


def digest(csv_file):
    return "sha256:" + hashlib.sha256(csv_file.read_bytes()).hexdigest()


def drawn_from(svg_text):
    """(the CSV path, its digest) that an SVG made here records, or (None, None)."""
    source = re.search(r"<dc:source>([^<]*)</dc:source>", svg_text)
    identifier = re.search(r"<dc:identifier>([^<]*)</dc:identifier>", svg_text)
    return (source.group(1) if source else None, identifier.group(1) if identifier else None)


def bars(run):
    """{baseline: [(label, kernel TFLOP/s, cuBLAS TFLOP/s, percent text)]}, puzzles in order."""
    panels = {}
    puzzles = sorted({r["puzzle"] for r in run.rows})
    for puzzle in puzzles:
        rows = [r for r in run.rows if r["puzzle"] == puzzle and r["cublas"] == "0"]
        if not rows:
            continue
        largest = max(int(r["m"]) * int(r["n"]) * int(r["k"]) for r in rows)
        rows = [r for r in rows if int(r["m"]) * int(r["n"]) * int(r["k"]) == largest]
        for r in rows:
            base = run.baseline_row(r)
            label = puzzle[:3] if len(rows) == 1 else f"{puzzle[:3]} {r['implementation'].replace('matmul_', '')}"
            shape = f"{r['m']}³" if r["m"] == r["n"] == r["k"] else f"{r['m']}×{r['n']}×{r['k']}"
            panels.setdefault(r["baseline"], []).append(
                (f"{label}, {shape}", float(r["tflops"]), float(base["tflops"]) if base else 0.0,
                 run_facts.figure(r["percent_of_baseline"], "percent") + " %"))
    return panels


def ticks(largest):
    """Round tick values from 0 to at least `largest`: steps of 1, 2 or 5 times a power of ten,
    at most eight of them."""
    if largest <= 0:
        return [0.0, 1.0]
    for power in range(math.floor(math.log10(largest)) - 1, math.floor(math.log10(largest)) + 2):
        for unit in (1, 2, 5):
            step = unit * 10.0 ** power
            if math.ceil(largest / step) <= 7:
                return [i * step for i in range(math.ceil(largest / step) + 1)]
    raise AssertionError("a step of ten times the largest value always fits")


def number(value):
    """A coordinate or a tick label: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class Svg:
    def __init__(self):
        self.parts = []

    def rect(self, x, y, width, height, colour):
        self.parts.append(f'<rect x="{number(x)}" y="{number(y)}" width="{number(width)}" '
                          f'height="{number(height)}" fill="{colour}"/>')

    def line(self, x1, y1, x2, y2):
        self.parts.append(f'<line x1="{number(x1)}" y1="{number(y1)}" x2="{number(x2)}" y2="{number(y2)}" '
                          f'stroke="{AXIS_COLOUR}" stroke-width="0.8"/>')

    def text(self, x, y, words, anchor="start"):
        # y is the text's middle: dominant-baseline centres it, as a bar's label must be.
        self.parts.append(f'<text x="{number(x)}" y="{number(y)}" text-anchor="{anchor}">{escape(words)}</text>')


def panel(svg, top, left, right, baseline, items):
    """One baseline's bars, its x axis under them; returns the height it took."""
    scale = ticks(max(max(k, c) for _, k, c, _ in items))
    to_x = lambda value: left + (right - left) * value / scale[-1]  # noqa: E731
    for i, (label, kernel, cublas, percent) in enumerate(items):
        middle = top + ROW * (i + 0.5)
        svg.rect(left, middle - 0.4 * ROW, to_x(cublas) - left, 0.8 * ROW, CUBLAS_COLOUR)
        svg.rect(left, middle - 0.25 * ROW, to_x(kernel) - left, 0.5 * ROW, KERNEL_COLOUR)
        svg.text(to_x(kernel) + CHAR / 2, middle, percent)
        svg.text(left - CHAR, middle, label, "end")
    bottom = top + ROW * len(items)
    svg.line(left, top, left, bottom)
    svg.line(left, bottom, right, bottom)
    for value in scale:
        svg.line(to_x(value), bottom, to_x(value), bottom + 4)
        svg.text(to_x(value), bottom + 4 + 0.75 * FONT_POINTS, number(value), "middle")
    svg.text((left + right) / 2, bottom + 2.2 * FONT_POINTS, f"TFLOP/s (grey: {baseline}; % of it on each bar)",
             "middle")
    return bottom + AXIS_ROOM - top


def render(panels, title, source, identifier):
    """The whole SVG document, as text."""
    labels = [label for items in panels.values() for label, _, _, _ in items]
    left = MARGIN + CHAR * (max(len(label) for label in labels) + 1)
    right = WIDTH - MARGIN - PERCENT_ROOM
    svg = Svg()
    svg.text(WIDTH / 2, MARGIN + FONT_POINTS, title, "middle")
    top = MARGIN + 2.5 * FONT_POINTS
    for baseline, items in panels.items():
        top += panel(svg, top, left, right, baseline, items) + FONT_POINTS
    height = top + MARGIN
    return "\n".join([
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{number(WIDTH)}pt" height="{number(height)}pt" '
        f'viewBox="0 0 {number(WIDTH)} {number(height)}" version="1.1">',
        f" <title>{escape(TITLE)}</title>",
        " <metadata>",
        '  <rdf:RDF xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
        "   <rdf:Description>",
        f"    <dc:title>{escape(TITLE)}</dc:title>",
        "    <dc:format>image/svg+xml</dc:format>",
        f"    <dc:identifier>{escape(identifier)}</dc:identifier>",
        f"    <dc:source>{escape(source)}</dc:source>",
        "   </rdf:Description>",
        "  </rdf:RDF>",
        " </metadata>",
        f' <style>text {{ font: {FONT_POINTS}px sans-serif; fill: #000000; dominant-baseline: central }}</style>',
        f' <rect width="{number(WIDTH)}" height="{number(height)}" fill="#ffffff"/>',
        *(" " + part for part in svg.parts),
        "</svg>",
        ""])


def draw(run, csv_name, svg_path):
    """Draw the plot to svg_path; ValueError when the run has no kernel to draw."""
    panels = bars(run)
    if not panels:
        raise ValueError(f"{csv_name} has no kernel rows to draw")
    text = render(panels, f"{run.device}, {run.date}", csv_name, digest(run.folder / "bench.csv"))
    svg_path.parent.mkdir(parents=True, exist_ok=True)
    svg_path.write_text(text, encoding="utf-8")

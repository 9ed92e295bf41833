"""checker/run list: every puzzle, its status from the last run, and the progress through the course."""
import sys

from course import specs, state
from course.style import Style, marks, progress_bar

USAGE = "list"  # for checker/run help
HELP = "every puzzle with its status (passed, failing, not started) and your progress"
WIDTH = 100


def add_arguments(parser):
    pass


def lines(stream=None):
    """The list, as lines for `stream` (watch mode shows it too)."""
    stream = stream or sys.stdout
    style = Style.for_stream(stream)
    passed_mark, failing_mark, todo_mark = marks(stream)
    all_specs = specs.load_all()
    data = state.load()
    done = sum(state.status(s["id"], data) == state.PASSED for s in all_specs)
    id_width = max(len(s["id"]) for s in all_specs)
    label_width = max(len(label) for label in state.LABELS.values()) + 2
    out = [f"Progress {progress_bar(done, len(all_specs), stream=stream)} puzzles passed", ""]
    for spec in all_specs:
        status = state.status(spec["id"], data)
        label = state.LABELS.get(status, state.LABELS[None])
        if status == state.PASSED:
            mark = style.green(f"{passed_mark} {label:<{label_width}}")
        elif status in (state.FAILING, state.COMPILE_ERROR):
            mark = style.red(f"{failing_mark} {label:<{label_width}}")
        else:
            mark = style.dim(f"{todo_mark} {label:<{label_width}}")
        title = spec["title"]
        room = WIDTH - (6 + 2 + label_width + id_width + 2)
        if len(title) > room:  # one line per puzzle, within 100 columns
            title = title[:room - 3].rstrip() + "..."
        out.append(f"  {spec['number']:>2}  {mark}{spec['id']:<{id_width}}  {title}")
    out.append("")
    following = state.first_unsolved(all_specs, data)
    if following is None:
        out.append("Every puzzle passes: well done. checker/run verify runs them all again.")
    else:
        number = following["number"]
        out.append(f"Next: puzzle {number}, puzzles/{following['id']}.cu "
                   f"(checker/run p{number:02d}, or checker/run to watch it).")
    return out


def run(args):
    print("\n".join(lines()))
    return 0

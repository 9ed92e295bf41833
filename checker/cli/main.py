"""The course's command line behind checker/run: one module per command in commands/.

A command module defines HELP (one line for `checker/run help`), add_arguments(parser) and
run(args) -> exit status. Adding a command is adding a module; nothing here changes.
A puzzle's name as the command (4, p04, p04_tiled) builds and runs that puzzle's checker, with
the rest of the line as the checker's options. No command at all is watch mode.
A folder a command cannot write ends every command the same way: course/writable.py's message
and exit 2 (unwritable() below), wherever the write was.
"""
import importlib
import os
import re
import signal
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
# Python's compiled modules go to the build tree, like everything else this writes.
sys.pycache_prefix = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "pycache")

from course import build, runner, specs, state, stubs, writable  # noqa: E402
from course.style import Style  # noqa: E402

PUZZLE_NAME = re.compile(r"p?\d+(_\w*)?", re.IGNORECASE)


def command_names():
    """{command: module name}, without importing them: a run imports only its own command (a
    puzzle's run is the edit -> verdict loop, where every 10 ms counts)."""
    names = [n[:-3] for n in os.listdir(os.path.join(HERE, "commands")) if n.endswith(".py")]
    return {n.replace("_", "-"): n for n in sorted(names) if not n.startswith("_")}


def command_modules():
    return {name: importlib.import_module(f"commands.{module}") for name, module in command_names().items()}


def parser_for(name, module):
    import argparse

    class Parser(argparse.ArgumentParser):
        """argparse, with its errors in the course's words: the message, then where to look."""

        def error(self, message):
            print(f"{self.prog}: {message}. Run checker/run help to see the commands and their options.",
                  file=sys.stderr)
            sys.exit(2)

    parser = Parser(prog=f"checker/run {name}", description=module.HELP)
    module.add_arguments(parser)
    return parser


def main(argv):
    # A closed pipe (checker/run list | head) ends the output quietly, as other tools do.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    # Terminated (the terminal closed): leave through the same clean-up as Ctrl-C.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    signal.signal(signal.SIGHUP, lambda number, frame: sys.exit(128 + number))
    if argv and argv[0] in ("help", "-h", "--help"):
        print_help(command_modules())
        return 0
    stubs.remember_pristine(specs.load_all())  # before any edit, for `reset` (course/stubs.py)
    if not argv or argv[0].startswith("-"):  # checker/run, checker/run --backend=cpu: watch mode
        argv = ["watch", *argv]
    names = command_names()
    if argv[0] not in names and argv[0].endswith((".cu", ".cuh")):  # a whole program: course/program.py
        from course import program
        return program.main(argv)
    if PUZZLE_NAME.fullmatch(argv[0]) and argv[0] not in names:
        return run_puzzle(argv[0], argv[1:])
    if argv[0] not in names:
        print(f"checker/run: no command called '{argv[0]}'. Run checker/run help to see them.", file=sys.stderr)
        return 2
    module = importlib.import_module(f"commands.{names[argv[0]]}")
    args = parser_for(argv[0], module).parse_args(argv[1:])
    args.command = argv[0]
    return module.run(args)


def run_puzzle(name, options):
    """checker/run pNN [checker options]: build, run, record, and say what next."""
    try:
        spec = specs.find(name)
    except specs.PuzzleNotFound as error:
        print(f"checker/run: {error}", file=sys.stderr)
        return 2
    style = Style.for_stdout()
    preset = build.choose_preset(runner.option_value(options, "--backend"))
    print(style.dim(preset.line()), flush=True)
    outcome = runner.run(spec, options, preset)
    if any(o in runner.NO_RUN for o in options):
        return outcome.status
    number = spec["number"]
    if outcome.verdict == state.PASSED:
        following = [s for s in specs.load_all() if s["number"] > number]
        then = f"; next: checker/run p{following[0]['number']:02d}" if following else ""
        print(style.dim(f"checker/run solution {number} shows the reference solution{then}."))
    elif outcome.verdict in (state.FAILING, state.COMPILE_ERROR):
        print(style.dim(f"Stuck? checker/run hint {number} gives a hint."))
    return outcome.status


def print_help(modules):
    style = Style.for_stdout()
    print(style.bold("checker/run") + ": the course's command line.\n")
    print("  checker/run                 watch mode: runs your current puzzle on every save")
    print("  checker/run pNN [options]   build puzzle NN's checker and run it on your kernel (--help: its options)")
    print("  checker/run test            build everything and run the whole test suite")
    print("  checker/run FILE.cu [-I DIR]... [--backend=cpu|gpu] [--json] [-- ARGS]")
    print("                              build and run your own CUDA program, checking every launch (docs/programs.md)")
    for name, module in sorted(modules.items()):
        usage = getattr(module, "USAGE", name)
        print(f"  checker/run {usage:<15} {module.HELP}")
    print("\nA puzzle can be named by number (4, p04) or by id (p04_tiled).")


def unwritable(error):
    """The facts when error is a refused write (or a write checked beforehand), else None."""
    if isinstance(error, writable.Unwritable):
        return error.facts
    return writable.from_error(error)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        sys.exit(130)
    except (OSError, writable.Unwritable) as error:
        found = unwritable(error)
        if found is None:
            raise
        sys.stdout.flush()
        print(writable.message(found), file=sys.stderr)
        sys.exit(2)

"""The course's command line behind checker/run: one module per command in commands/.

A command module defines HELP (one line for `checker/run help`), add_arguments(parser) and
run(args) -> exit status. Adding a command is adding a module; nothing here changes.
"""
import argparse
import importlib
import pkgutil
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import commands  # noqa: E402  (after the path is set)
from course import specs  # noqa: E402
from course.style import Style  # noqa: E402


def command_modules():
    found = {}
    for info in pkgutil.iter_modules(commands.__path__):
        module = importlib.import_module(f"commands.{info.name}")
        found[info.name.replace("_", "-")] = module
    return found


def main(argv):
    modules = command_modules()
    parser = argparse.ArgumentParser(prog="checker/run", add_help=False)
    sub = parser.add_subparsers(dest="command", metavar="command")
    for name, module in sorted(modules.items()):
        command_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command_parser)
    if not argv or argv[0] in ("help", "-h", "--help"):
        print_help(modules)
        return 0
    if argv[0] not in modules:
        if re.fullmatch(r"p?\d+(_\w*)?", argv[0]):  # meant a puzzle (checker/run builds those)
            try:
                specs.find(argv[0])
            except specs.PuzzleNotFound as error:
                print(f"checker/run: {error}", file=sys.stderr)
                return 2
        print(f"checker/run: no command called '{argv[0]}'. Run checker/run help to see them.", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    try:
        return modules[args.command].run(args)
    except KeyboardInterrupt:
        print()
        return 130


def print_help(modules):
    style = Style.for_stdout()
    print(style.bold("checker/run") + ": the course's command line.\n")
    print("  checker/run pNN [options]   build puzzle NN's checker and run it on your kernel (--help: its options)")
    print("  checker/run test            build everything and run the whole test suite")
    for name, module in sorted(modules.items()):
        print(f"  checker/run {name:<15} {module.HELP}")
    print("\nA puzzle can be named by number (4, p04) or by id (p04_tiled).")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""checker/run test's first step, before CMake writes anything: exits 0 when this user can write
every path given (relative to the course's folder), else prints course/writable.py's message (the
one every command gives) and exits 2. The shell script has no words of its own for it.

  python3 checker/cli/check_writable.py build/default
"""
import os
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # a bytecode cache here would land in the source tree

from course import paths, writable  # noqa: E402


def main(wanted):
    try:
        writable.require(*(paths.ROOT / path for path in wanted))
    except writable.Unwritable as error:
        print(writable.message(error.facts), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

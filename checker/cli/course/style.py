"""Terminal colour only on a terminal, and never with NO_COLOR set (https://no-color.org)."""
import os
import sys


class Style:
    def __init__(self, colour):
        self.colour = colour

    @classmethod
    def for_stdout(cls):
        return cls(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))

    def _wrap(self, code, text):
        return f"\033[{code}m{text}\033[0m" if self.colour else text

    def bold(self, text):
        return self._wrap("1", text)

    def red(self, text):
        return self._wrap("31", text)

    def green(self, text):
        return self._wrap("32", text)

    def yellow(self, text):
        return self._wrap("33", text)

    def dim(self, text):
        return self._wrap("2", text)

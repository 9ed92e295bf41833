"""Terminal colour only on a terminal, and never with NO_COLOR set (https://no-color.org)."""
import os
import sys


class Style:
    def __init__(self, colour):
        self.colour = colour

    @classmethod
    def for_stdout(cls):
        return cls.for_stream(sys.stdout)

    @classmethod
    def for_stream(cls, stream):
        tty = hasattr(stream, "isatty") and stream.isatty()
        return cls(tty and not os.environ.get("NO_COLOR"))

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


def unicode_ok(stream=None):
    """Whether the terminal takes the progress bar's and the marks' characters."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or ""
    return encoding.lower().replace("-", "") in ("utf8", "utf16", "utf32")


def progress_bar(done, total, width=24, stream=None):
    """[████████░░░░░░] 2/5, or [######--------] 2/5 where the terminal is not UTF-8."""
    full, empty = ("█", "░") if unicode_ok(stream) else ("#", "-")
    filled = round(width * done / total) if total else 0
    return f"[{full * filled}{empty * (width - filled)}] {done}/{total}"


def marks(stream=None):
    """The status marks: passed, failing, not started."""
    return ("✓", "✗", "·") if unicode_ok(stream) else ("+", "x", "-")

"""A class folder: one folder or archive per student, each with some of the puzzle files.

Only regular files are read: a puzzle file that is a symbolic link, a device, a named pipe or a
socket is refused (a Refused instead of its bytes), and the refusal is that submission's cell.
Nothing under the class folder is written to. Archives are never unpacked as a whole: only the
members named like a puzzle file (p04_tiled.cu) are read, with a size limit, and written under a
name of our own choosing, so a member's path (absolute, "..", a link) can never reach outside the
work folder.
"""
import os
import re
import stat
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

MAX_SOURCE_BYTES = 1024 * 1024
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar", ".zip")
IGNORED_NAMES = {"__MACOSX", "Thumbs.db", "desktop.ini"}


@dataclass
class Refused:
    """A puzzle file that is not a regular file, and is never opened."""
    path: str
    what: str  # "a symbolic link", "a named pipe", ...


def kind_of(mode):
    """What a file that is not a regular file is, in words; None for a regular file."""
    for test, what in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return None if stat.S_ISREG(mode) else "not a regular file"


@dataclass
class Student:
    name: str
    origin: str  # the folder's or archive's name in the class folder
    files: dict = field(default_factory=dict)  # puzzle id -> bytes of the submitted file, or a Refused
    found_at: dict = field(default_factory=dict)  # puzzle id -> path inside the submission
    notes: list = field(default_factory=list)  # what was skipped, and why


@dataclass
class ClassFolder:
    students: list
    ignored: list  # top-level entries that are neither folders nor archives


def archive_stem(name):
    lower = name.lower()
    for suffix in ARCHIVE_SUFFIXES:
        if lower.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)]
    return None


def _hidden(name):
    return name.startswith(".") or name in IGNORED_NAMES


def _unsafe(member_path):
    """An archive member's path that would leave the folder it is unpacked into."""
    text = member_path.replace("\\", "/")
    return text.startswith("/") or re.match(r"^[A-Za-z]:", text) is not None or ".." in PurePosixPath(text).parts


class _Collector:
    """Gathers one student's puzzle files, the shallowest one wins when a name appears twice."""

    def __init__(self, student, puzzle_ids):
        self.student = student
        self.puzzle_ids = set(puzzle_ids)
        self.candidates = {}  # id -> list of (depth, path, reader)
        self.other_sources = []

    def offer(self, path, size, reader):
        parts = PurePosixPath(path).parts
        if any(_hidden(p) for p in parts):
            return
        name = parts[-1]
        if not name.endswith(".cu"):
            return
        puzzle = name[:-3]
        if puzzle not in self.puzzle_ids:
            self.other_sources.append(path)
            return
        if size > MAX_SOURCE_BYTES:
            self.student.notes.append(f"{path}: skipped, larger than {MAX_SOURCE_BYTES // 1024} KiB")
            return
        self.candidates.setdefault(puzzle, []).append((len(parts), path, reader))

    def refuse(self, path, what):
        """A puzzle file that is not a regular file: it is the submission, and it is refused."""
        name = PurePosixPath(path).name
        if name.endswith(".cu") and name[:-3] in self.puzzle_ids and not any(_hidden(p) for p in PurePosixPath(path).parts):
            self.candidates.setdefault(name[:-3], []).append((len(PurePosixPath(path).parts), path,
                                                              lambda: Refused(path, what)))

    def finish(self):
        for puzzle, found in sorted(self.candidates.items()):
            found.sort(key=lambda c: (c[0], c[1]))
            _, path, reader = found[0]
            data = reader()
            if isinstance(data, Refused):
                self.student.files[puzzle] = data
                self.student.found_at[puzzle] = path
                self.student.notes.append(f"{path}: {data.what}, not a regular file: refused")
                continue
            if data is None or len(data) > MAX_SOURCE_BYTES:
                self.student.notes.append(f"{path}: could not be read")
                continue
            self.student.files[puzzle] = data
            self.student.found_at[puzzle] = path
            for _, other, _ in found[1:]:
                self.student.notes.append(f"{other}: ignored, {path} is the {puzzle}.cu graded")
        for path in sorted(self.other_sources):
            self.student.notes.append(f"{path}: not a puzzle file name, not graded")


def _read_bounded(opener):
    def read():
        try:
            with opener() as f:
                return f.read(MAX_SOURCE_BYTES + 1)
        except (OSError, RuntimeError, NotImplementedError, zipfile.BadZipFile, tarfile.TarError, EOFError):
            return None  # a damaged, encrypted or oddly compressed member
    return read


def _open_regular(path):
    """Opens path only if it is still a regular file (not swapped for a link or a pipe since it
    was listed)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path} is not a regular file")
    return os.fdopen(fd, "rb")


def _collect_folder(collector, folder):
    for current, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not _hidden(d))
        for name in sorted(files):
            path = Path(current) / name
            relative = path.relative_to(folder).as_posix()
            try:
                info = path.lstat()
            except OSError:
                continue
            what = kind_of(info.st_mode)
            if what:  # never followed or opened: a link could point anywhere, a pipe would block
                collector.refuse(relative, what)
                continue
            collector.offer(relative, info.st_size, _read_bounded(lambda p=path: _open_regular(p)))


def _collect_zip(collector, archive):
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            if _unsafe(info.filename):
                collector.student.notes.append(f"{info.filename}: unsafe path in the archive, skipped")
                continue
            mode = info.external_attr >> 16  # Unix mode, where the archiver wrote one
            if stat.S_IFMT(mode) and kind_of(mode):
                collector.refuse(info.filename, kind_of(mode))
                continue
            collector.offer(info.filename, info.file_size, _read_bounded(lambda i=info: z.open(i)))
        collector.finish()  # reads while the archive is open


def _collect_tar(collector, archive):
    with tarfile.open(archive, "r:*") as t:
        for member in t:
            if _unsafe(member.name):
                collector.student.notes.append(f"{member.name}: unsafe path in the archive, skipped")
                continue
            if not member.isfile():  # links, devices and folders are never followed or made
                if not member.isdir():
                    what = ("a symbolic link" if member.issym() else "a hard link" if member.islnk()
                            else "a named pipe" if member.isfifo() else "a device")
                    collector.refuse(member.name, what)
                continue
            collector.offer(member.name, member.size, _read_bounded(lambda m=member: t.extractfile(m)))
        collector.finish()


def read_class(folder, puzzle_ids):
    """Every student in the class folder, with the puzzle files each submitted."""
    entries = sorted(os.scandir(folder), key=lambda e: (e.name.casefold(), e.name))
    folder_names = {e.name for e in entries if e.is_dir(follow_symlinks=False)}
    students, ignored = [], []
    for entry in entries:
        if _hidden(entry.name):
            continue
        if entry.is_dir(follow_symlinks=False):
            student = Student(entry.name, entry.name + "/")
            collector = _Collector(student, puzzle_ids)
            _collect_folder(collector, Path(entry.path))
            collector.finish()
        elif entry.is_file(follow_symlinks=False) and archive_stem(entry.name):
            stem = archive_stem(entry.name)
            # A folder and an archive with the same name are two students' worth of files.
            student = Student(entry.name if stem in folder_names else stem, entry.name)
            collector = _Collector(student, puzzle_ids)
            try:
                if entry.name.lower().endswith(".zip"):
                    _collect_zip(collector, entry.path)
                else:
                    _collect_tar(collector, entry.path)
            except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError, RuntimeError, NotImplementedError) as error:
                student.files.clear()
                student.found_at.clear()
                student.notes.append(f"{entry.name}: could not read the archive ({error})")
        else:
            ignored.append(entry.name)
            continue
        students.append(student)
    return ClassFolder(students, ignored)

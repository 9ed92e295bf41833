"""A folder the command line cannot write: the facts, gathered as data, and the one message that
words them.

Every command writes somewhere (build/, backups/, puzzles/, a handout's or the grades' folder, the
site's). Where it cannot, the write fails with EACCES, EPERM or EROFS, wherever it happens: the
command line's main turns that error into one message here (what cannot be written, why, how to
fix it) and exit 2, never a traceback. A write done by another program (CMake, MkDocs) is checked
before it starts, with require(), since that program would word the failure its own way.

The common cause is a container: the dev container's user has uid 1000, and a checkout mounted
from a Linux host whose user has another uid, or by rootless Podman without --userns=keep-id
(where the host user is root inside), belongs to someone else there.
"""
import errno
import os
import textwrap
from pathlib import Path

from course import paths

# The errors that mean "not allowed to write here", not "something else went wrong".
DENIED = (errno.EACCES, errno.EPERM, errno.EROFS)

# Why a folder cannot be written (Facts.cause).
READ_ONLY = "read-only file system"
OWNER = "another user's"
MODE = "no write permission"
DENIED_ELSEWHERE = "denied"  # the folder looks writable: something else refused (a mount's policy)

# The marks of a container: Docker's and Podman's.
CONTAINER_MARKS = ("/.dockerenv", "/run/.containerenv")
WIDTH = 100  # the message's lines, as the checkers' own


class Facts:
    """What stands in the way: the folder, why, whose it is, and who runs the command."""

    def __init__(self, wanted, folder, cause, owner_uid, user_uid, in_container):
        self.wanted = Path(wanted)    # what the command meant to write (a file, or a folder to make)
        self.folder = Path(folder)    # the nearest existing folder (or file) that must be writable
        self.cause = cause            # READ_ONLY, OWNER, MODE or DENIED_ELSEWHERE
        self.owner_uid = owner_uid
        self.user_uid = user_uid
        self.in_container = in_container

    def as_data(self):
        return {"wanted": str(self.wanted), "folder": str(self.folder), "cause": self.cause,
                "owner_uid": self.owner_uid, "user_uid": self.user_uid, "in_container": self.in_container}


class Unwritable(Exception):
    """Raised by require(); main words it with message()."""

    def __init__(self, facts):
        super().__init__(str(facts.folder))
        self.facts = facts


def _nearest_existing(path):
    path = Path(os.path.abspath(path))
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


def _in_container():
    return any(os.path.exists(mark) for mark in CONTAINER_MARKS)


def facts(path, denied=False):
    """The Facts about writing path (a file or folder, existing or to be made), or None when
    nothing stands in the way. denied: the system already refused a write there (an OSError)."""
    folder = _nearest_existing(path)
    # A file that exists is written in place (or replaced next to it): its folder counts too.
    candidates = [folder] if folder.is_dir() else [folder, folder.parent]
    for place in candidates:
        try:
            status = os.stat(place)
            read_only = bool(os.statvfs(place).f_flag & os.ST_RDONLY)
        except OSError:
            continue
        user = os.geteuid()
        if read_only:
            cause = READ_ONLY
        elif os.access(place, os.W_OK, effective_ids=True):
            continue
        elif status.st_uid != user:
            cause = OWNER
        else:
            cause = MODE
        return Facts(path, place, cause, status.st_uid, user, _in_container())
    if denied:
        status = os.stat(folder) if os.path.exists(folder) else None
        return Facts(path, folder, DENIED_ELSEWHERE, status.st_uid if status else None, os.geteuid(),
                     _in_container())
    return None


def require(*wanted):
    """Raises Unwritable for the first of the paths that cannot be written."""
    for path in wanted:
        found = facts(path)
        if found:
            raise Unwritable(found)


def from_error(error):
    """The Facts behind an OSError that refused a write, or None for any other error."""
    if not isinstance(error, OSError) or error.errno not in DENIED or not error.filename:
        return None
    return facts(os.fsdecode(error.filename), denied=True)


def _user_name(uid):
    import pwd
    try:
        return pwd.getpwuid(uid).pw_name
    except (KeyError, TypeError):
        return None


def _shown(path):
    """A path as the student reads it: relative to the course's folder, or whole."""
    path = Path(path)
    if path == paths.ROOT:
        return f"{path} (the course's folder)"
    shown = paths.relative(path)
    return shown + "/" if path.is_dir() and not shown.endswith("/") else shown


def _who(uid):
    if uid is None:
        return "an unknown user"
    name = _user_name(uid)
    return f"uid {uid}" + (f" ({name})" if name else "")


def message(found, program="checker/run"):
    """The one message for Facts: what, why, how to fix it."""
    folder = _shown(found.folder)
    what = _shown(found.wanted) if found.wanted != found.folder else folder
    lines = [f"{program}: cannot write {what.rstrip('/')}."]
    if found.cause == READ_ONLY:
        lines.append(f"Why: {folder} is on a read-only file system.")
        lines.append("Fix: mount it writable (a container's -v or --mount without :ro or readonly), or copy "
                     "the course to a folder you can write.")
    elif found.cause == OWNER:
        lines.append(f"Why: {folder} belongs to {_who(found.owner_uid)}, and {program} runs as "
                     f"{_who(found.user_uid)}.")
        if found.in_container:
            lines.append("Fix, in a container: its user must own the mounted checkout. VS Code's \"Reopen in "
                         "Container\" gives it your uid. By hand: with Docker, build the image with "
                         "--build-arg USER_UID=\"$(id -u)\"; with rootless Podman (where your files belong to "
                         "root inside), run it with --userns=keep-id:uid=1000,gid=1000. docs/dev/platforms.md "
                         "has the details.")
        else:
            name = _user_name(found.user_uid) or str(found.user_uid)
            inside = found.folder == paths.ROOT or paths.ROOT in found.folder.parents
            target = paths.ROOT if inside else found.folder
            lines.append(f"Fix: make it yours (sudo chown -R {name} {target}), or work in a copy of the "
                         "course that you own.")
    elif found.cause == MODE:
        lines.append(f"Why: {folder} is yours but has no write permission.")
        lines.append(f"Fix: chmod -R u+w {found.folder}")
    else:
        lines.append(f"Why: the system refused the write, though {folder} looks writable (a mount's or a "
                     "security policy's rule, such as SELinux: Podman's -v needs :Z there).")
        lines.append("Fix: mount the course so that you can write it, or copy it to a folder you can write.")
    return "\n".join(textwrap.fill(line, WIDTH, subsequent_indent="  ", break_on_hyphens=False,
                                   break_long_words=False) for line in lines)

"""Reading the files of a repository that may come from a fork.

Everything speclint reads from the corpus folder goes through :func:`read_raw`, which never
follows a symlink out of the root, never opens anything but a regular file (a FIFO named
``x.schema.json`` would block ``open`` forever; a device would never end), never reads more than
``MAX_FILE_BYTES``, and never raises: what it cannot read is a :class:`LoadProblem`, which becomes a
``parse-error`` finding for that file while the rest of the corpus is checked.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass, replace
from pathlib import Path

MAX_FILE_BYTES = 25 * 1024 * 1024
_LONE_RETURN = re.compile(r"\r(?!\n)")


def lone_returns_as_newlines(text: str) -> str:
    """``text`` with each lone ``\r`` made ``\n``: a line ending, as CommonMark (§2.1), YAML
    1.2 (§5.4), JSON's whitespace and editors read it. Every character keeps its offset, and
    every reader that splits lines on ``\n`` counts the lines the parsers count (a page written
    with lone carriage returns crashed a rule that looked above a fence by the parser's line)."""
    return _LONE_RETURN.sub("\n", text) if "\r" in text else text


@dataclass(frozen=True)
class LoadProblem:
    """Why a file could not be used: a parse failure, bad encoding, a symlink out of the root."""

    message: str
    line: int = 1
    column: int = 1
    unread: bool = False  # the file was not read at all (its name, type or link), not misparsed


def shown_path(relative: str) -> str:
    """The path as speclint shows it. A name that is not UTF-8 (the operating system allows any
    bytes) cannot go into a report, a URI or a fingerprint: its undecodable bytes are written
    as ``\\xff`` escapes, and ``read_raw`` reports the file instead of reading it."""
    try:
        relative.encode("utf-8")
    except UnicodeEncodeError:
        return relative.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return relative


_FILE_TYPES = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def read_raw(
    root: Path, path: str, limit: int = MAX_FILE_BYTES, *, head: bool = False
) -> bytes | LoadProblem:
    """A file's bytes, or why it is not read: a name that is not UTF-8, a symlink out of the root
    or in a loop, not a regular file (a FIFO would block ``open`` forever), over ``limit`` bytes
    (told by its status, before a byte is read), unreadable. With ``head``, its first ``limit``
    bytes whatever its size. Nothing here can hang or raise."""
    return read_with_status(root, path, limit, head=head)[0]


def read_with_status(
    root: Path, path: str, limit: int = MAX_FILE_BYTES, *, head: bool = False
) -> tuple[bytes | LoadProblem, os.stat_result | None]:
    """:func:`read_raw`, with the status of the file it read, taken on the open file before a
    byte was read (``fstat``): what was read is what that file held then, or later (the replay
    cache, ``speclint.run.replay``, tells the two apart by the change time). None when no
    regular file was opened, or when ``path`` is a symlink (its target may move while the link's
    own status stays)."""
    refused = name_problem(path)
    if refused is not None:
        return refused, None
    full = root / path
    linked = False
    try:
        if os.path.islink(full):
            linked = True
            # realpath does not raise on a loop; the open below then fails with ELOOP.
            target = Path(os.path.realpath(full))
            if not target.is_relative_to(root):
                return outside_root_problem(), None
        # O_NONBLOCK: opening a FIFO for reading must not wait for a writer; fstat then tells.
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        descriptor = os.open(full, flags)
    except OSError as error:
        return open_problem(error), None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            kind = next((name for test, name in _FILE_TYPES if test(status.st_mode)), "special")
            return not_regular_problem(kind), None
        read_status = None if linked else status
        if status.st_size > limit and not head:
            return size_problem(status.st_size, limit), read_status
        chunks = []
        remaining = limit if head else limit + 1
        while remaining > 0:
            chunk = os.read(descriptor, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        if remaining <= 0 and not head:
            return LoadProblem(
                f"the file grew over the {limit:,}-byte limit while it was read, so it "
                "was not read: split it, or exclude it",
                unread=True,
            ), read_status
        return b"".join(chunks), read_status
    except OSError as error:
        return open_problem(error), None
    finally:
        os.close(descriptor)


def name_problem(path: str) -> LoadProblem | None:
    """Why a file named ``path`` is not read (a name that is not UTF-8), or None. Every reader
    of corpus files says it alike: the disk's (:func:`read_raw`) and a revision's
    (``speclint.parsing.gitbase.RevisionFiles``)."""
    if shown_path(path) == path:
        return None
    return LoadProblem(
        "the file name is not valid UTF-8, so it cannot appear in a report, a URI or a `$ref`, "
        "and the file was not read: rename it",
        unread=True,
    )


def size_problem(size: int, limit: int) -> LoadProblem:
    """Why a file of ``size`` bytes is not read, over ``limit``: told by its size, unread."""
    return LoadProblem(
        f"the file is {size:,} bytes, over the {limit:,}-byte limit, "
        "so it was not read: split it, or exclude it",
        unread=True,
    )


def outside_root_problem() -> LoadProblem:
    """Why a symlink whose target lies outside the corpus root is not read."""
    return LoadProblem(
        "a symlink that points outside the corpus root, so it was not read: put the "
        "file itself in the repository, or exclude the link",
        unread=True,
    )


def not_regular_problem(kind: str) -> LoadProblem:
    """Why a path that is no regular file (``kind``: "a folder", "a named pipe (FIFO)"...) is
    not read."""
    return LoadProblem(
        f"not a regular file ({kind}), so it was not read: remove it, or exclude it",
        unread=True,
    )


def open_problem(error: OSError | int) -> LoadProblem:
    """Why a file that ``open`` refused is not read: the error, or its ``errno`` (a revision
    read from git's objects knows which error a checkout's ``open`` would meet; the words are
    the system's, as they are for the error itself)."""
    if isinstance(error, int):
        error = OSError(error, os.strerror(error))
    return LoadProblem(f"cannot read the file: {_reason(error)}", unread=True)


def _reason(error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "it is a symlink in a loop (the link points back at itself): fix or remove the link"
    return error.strerror or str(error)


def read_named(root: Path, path: Path) -> bytes | LoadProblem:
    """A file named by a path the user or the configuration gives (``--baseline``, ``--config``,
    ``speclint.toml``), with ``root`` the corpus root.

    A path that lies in the corpus (as written, or once the folders above it are resolved: the
    root named through a symlinked parent, as ``/tmp`` is on macOS) names repository content: it
    is read as a corpus file, and refused when it, or a folder on the way to it, is a committed
    link that leads out of the root. A path outside the root is the user's own and is read as
    given. Either way only a regular file is opened, non-blocking, and bounded (:func:`read_raw`)."""
    given = Path(os.path.abspath(path))
    real_root = Path(os.path.realpath(root))
    # The first folder on the way down that is in the root: every step after it is the
    # repository's, so a link out of the root from there on is a committed one.
    for folder in reversed(given.parents):
        real_folder = Path(os.path.realpath(folder))
        if real_folder.is_relative_to(real_root):
            relative = (real_folder / given.relative_to(folder)).relative_to(real_root)
            if not Path(os.path.realpath(real_root / relative)).is_relative_to(real_root):
                return LoadProblem(
                    "it lies in the corpus root and leads through a symlink to a file outside "
                    "the corpus root, so it was not read: a committed link cannot name a file "
                    "outside the repository; give the file's own path",
                    unread=True,
                )
            return _as_named(read_raw(real_root, relative.as_posix()))
    return _as_named(read_raw(Path(given.anchor), str(given.relative_to(given.anchor))))


def _as_named(read: bytes | LoadProblem) -> bytes | LoadProblem:
    """A corpus file's advice fits a file named by a path only in part: excluding it from the
    corpus does not stop a path from naming it."""
    if isinstance(read, LoadProblem) and read.message.endswith(", or exclude it"):
        advice = "make it a regular file" if "not a regular file" in read.message else "split it"
        return replace(read, message=read.message.rsplit(": ", 1)[0] + f": {advice}")
    return read

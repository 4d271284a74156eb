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
import stat
from dataclasses import dataclass
from pathlib import Path

MAX_FILE_BYTES = 25 * 1024 * 1024


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


def read_raw(root: Path, path: str) -> bytes | LoadProblem:
    """A file's bytes, or why it is not read: a name that is not UTF-8, a symlink out of the root
    or in a loop, not a regular file (a FIFO would block ``open`` forever), too big, unreadable.
    Nothing here can hang or raise."""
    if shown_path(path) != path:
        return LoadProblem(
            "the file name is not valid UTF-8, so it cannot appear in a report, a URI or a `$ref`, "
            "and the file was not read: rename it",
            unread=True,
        )
    full = root / path
    try:
        if os.path.islink(full):
            # realpath does not raise on a loop; the open below then fails with ELOOP.
            target = Path(os.path.realpath(full))
            if not target.is_relative_to(root):
                return LoadProblem(
                    "a symlink that points outside the corpus root, so it was not read: put the "
                    "file itself in the repository, or exclude the link",
                    unread=True,
                )
        # O_NONBLOCK: opening a FIFO for reading must not wait for a writer; fstat then tells.
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        descriptor = os.open(full, flags)
    except OSError as error:
        return LoadProblem(f"cannot read the file: {_reason(error)}", unread=True)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            kind = next((name for test, name in _FILE_TYPES if test(status.st_mode)), "special")
            return LoadProblem(
                f"not a regular file ({kind}), so it was not read: remove it, or exclude it",
                unread=True,
            )
        if status.st_size > MAX_FILE_BYTES:
            return LoadProblem(
                f"the file is {status.st_size:,} bytes, over the {MAX_FILE_BYTES:,}-byte limit, "
                "so it was not read: split it, or exclude it",
                unread=True,
            )
        chunks = []
        remaining = MAX_FILE_BYTES + 1
        while remaining > 0:
            chunk = os.read(descriptor, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        if remaining <= 0:
            return LoadProblem(
                f"the file grew over the {MAX_FILE_BYTES:,}-byte limit while it was read, so it "
                "was not read: split it, or exclude it",
                unread=True,
            )
        return b"".join(chunks)
    except OSError as error:
        return LoadProblem(f"cannot read the file: {_reason(error)}", unread=True)
    finally:
        os.close(descriptor)


def _reason(error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "it is a symlink in a loop (the link points back at itself): fix or remove the link"
    return error.strerror or str(error)

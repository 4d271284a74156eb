"""Writing speclint's outputs: whole files or nothing, never through a symlink, never a traceback.

Reports (``--output``), baselines and build bundles are written to a temporary file beside the
target (``.speclint-tmp-<pid>-…``) and renamed over it, so a reader, a concurrent run or a crash
never sees half a file, and a rename replaces a symlink at the target instead of writing where it
points. A write that fails (a read-only folder, a full disk) removes its temporary file and raises
:class:`OutputError` with the path and the reason, which the command line prints with exit code 2.
Temporary files that a killed run left behind (their process is gone) are removed the next time
speclint writes in that folder.

A target that exists and is not a regular file (``/dev/stdout``, a terminal, a pipe) is written in
place: renaming over it would replace the device.

Below a ``confined`` folder (for ``speclint build``: the corpus root, or the deepest existing
folder of an output folder outside it), every folder on the way to the target must be a real
folder, and missing ones are created: a committed symlink ``build -> /elsewhere`` is refused, not
followed.
"""

from __future__ import annotations

import contextlib
import functools
import os
import stat
import tempfile
from pathlib import Path

from speclint.common.lifecycle import process_alive

TEMPORARY_PREFIX = ".speclint-tmp-"


class OutputError(Exception):
    """An output that cannot be written; the message names the file and the reason."""


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def sweep_temporaries(folder: Path) -> None:
    """Remove the temporary files of runs that died before renaming them."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if not entry.name.startswith(TEMPORARY_PREFIX):
                continue
            owner = entry.name[len(TEMPORARY_PREFIX) :].split("-", 1)[0]
            if (
                owner.isdigit()
                and not process_alive(int(owner))
                and entry.is_file(follow_symlinks=False)
            ):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def real_folders(folder: Path, confined: Path) -> None:
    """Create ``folder`` below ``confined``, refusing any symlink (or file) on the way."""
    try:
        relative = folder.relative_to(confined)
    except ValueError:
        raise OutputError(f"{folder} is outside {confined}; nothing is written there") from None
    current = confined
    for part in relative.parts:
        current = current / part
        try:
            status = os.lstat(current)
        except FileNotFoundError:
            try:
                current.mkdir()
            except OSError as error:
                raise OutputError(f"cannot create {current}: {_reason(error)}") from None
            continue
        except OSError as error:
            raise OutputError(f"cannot use {current}: {_reason(error)}") from None
        if stat.S_ISLNK(status.st_mode):
            raise OutputError(
                f"{current} is a symlink; speclint does not write through symlinks (it could "
                "point out of the repository): remove it or choose another output folder"
            )
        if not stat.S_ISDIR(status.st_mode):
            raise OutputError(f"{current} is not a folder")


def write_output(target: Path, content: str | bytes, confined: Path | None = None) -> None:
    """Write ``content`` to ``target`` whole, or raise :class:`OutputError` leaving the old file
    (if any) as it was."""
    payload = content.encode("utf-8") if isinstance(content, str) else content
    folder = target.parent
    if confined is not None:
        real_folders(folder, confined)
    else:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise OutputError(f"cannot create {folder}: {_reason(error)}") from None
    try:
        status = os.lstat(target)
    except OSError:
        status = None
    if status is not None and stat.S_ISDIR(status.st_mode):
        raise OutputError(f"{target} is a folder, not a file")
    if status is not None and not stat.S_ISREG(status.st_mode) and not stat.S_ISLNK(status.st_mode):
        try:  # a device or a pipe the user named: write into it
            with open(target, "wb") as out:
                out.write(payload)
        except OSError as error:
            raise OutputError(f"cannot write {target}: {_reason(error)}") from None
        return
    sweep_temporaries(folder)
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f"{TEMPORARY_PREFIX}{os.getpid()}-")
    except OSError as error:
        raise OutputError(f"cannot write {target}: {_reason(error)}") from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644 & ~_umask())
        os.replace(temporary, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise OutputError(f"cannot write {target}: {_reason(error)}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@functools.cache
def _umask() -> int:
    """The process umask (read by setting it, once): mkstemp creates files 0600, and an output
    gets the mode a plain ``open`` would have given it."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask

"""The corpus root of the paths a user names, and of the commit being made (issue 25, 11 and 12).

Drift is between files, so a file is only judged inside its whole corpus. As ruff and ESLint do,
``speclint check api/openapi.yaml`` and ``speclint check corpus/api`` find the corpus root from the
path, load the corpus there, and show the findings of the paths given. The root is the nearest
folder upward holding a configuration (``speclint.toml``, or ``pyproject.toml`` with
``[tool.speclint]``); else the top of the git work tree; else the folder named (a file's folder).
Inside a git work tree the search stops at its top: a configuration above the repository is not
the repository's. It never looks in a folder above the one named that is another user's or that
anyone may write to.

Nothing here reads more than that: whether a folder holds ``speclint.toml`` or ``.git``, and a
``pyproject.toml`` (read as a corpus file is: no link out of its folder, no FIFO, bounded). A path
reached through a link out of the root it belongs to is refused, as the corpus walk would never
reach it.

Root-relative paths here are POSIX, ``""`` being the root itself.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from speclint.parsing.gitbase import staged_paths, tracked_named, work_tree_top
from speclint.parsing.kinds import CONFIGURATION_FILES
from speclint.parsing.reading import LoadProblem, read_raw


class RootError(Exception):
    """The paths name no single corpus; the message says why and what to do."""


@dataclass(frozen=True)
class Scope:
    """The corpus root and the part of it a command reports on."""

    root: Path  # named as the user named the paths: relative to the working folder, or absolute
    # Root-relative paths whose findings are shown; None: the whole corpus.
    focus: tuple[str, ...] | None
    found_by: str  # how the root was found, for messages: "corpus/speclint.toml", "the git ..."


def configuration_in(folder: Path) -> str | None:
    """The name of the speclint configuration ``folder`` holds, or None."""
    if os.path.lexists(folder / "speclint.toml"):
        return "speclint.toml"  # loading it says what is wrong with it, if anything is
    if not os.path.lexists(folder / "pyproject.toml"):
        return None
    raw = read_raw(folder.resolve(), "pyproject.toml")
    if isinstance(raw, LoadProblem):
        return None
    # Deferred for start-up: the hook's client finds its corpus root here before it asks the
    # resident checker (issue 51), and only a folder holding a pyproject.toml needs the TOML
    # parser (3 ms to import: the client's whole budget is 0.1 s).
    import tomllib

    try:
        table = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    tool = table.get("tool")
    return "pyproject.toml" if isinstance(tool, dict) and "speclint" in tool else None


def _lexical(path: Path) -> Path:
    # Lexical, not resolved: the root is named as the user named the path (`..` removed), and a
    # link on the way is judged below instead of followed.
    return Path(os.path.abspath(path))


def _above(start: Path) -> tuple[Path, ...]:
    """``start`` and the folders above it that may decide its root: up to the first one that is
    another user's or that anyone may write to (``/tmp``, ``/home``). Whoever can put a
    ``speclint.toml`` or a ``.git`` there must not choose what is checked, or how (git refuses
    a repository owned by someone else for the same reason: ``safe.directory``)."""
    folders = [start]
    for folder in start.parents:
        try:
            status = os.stat(folder)
        except OSError:
            break
        if status.st_mode & stat.S_IWOTH:
            break
        if hasattr(os, "getuid") and status.st_uid != os.getuid():
            break
        folders.append(folder)
    return tuple(folders)


def _git_top(folders: tuple[Path, ...]) -> Path | None:
    """The folder of ``folders`` (lexical, the nearest first) that is a git work tree's top."""
    for folder in folders:
        if os.path.lexists(folder / ".git"):
            return folder
    return None


def _root_of(start: Path) -> tuple[Path, str]:
    """(the root, how it was found) for a folder, both lexical and absolute."""
    folders = _above(start)
    top = _git_top(folders)
    if top is not None:
        folders = folders[: folders.index(top) + 1]
    for folder in folders:
        name = configuration_in(folder)
        if name is not None:
            return folder, name
    if top is not None:
        return top, "the git work tree"
    return start, "the folder named"


def _named(root: Path, given: Path) -> Path:
    """``root`` (absolute) named as the user named ``given``: relative when it was relative."""
    if given.is_absolute():
        return root
    return Path(os.path.relpath(root, os.path.abspath(os.curdir)))


def _inside(root: Path, path: Path, shown: str) -> str:
    """``path``'s root-relative name; a :class:`RootError` when it is reached through a link out
    of the root (the corpus walk enters no linked folder, and reads a linked file only when its
    target is in the root)."""
    relative = path.relative_to(root)
    real_root = root.resolve()
    folder = root
    for part in relative.parts:
        folder = folder / part
        if not os.path.islink(folder):
            continue
        target = Path(os.path.realpath(folder))
        if folder != path or target.is_dir() or not target.is_relative_to(real_root):
            raise RootError(
                f"{shown}: not part of the corpus at {_shown(root)}: it is reached through the "
                f"link {_shown(folder)}, which speclint does not follow"
            )
    return relative.as_posix() if relative.parts else ""


def _shown(path: Path) -> str:
    try:
        return Path(os.path.relpath(path, os.path.abspath(os.curdir))).as_posix()
    except ValueError:  # another drive (Windows)
        return path.as_posix()


def scope_of(paths: Sequence[Path]) -> Scope:
    """The corpus root of ``paths`` (files or folders) and their root-relative names; a
    :class:`RootError` when one does not exist, is reached through a link out of its root, or
    when they are in different corpora."""
    given = list(paths) or [Path(".")]
    found: list[tuple[Path, str, Path]] = []
    for path in given:
        if not os.path.lexists(path):
            raise RootError(f"{path}: no such file or folder")
        absolute = _lexical(path)
        start = absolute if absolute.is_dir() else absolute.parent
        root, how = _root_of(start)
        found.append((root, how, absolute))
    roots = sorted({root for root, _, _ in found})
    if len(roots) > 1:
        named = ", ".join(
            f"{_shown(root)} ({_how(root, how)})"
            for root, how in sorted({(root, how) for root, how, _ in found})
        )
        raise RootError(f"the paths are in different corpora: {named}; check one corpus at a time")
    root, how, _ = found[0]
    focus = tuple(
        sorted(
            {
                _inside(root, absolute, path.as_posix())
                for path, (_, _, absolute) in zip(given, found, strict=True)
            }
        )
    )
    return Scope(_named(root, given[0]), None if "" in focus else focus, _how(root, how))


def _how(root: Path, how: str) -> str:
    if how in CONFIGURATION_FILES:
        return _shown(root / how)
    return how


def in_focus(path: str, focus: tuple[str, ...]) -> bool:
    """Whether the root-relative ``path`` is one of ``focus`` or lies in one of its folders."""
    return any(path == given or path.startswith(given + "/") for given in focus)


def commit_roots(folder: Path) -> tuple[list[Path], list[Path]]:
    """(the corpus roots the commit being made touches, every configured corpus root of the
    repository), absolute and resolved, for the pre-commit hook run in ``folder``.

    Each corpus is a folder of the repository holding a configuration; the commit touches the
    ones its staged paths lie in (the nearest one). A repository with no configuration is one
    corpus, its top. A :class:`RootError` outside a git work tree: the hook judges a commit."""
    top = work_tree_top(folder)
    if top is None:
        raise RootError(
            f"{_shown(_lexical(folder))} is not in a git work tree, and `speclint hook` judges a "
            "commit (lint a folder with `speclint check`)"
        )
    configured = sorted(
        {
            top / parent
            for parent in (
                path.rpartition("/")[0] for path in tracked_named(top, CONFIGURATION_FILES)
            )
            if configuration_in(top / parent) is not None
        }
    )
    if not configured:
        return [top], []
    staged = staged_paths(top)
    if staged is None:
        return configured, configured
    touched: set[Path] = set()
    for path in staged:
        holders = [root for root in configured if (top / path).is_relative_to(root)]
        if holders:
            touched.add(max(holders, key=lambda root: len(root.parts)))
    return sorted(touched), configured


def named_from_here(root: Path) -> Path:
    """An absolute ``root`` named relative to the working folder (as pre-commit runs the hook
    from the repository's top: ``corpus``), so that reports show the paths a user can open."""
    try:
        return Path(os.path.relpath(root, os.path.realpath(os.curdir)))
    except ValueError:  # another drive (Windows)
        return root

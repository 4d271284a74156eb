"""The files under a corpus root: the walk every run starts with.

Standard library and ``speclint.parsing.kinds`` only: the run answered from the replay cache
(``speclint.frontends.replay``) lists the root with it before anything else is imported, so a
run that changed nothing does not pay for the corpus model's parsers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from speclint.parsing.kinds import INSTALLED_FOLDER_NAMES, installed_folder
from speclint.parsing.reading import shown_path

# Folders never walked: version control and the cache of earlier versions, unmentioned; and
# installed software, which `speclint files` lists as skipped (a folder an installer marked, such
# as a virtual environment's `pyvenv.cfg`, is recognised as the walk reaches it: `walk`).
_UNSEEN_FOLDERS = frozenset({".git", ".speclint-cache"})
SKIPPED_FOLDERS = _UNSEEN_FOLDERS | frozenset(INSTALLED_FOLDER_NAMES)


def listing(root: Path) -> list[str]:
    """Every file under ``root`` (root-relative POSIX paths, sorted), without following folder
    symlinks or entering ``SKIPPED_FOLDERS``. Symlinks to files are listed (``read_raw`` decides
    whether they may be read); a name that is not valid UTF-8 is listed with its undecodable
    bytes as surrogates, the way the operating system gave it."""
    return list(walk(root))


def skipped_folders(root: Path) -> list[tuple[str, str]]:
    """The folders under ``root`` that discovery does not enter because they hold installed
    software or a tool's cache: (root-relative path with a trailing ``/``, why), in walk order."""
    found: list[tuple[str, str]] = []
    for _ in walk(root, found):
        pass
    return found


def walk(root: Path, skipped: list[tuple[str, str]] | None = None) -> Iterator[str]:
    """Every file under ``root`` (root-relative, POSIX), in order, without following folder
    symlinks or entering ``.git``, the cache folder, or a folder of installed software or a
    tool's cache (``kinds.installed_folder``: a virtual environment, ``node_modules``,
    ``site-packages``...), which is added to ``skipped`` as (its path with a trailing ``/``,
    why). A ``.git`` file (a linked worktree's or a submodule's pointer to its repository) is
    git's, not the corpus's. Paths are made as strings, not ``Path`` objects: a thousand-file
    corpus is listed in a few milliseconds."""
    top = os.fspath(root)
    # os.walk without following directory symlinks: a link to "/" must not make us read the disk.
    for folder, subfolders, files in os.walk(top, followlinks=False):
        # os.walk names each folder below ``top`` as os.path.join(top, ...): what follows ``top``
        # is the folder's path from the root.
        relative = folder[len(top) :].lstrip(os.sep)
        if os.altsep:
            relative = relative.replace(os.sep, "/")
        why = installed_folder(os.path.basename(folder), files, subfolders) if relative else None
        if why is not None:
            subfolders[:] = []
            if skipped is not None:
                skipped.append((shown_path(relative) + "/", why))
            continue
        subfolders[:] = sorted(d for d in subfolders if d not in _UNSEEN_FOLDERS)
        prefix = f"{relative}/" if relative else ""
        for name in sorted(files):
            if name != ".git":
                yield prefix + name


def revision_listing(
    names: Iterable[str], is_folder: Callable[[str], bool] | None = None
) -> tuple[list[str], tuple[tuple[str, str], ...]]:
    """What :func:`listing` and :func:`skipped_folders` give for a folder that holds exactly
    ``names`` (root-relative files: a git revision's, read without a checkout), and no empty
    folder (git keeps none): the files, in the walk's order, and the folders not entered.
    ``is_folder`` says which names are symlinks to folders (``gitbase.RevisionFiles``): the
    walk lists those among a folder's subfolders (which tell an installed folder by its
    marker) and enters none. It is asked of the names of the folders walked alone, and what it
    raises (a link that needs a checkout) is the caller's."""
    files: dict[str, list[str]] = {}
    folders: dict[str, set[str]] = {}
    for name in names:
        folder, _, base = name.rpartition("/")
        files.setdefault(folder, []).append(base)
        while folder:
            parent, _, child = folder.rpartition("/")
            below = folders.setdefault(parent, set())
            if child in below:
                break
            below.add(child)
            folder = parent
    found: list[str] = []
    skipped: list[tuple[str, str]] = []
    stack = [""]
    while stack:  # as os.walk, top-down: a folder's files, then each subfolder's, in order
        folder = stack.pop()
        prefix = folder + "/" if folder else ""
        here, entered = files.get(folder, []), sorted(folders.get(folder, ()))
        linked = {name for name in here if is_folder(prefix + name)} if is_folder else set()
        if linked:
            here = [name for name in here if name not in linked]
        inner = sorted({*entered, *linked}) if linked else entered
        why = installed_folder(folder.rpartition("/")[2], here, inner) if folder else None
        if why is not None:
            skipped.append((shown_path(folder) + "/", why))
            continue
        found += [prefix + name for name in sorted(here) if name != ".git"]
        stack += [prefix + d for d in reversed(entered) if d not in _UNSEEN_FOLDERS]
    return found, tuple(skipped)

"""Lint the same corpus at a base revision, in a temporary git worktree, for ``--diff-base``.

The pull-request gate asks what a change *introduces*. ``git worktree add --detach`` checks the base
revision out beside the working tree without touching it; the corpus folder is found at the same
path relative to the repository root; both sides are linted with the head's configuration, so a
configuration change cannot masquerade as new findings. The worktree is removed afterwards, even
when linting fails or the run is interrupted (``SIGINT``, ``SIGTERM``: see ``lifecycle``).

A run killed with ``SIGKILL`` cannot clean up. Each worktree lives in a scratch folder
(``speclint-base-*`` in the temporary folder) holding ``owner.json`` with the process that made it;
the next speclint run in the repository finds the worktrees whose owner is gone
(:func:`remove_stale_worktrees`, a few ``stat`` calls when there are none), unregisters them with
``git worktree remove`` and deletes their scratch folders, which it recognises by that file.

Most base revisions are read without a worktree (:func:`revision_files`): the listing from
``git ls-tree``, the bytes from one ``git cat-file --batch`` process, which is what a checkout
would write whenever git converts nothing on checkout; a symlink is resolved through the
revision's tree as the checkout's file system would resolve it (:class:`_Tree`). When a checkout
might write other bytes (a submodule, a smudge filter, ``ident``, a CRLF line ending, a sparse or
partial clone, a symlink whose target leaves the repository...), the revision is checked out as
before (:class:`NeedsCheckout` says why).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import threading
import unicodedata
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from shlex import quote
from typing import IO, TypeVar

from speclint.common.lifecycle import process_alive, signals_deferred
from speclint.parsing.reading import (
    MAX_FILE_BYTES,
    LoadProblem,
    name_problem,
    not_regular_problem,
    open_problem,
    outside_root_problem,
    size_problem,
)

SCRATCH_PREFIX = "speclint-base-"
OWNER_FILE = "owner.json"


class GitError(Exception):
    """The base revision cannot be checked out; the message says why and what to do."""


# Git runs with no hooks (a post-checkout hook would run during `worktree add`), no filesystem
# monitor and no LFS smudge (it would download), and never prompts: speclint runs nothing but git
# itself and makes no network call (SECURITY.md).
_GIT_SAFETY = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false")
_GIT_ENVIRONMENT = {"GIT_LFS_SKIP_SMUDGE": "1", "GIT_TERMINAL_PROMPT": "0"}
# What git sets for a hook it runs (`git rev-parse --local-env-vars`): a relative GIT_INDEX_FILE
# would make `git worktree add` write the base's index over the commit's, so every git speclint
# runs finds its repository from the folder it runs in. The index of the commit being made is
# read on purpose, by `tracked_listing` alone.
_LOCAL_VARIABLES = frozenset(
    {
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_CONFIG",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_OBJECT_DIRECTORY",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_IMPLICIT_WORK_TREE",
        "GIT_GRAFT_FILE",
        "GIT_INDEX_FILE",
        "GIT_NO_REPLACE_OBJECTS",
        "GIT_REPLACE_REF_BASE",
        "GIT_PREFIX",
        "GIT_INTERNAL_SUPER_PREFIX",
        "GIT_SHALLOW_FILE",
        "GIT_COMMON_DIR",
    }
)


def _environment(index: bool = False) -> dict[str, str]:
    """The environment of a git that speclint runs; ``index``: with the index a calling git
    named (``git commit -a`` and ``git commit FILE`` commit a temporary index), made absolute."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in _LOCAL_VARIABLES
        and not name.startswith("GIT_CONFIG_KEY_")
        and not name.startswith("GIT_CONFIG_VALUE_")
    }
    named = os.environ.get("GIT_INDEX_FILE")
    if index and named:
        # git gives a hook the path relative to the folder it runs the hook in.
        environment["GIT_INDEX_FILE"] = os.path.abspath(named)
    return {**environment, **_GIT_ENVIRONMENT}


def _git(cwd: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *_GIT_SAFETY, *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
            env=_environment(),
        )
    except FileNotFoundError:
        raise GitError("git is not installed, and --diff-base needs it") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {' '.join(args[:2])} did not finish within 120 s") from None
    if done.returncode != 0:
        raise GitError(done.stderr.strip() or f"git {' '.join(args)} failed")
    return done.stdout.strip()


# What git ignores and does not track under a root: (files, folders ending in ``/``).
GitIgnored = tuple[frozenset[str], tuple[str, ...]]


def _run(
    folder: Path,
    command: Sequence[str],
    environment: Mapping[str, str],
    stdin: bytes | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[bytes] | None:
    """``git COMMAND`` in ``folder`` with the house's hardening (``_GIT_SAFETY``), its output
    as bytes; None when git cannot be run or does not finish within ``timeout``."""
    try:
        return subprocess.run(
            ["git", *_GIT_SAFETY, *command],
            cwd=folder,
            input=stdin,
            capture_output=True,
            check=False,
            timeout=timeout,
            env=dict(environment),
        )
    except (OSError, subprocess.TimeoutExpired):
        return None


def _run_soon(
    folder: Path, command: Sequence[str], environment: Mapping[str, str], timeout: float = 120
) -> Callable[[], subprocess.CompletedProcess[bytes] | None]:
    """:func:`_run` (with no input), git started now and waited for when the result is called:
    ``timeout`` counts from then."""
    arguments = ["git", *_GIT_SAFETY, *command]
    try:
        process = subprocess.Popen(
            arguments,
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(environment),
        )
    except OSError:
        return lambda: None

    def finished() -> subprocess.CompletedProcess[bytes] | None:
        with process:
            try:
                out, err = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                return None
        return subprocess.CompletedProcess(arguments, process.returncode, out, err)

    return finished


def ignored(root: Path) -> GitIgnored:
    """What git ignores under ``root`` and does not track: (files, folders ending in ``/``),
    relative to ``root``. Empty when ``root`` is not in a git work tree or git cannot say (a
    missing git, a repository git refuses): discovery then reads every file, and says nothing
    more is hidden. Tracked files are never in it, even where a ``.gitignore`` matches them."""
    return ignored_soon(root)()


def ignored_soon(root: Path) -> Callable[[], GitIgnored]:
    """:func:`ignored`, asked of git now and answered when the result is called: the caller
    works while git does (the replay cache's key lists the root meanwhile)."""
    nothing: GitIgnored = (frozenset(), ())
    if _git_folder(root.resolve()) is None:
        return lambda: nothing
    listing = ("ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
    answer = _run_soon(root, listing, _environment(), timeout=60)

    def ignored_files() -> GitIgnored:
        done = answer()
        if done is None or done.returncode != 0:
            return nothing
        names = [
            os.fsdecode(name)
            for name in done.stdout.split(b"\0")
            if name and not name.startswith(b"../")
        ]
        folders = tuple(sorted(name for name in names if name.endswith("/")))
        return frozenset(name for name in names if not name.endswith("/")), folders

    return ignored_files


def head_commit(root: Path) -> str | None:
    """The commit ``HEAD`` names in the repository holding ``root``; None outside a git work
    tree, or before the first commit (there is nothing to compare a change with)."""
    if _git_folder(root.resolve()) is None:
        return None
    try:
        return _git(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}") or None
    except GitError:
        return None


def work_tree_top(folder: Path) -> Path | None:
    """The top folder of the git work tree holding ``folder`` (resolved); None outside one, in a
    bare repository, or when git cannot say."""
    if _git_folder(folder.resolve()) is None:
        return None
    try:
        top = _git(folder, "rev-parse", "--show-toplevel")
    except GitError:
        return None
    return Path(top) if top else None


def _index_records(
    folder: Path, *command: str, variables: frozenset[str] = frozenset()
) -> list[bytes] | None:
    """The NUL-separated records a git command prints on the index (run in ``folder``, with the
    calling git's index, without the environment ``variables``), or None when git cannot say."""
    environment = {
        name: value for name, value in _environment(index=True).items() if name not in variables
    }
    done = _run(folder, command, environment, timeout=60)
    if done is None or done.returncode != 0:
        return None
    return [record for record in done.stdout.split(b"\0") if record]


def staged_paths(top: Path) -> list[str] | None:
    """The paths the commit being made adds, changes or deletes (the index against ``HEAD``; in
    a first commit, every file of the index), relative to the work tree's ``top``. None when git
    cannot say."""
    has_head = head_commit(top) is not None
    command = (
        ["diff", "--cached", "--name-only", "--no-renames", "-z", "HEAD", "--"]
        if has_head
        else ["ls-files", "-z", "--cached", "--"]
    )
    records = _index_records(top, *command)
    return None if records is None else sorted({os.fsdecode(name) for name in records})


# What would make git read a pathspec otherwise than as written (`:(glob)` as a file's name,
# with GIT_LITERAL_PATHSPECS), for the one command that gives pathspecs (``tracked_named``).
_PATHSPEC_VARIABLES = frozenset(
    {"GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS"}
)


def tracked_named(top: Path, names: tuple[str, ...]) -> list[str]:
    """The files of the index under ``top`` whose base name is one of ``names``, relative to
    ``top`` (empty when git cannot say).

    Git picks them (a pathspec per name, at any depth): the hook finds its corpus roots here,
    before its client can ask the resident checker (issue 51), and reading the names of a whole
    index of 100,000 files took Python 40 ms more. The names it prints are still held to
    ``names``: a pathspec is only how few of them git prints."""
    if not names:
        return []
    pathspecs = [":(glob)**/" + re.sub(r"([*?\[\\])", r"\\\1", name) for name in names]
    records = _index_records(
        top, "ls-files", "-z", "--cached", "--", *pathspecs, variables=_PATHSPEC_VARIABLES
    )
    found = (os.fsdecode(name) for name in records or ())
    return sorted({path for path in found if path.rsplit("/", 1)[-1] in names})


def tracked_listing(root: Path, skipped: frozenset[str]) -> list[str] | None:
    """The files of the index (what the next commit holds) under ``root``, root-relative, in the
    order :func:`speclint.parsing.tree.listing` walks a folder in (a folder's files, then its
    subfolders, each sorted), so a corpus listed from the index of a commit and one listed from a
    checkout of that commit are keyed alike. Submodules (gitlinks) are not files here, nor is
    anything under a ``skipped`` folder, nor a file deleted from the working tree but not from
    the index. None when ``root`` is not in a git work tree or git cannot say."""
    if _git_folder(root.resolve()) is None:
        return None
    records = _index_records(root, "ls-files", "-z", "--cached", "--stage", "--", ".")
    if records is None:
        return None
    found: set[str] = set()
    folder = str(root)
    for record in records:
        # "<mode> <object> <stage>\t<path>"; a conflicted path has several stages.
        meta, _, name = record.partition(b"\t")
        if not name or meta.startswith(b"160000"):
            continue
        relative = os.fsdecode(name)
        parts = relative.split("/")
        if any(part in skipped for part in parts[:-1]) or parts[-1] == ".git":
            continue
        # As the walk: a symlink to a folder is not entered, a deleted file is not there.
        if _a_file_or_link(os.path.join(folder, relative)):
            found.add(relative)
    return sorted(found, key=walk_order)


def _a_file_or_link(full: str) -> bool:
    """``os.path.lexists(full) and not Path(full).is_dir()``, in one status call (two for a
    symlink, whose target says whether it is a folder): asked of every file of the index at
    every run of the hook."""
    try:
        status = os.lstat(full)
    except (OSError, ValueError):
        return False
    if stat.S_ISLNK(status.st_mode):
        try:
            return not stat.S_ISDIR(os.stat(full).st_mode)
        except (OSError, ValueError):
            return True  # a dangling link: there, and no folder
    return not stat.S_ISDIR(status.st_mode)


def walk_order(relative: str) -> tuple[tuple[int, str], ...]:
    """The sort key of the order ``speclint.parsing.tree.walk`` lists files in."""
    # os.walk, top-down with sorted names, yields a folder's files before its subfolders' files.
    *folders, name = relative.split("/")
    return (*((1, folder) for folder in folders), (0, name))


_FULL_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # SHA-1, SHA-256
_ABBREVIATED_ID = re.compile(r"[0-9a-f]{7,39}")


def fetch_hint(top: Path, ref: str) -> str:
    """What to run so that ``ref``, not in the repository at ``top``, is: a fetch that makes
    ``ref`` itself resolve. A CI checkout is shallow and holds one branch (actions/checkout,
    ``git clone --depth=1``), so ``git fetch origin main`` would write only ``FETCH_HEAD``: the
    refspec names where the fetched commit goes (``origin/main`` is
    ``refs/remotes/origin/main``), and ``--depth=1`` is said only to a shallow clone (it would
    make a full one shallow). Nothing is fetched here: speclint makes no network call."""
    try:
        remotes = _git(top, "remote").split()
    except GitError:
        remotes = []
    if not remotes:
        return "it is not in this repository, which has no remote to fetch it from"
    remote = "origin" if "origin" in remotes else remotes[0]
    try:
        shallow = _git(top, "rev-parse", "--is-shallow-repository") == "true"
    except GitError:
        shallow = False
    fetch = "git fetch --no-tags --depth=1" if shallow else "git fetch --no-tags"
    if ref == "HEAD" or ref == "@" or any(mark in ref for mark in ("~", "^", ":", "@{")):
        if shallow:  # an ancestor of a commit the clone has, beyond its depth
            return f"fetch the history first: `git fetch --no-tags --unshallow {quote(remote)}`"
        return "there is no such revision in this repository"
    if _FULL_ID.fullmatch(ref):
        return f"fetch it first: `{fetch} {quote(remote)} {ref}`"
    if _ABBREVIATED_ID.fullmatch(ref):
        return (
            "an abbreviated commit id cannot be fetched: give the full one, fetched first "
            f"(`{fetch} {quote(remote)} COMMIT`)"
        )
    for name in remotes:
        for prefix in (f"refs/remotes/{name}/", f"{name}/"):
            if ref.startswith(prefix) and len(ref) > len(prefix):
                branch = ref[len(prefix) :]
                tracking = quote(f"{branch}:refs/remotes/{name}/{branch}")
                return f"fetch it first: `{fetch} {quote(name)} {tracking}`"
    if ref.startswith("refs/"):
        return f"fetch it first: `{fetch} {quote(remote)} {quote(f'{ref}:{ref}')}`"
    # A branch or a tag: which one, only the remote knows.
    return (
        f"fetch it first: `{fetch} {quote(remote)} {quote(f'{ref}:{ref}')}` (a tag: "
        f"`{fetch} {quote(remote)} tag {quote(ref)}`)"
    )


def _revision(corpus: Path, ref: str) -> tuple[Path, str, Path]:
    """(the work tree's top, the commit ``ref`` names, the corpus folder relative to the top),
    or the error that says why there is none."""
    corpus = corpus.resolve()
    try:
        top = Path(_git(corpus, "rev-parse", "--show-toplevel"))
    except GitError:
        raise GitError(
            f"{corpus} is not inside a git repository, and --diff-base needs one"
        ) from None
    try:
        commit = _git(top, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except GitError:
        raise GitError(f"unknown revision {ref!r}: {fetch_hint(top, ref)}") from None
    return top, commit, corpus.relative_to(top)


@contextmanager
def base_checkout(corpus: Path, ref: str) -> Iterator[Path]:
    """The corpus folder as it is at ``ref``, in a temporary worktree."""
    top, commit, relative = _revision(corpus, ref)
    remove_stale_worktrees(top, thorough=True)
    scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX))
    (scratch / OWNER_FILE).write_text(
        json.dumps({"pid": os.getpid(), "repository": str(top)}), encoding="utf-8"
    )
    worktree = scratch / "base"
    try:
        _git(top, "worktree", "add", "--detach", str(worktree), commit)
        yield worktree / relative
    finally:
        with signals_deferred():  # a second Ctrl-C must not leave half a cleanup
            _remove_worktree(top, scratch)


def _remove_worktree(top: Path, scratch: Path) -> None:
    worktree = scratch / "base"
    try:
        # Twice `--force`: a run killed inside `git worktree add` leaves the worktree locked
        # ("initializing"), and a locked worktree is neither removed by one `--force` nor pruned
        # (git-worktree(1), "remove").
        _git(top, "worktree", "remove", "--force", "--force", str(worktree))
    except GitError:
        shutil.rmtree(worktree, ignore_errors=True)  # inside our own scratch folder
        with contextlib.suppress(GitError):
            _git(top, "worktree", "unlock", str(worktree))
        with contextlib.suppress(GitError):
            _git(top, "worktree", "prune")
    with contextlib.suppress(OSError):
        (scratch / OWNER_FILE).unlink()
    with contextlib.suppress(OSError):
        scratch.rmdir()


def _git_folder(start: Path) -> Path | None:
    """The repository's git folder (``.git``, or where a ``.git`` file points), found upwards."""
    for folder in (start, *start.parents):
        marker = folder / ".git"
        if marker.is_dir():
            return marker
        if marker.is_file():
            try:
                line = marker.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                return None
            if line.startswith("gitdir:"):
                linked = Path(line[len("gitdir:") :].strip())
                linked = linked if linked.is_absolute() else folder / linked
                # A linked worktree's git folder is <common>/worktrees/<name>.
                common = linked.parent.parent if linked.parent.name == "worktrees" else linked
                return common
            return None
    return None


def _owner(scratch: Path) -> dict[str, object] | None:
    try:
        found = json.loads((scratch / OWNER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and isinstance(found.get("pid"), int) else None


def remove_stale_worktrees(start: Path, thorough: bool = False) -> list[Path]:
    """Remove the base worktrees that killed speclint runs left in the repository at ``start``;
    returns their scratch folders. Only worktrees in a ``speclint-base-*`` scratch folder whose
    ``owner.json`` names a process that is gone are touched. ``thorough`` also looks in the
    temporary folder for scratch folders of this repository that a run killed before it
    registered the worktree."""
    git_folder = _git_folder(start.resolve())
    if git_folder is None:
        return []
    removed: list[Path] = []
    top = git_folder.parent
    if thorough:
        with contextlib.suppress(OSError):
            for entry in os.scandir(tempfile.gettempdir()):
                if not entry.name.startswith(SCRATCH_PREFIX) or not entry.is_dir(
                    follow_symlinks=False
                ):
                    continue
                scratch = Path(entry.path)
                owner = _owner(scratch)
                if owner is None or owner.get("repository") != str(top):
                    continue
                pid = owner["pid"]
                if isinstance(pid, int) and not process_alive(pid):
                    _remove_worktree(top, scratch)
                    removed.append(scratch)
    registered = git_folder / "worktrees"
    if not registered.is_dir():
        return removed
    for registration in sorted(registered.iterdir()):
        try:
            pointer = (registration / "gitdir").read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            continue
        worktree = Path(pointer).parent  # gitdir names <worktree>/.git
        scratch = worktree.parent
        if worktree.name != "base" or not scratch.name.startswith(SCRATCH_PREFIX):
            continue
        if not scratch.exists():
            # The scratch folder is gone (the system cleaned its temporary folder): only the
            # registration is left, which `git worktree prune` removes.
            with contextlib.suppress(GitError):
                _git(top, "worktree", "prune")
            continue
        owner = _owner(scratch)
        if owner is None:
            continue  # not a folder speclint made
        pid = owner["pid"]
        if isinstance(pid, int) and process_alive(pid):
            continue
        _remove_worktree(top, scratch)
        removed.append(scratch)
    return removed


# --- a revision read from git's object store -----------------------------------------------------


class NeedsCheckout(Exception):
    """The revision's files cannot be read from git's objects as a checkout would write them (or
    git cannot list or read them so): the message says why, and the revision is checked out into
    a worktree instead (:func:`base_checkout`), which behaves, and fails, as it always did."""


@dataclass(frozen=True)
class _Blob:
    oid: str
    size: int


# The attributes that make a checkout write other bytes than a blob's (gitattributes(5),
# "Checking-out and checking-in"), asked of git for every file of the corpus.
_CONVERTING = ("filter", "ident", "working-tree-encoding", "eol", "text", "crlf")
# The configuration that makes a checkout differ from the objects (git-config(1)), asked in one
# call: `core.autocrlf` and `core.eol` (line endings written on checkout), a sparse checkout
# (`git worktree add` copies the sparse patterns: only some files are written), a partial clone
# (a missing blob would be fetched from the remote: speclint makes no network call, the
# worktree path keeps what it always did), `core.ignorecase` (a case-insensitive file system
# keeps one of two names that differ in case only), `core.symlinks` (false: a symlink is written
# as a plain file holding its target) and the filter drivers that apply something on checkout
# (a smudge command, a long-running process, or one that must succeed).
_CONFIGURATION = (
    r"^(core\.(autocrlf|eol|sparsecheckout|ignorecase|symlinks)|extensions\.partialclone"
    r"|filter\..+\.(smudge|process|required))$"
)
_TRUE = frozenset({"", "true", "yes", "on", "1"})
# A path git refuses to check out (a tree made by hand can hold one): the worktree's checkout
# fails as it always did, and says why.
_REFUSED_PARTS = frozenset({"", ".", ".."})


def revision_files(corpus: Path, ref: str, skipped: frozenset[str]) -> RevisionFiles:
    """The files of the corpus folder at ``ref``, read from git's object store: listed by
    ``git ls-tree``, not one byte written to the disk. Raises :class:`GitError` (not in a git
    repository, an unknown revision: the messages :func:`base_checkout` gives) or
    :class:`NeedsCheckout` when a checkout could write other bytes than the objects hold, or
    git cannot list them; files under a ``skipped`` folder (one the walk never enters) are
    listed but do not make it check out."""
    top, commit, relative = _revision(corpus, ref)
    with tempfile.TemporaryDirectory(prefix="speclint-index-") as scratch:
        return _revision_files(top, commit, relative, ref, skipped, str(Path(scratch) / "index"))


def _revision_files(
    top: Path, commit: str, relative: Path, ref: str, skipped: frozenset[str], index: str
) -> RevisionFiles:
    """:func:`revision_files` of ``commit``, with ``index``, a path in a scratch folder of its
    own, for an index of the revision (``_converts_nothing``)."""
    folder = relative.as_posix()
    inside = "" if folder == "." else folder + "/"
    tree_ish = commit if not inside else f"{commit}:{folder}"
    # Four gits that need none of the others' answers, run at once: each process is waited
    # for in a thread of its own (the hook reads HEAD this way at every attempt at a commit).
    configured, records, read_tree, replace_refs = _concurrently(
        lambda: _records(top, "config", "-z", "--get-regexp", _CONFIGURATION),
        # The paths are only keys here: none of them is joined to a folder of the disk.
        lambda: _records(top, "ls-tree", "-r", "-z", "-l", "--full-tree", tree_ish),
        # git 2.39 reads attributes from an index, not a tree (`check-attr --source` is 2.40's):
        # an index of the revision, written in our own scratch folder, holds its .gitattributes.
        lambda: _records(top, "read-tree", commit, index=index),
        lambda: _records(top, "for-each-ref", "--count=1", "--format=%(refname)", "refs/replace/"),
    )
    settings = _settings(configured)
    if records is None:
        # No such folder at the revision (or a symlink to one, or a damaged repository): the
        # checkout says which, as it always did.
        raise NeedsCheckout(f"git cannot list {folder} at {ref}")
    # A checkout with `core.symlinks` false writes a link as a plain file holding its target,
    # unconverted (git's entry.c writes it past the conversion of files).
    symlinks = settings.get("core.symlinks", "true") in _TRUE
    entries = _entries(records, inside)
    blobs: dict[str, _Blob] = {}
    links: list[str] = []
    as_written: list[str] = []  # the links written as plain files
    names: list[str] = []
    for path, (mode, kind, oid, size) in entries.items():
        path = path[len(inside) :]
        parts = path.split("/")
        if any(part in _REFUSED_PARTS or part.lower() == ".git" for part in parts):
            raise NeedsCheckout(f"{path!r}: a path git does not check out")
        names.append(path)
        if any(part in skipped for part in parts[:-1]):
            continue  # never walked: what a checkout would write there is never read
        if mode == "160000":
            # A checkout leaves an empty folder for a submodule, which the walk sees.
            raise NeedsCheckout(f"{path}: a submodule")
        if kind != "blob" or size < 0:
            raise NeedsCheckout(f"{path}: a {kind} git does not check out as a file")
        if mode == _SYMLINK_MODE:
            (links if symlinks else as_written).append(path)
            if symlinks:
                continue
        blobs[path] = _Blob(oid, size)
    resolved: dict[str, _Link | str] = {}
    tree = None
    if links:
        ignorecase = settings.get("core.ignorecase", "false") in _TRUE
        try:
            tree = _Tree(top, commit, inside, entries, ignorecase)
        except _Undecided as why:
            raise NeedsCheckout(str(why)) from None
        # Each resolved now, in this process; one a checkout must resolve makes the revision be
        # checked out only if the walk meets it (`RevisionFiles.is_folder`).
        resolved = {path: tree.link(path) for path in links}
    # What a checkout writes of the files a link inside the root leads to is what it reads.
    plain = set(as_written)
    targets = {inside + path for path in blobs if path not in plain} | {
        found.target
        for found in resolved.values()
        if isinstance(found, _Link) and found.target is not None
    }
    written = [inside + path for path in (*links, *as_written)]
    _converts_nothing(top, settings, sorted(targets), written, index if read_tree == [] else None)
    # Everything the revision's files were made of, once the objects path is taken: the tree as
    # git lists it (each file's mode and object id, the links' blobs among them) under the top
    # and the folder, and the settings that decide how links are written. What attributes and
    # the rest of the configuration could change has sent the run to a checkout already.
    listed = hashlib.sha256(
        repr((str(top), commit, inside, sorted(settings.items()))).encode(
            "utf-8", "surrogateescape"
        )
    )
    for record in records:
        listed.update(record + b"\0")
    return RevisionFiles(
        top,
        commit,
        blobs,
        sorted(names, key=walk_order),
        resolved,
        tree,
        listed.hexdigest(),
        replaced=replace_refs != [],
    )


T = TypeVar("T")


def _concurrently(*calls: Callable[[], T]) -> list[T]:
    """Each call's answer, the calls made at once, each in a thread of its own (each waits on a
    git process, not on this one); what one raises is raised here once all are done."""
    answers: list[T | None] = [None] * len(calls)
    raised: list[BaseException | None] = [None] * len(calls)

    def run(at: int) -> None:
        try:
            answers[at] = calls[at]()
        except BaseException as error:  # handed to the caller's thread
            raised[at] = error

    threads = [threading.Thread(target=run, args=(at,), daemon=True) for at in range(1, len(calls))]
    for thread in threads:
        thread.start()
    run(0)
    for thread in threads:
        thread.join()
    for error in raised:
        if error is not None:
            raise error
    return answers  # type: ignore[return-value]


_SYMLINK_MODE = "120000"


def _entries(records: list[bytes], inside: str) -> dict[str, tuple[str, str, str, int]]:
    """The records of ``git ls-tree -r -l -z``: path (with ``inside`` before it) -> (mode,
    kind, object id, size; -1 for no blob)."""
    entries: dict[str, tuple[str, str, str, int]] = {}
    for record in records:
        meta, _, name = record.partition(b"\t")
        fields = meta.split()
        if len(fields) != 4:
            raise NeedsCheckout("git listed the revision in a form speclint does not read")
        mode, kind, oid, size = (field.decode("ascii", "replace") for field in fields)
        entries[inside + os.fsdecode(name)] = (mode, kind, oid, int(size) if size.isdigit() else -1)
    return entries


def _settings(found: list[bytes] | None) -> dict[str, str]:
    """The configuration that makes a checkout differ from the objects (``_CONFIGURATION``), of
    git's answer to ``config -z --get-regexp``: lowercased name -> lowercased value, the last
    one set winning, as in git."""
    if found is None:
        raise NeedsCheckout("git cannot read its configuration")
    settings: dict[str, str] = {}
    for record in found:
        key, _, value = record.decode("utf-8", "replace").partition("\n")
        settings[key.lower()] = value.strip().lower()
    return settings


def _records(
    folder: Path, *command: str, stdin: bytes | None = None, index: str | None = None
) -> list[bytes] | None:
    """The NUL-separated records a git command prints (run in ``folder`` with the house's
    hardening, with ``index`` as its index, never the calling git's; lazy fetches refused where
    git knows the variable), or None when git fails (``git config --get-regexp`` finding
    nothing: an empty list)."""
    environment = {**_environment(), "GIT_NO_LAZY_FETCH": "1"}
    if index is not None:
        environment["GIT_INDEX_FILE"] = index
    done = _run(folder, command, environment, stdin)
    if done is None:
        return None
    if command[0] == "config" and done.returncode == 1 and not done.stdout:
        return []  # no such variable set
    if done.returncode != 0:
        return None
    return [record for record in done.stdout.split(b"\0") if record]


def _converts_nothing(
    top: Path, settings: dict[str, str], paths: list[str], links: list[str], index: str | None
) -> None:
    """Raise :class:`NeedsCheckout` unless a checkout of ``commit`` writes each of ``paths``
    (relative to ``top``) byte for byte as its blob holds it: no configuration (``settings``)
    and no attribute (from every source git reads: the revision's ``.gitattributes`` files, at
    the corpus's folder and above, ``info/attributes``, the user's and the system's) converts
    it. ``links``: the symlinks written beside them, which no attribute converts."""
    if settings.get("core.autocrlf", "false") in _TRUE:
        raise NeedsCheckout("core.autocrlf writes text files with CRLF line endings")
    if settings.get("core.sparsecheckout", "false") in _TRUE:
        raise NeedsCheckout("a sparse checkout writes only some files")
    if "extensions.partialclone" in settings:
        raise NeedsCheckout("a partial clone: a blob it lacks would be fetched")
    if settings.get("core.ignorecase", "false") in _TRUE:
        written = {*paths, *links}
        folded = {path.lower() for path in written}
        if len(folded) != len(written):
            raise NeedsCheckout("two files whose names differ in case only, on a file system "
                                "that keeps one")  # fmt: skip
    drivers = {
        key.split(".", 1)[1].rsplit(".", 1)[0].lower()
        for key in settings
        if key.startswith("filter.")
    }
    # `core.eol` applies to the files marked text; its default, `native`, is CRLF on Windows.
    eol = settings.get("core.eol", "native")
    crlf = eol == "crlf" or (eol == "native" and os.linesep == "\r\n")
    if not paths:
        return
    if index is None:  # ``index``: the revision's tree, read into an index of our own
        raise NeedsCheckout("git cannot read the revision's tree into an index")
    listed = b"\0".join(os.fsencode(path) for path in paths) + b"\0"
    records = _records(
        top, "check-attr", "--cached", "-z", "--stdin", *_CONVERTING, stdin=listed, index=index
    )
    if records is None or len(records) % 3:
        raise NeedsCheckout("git cannot say which attributes apply")
    for at in range(0, len(records), 3):
        path = os.fsdecode(records[at])
        attribute = records[at + 1].decode("utf-8", "replace")
        value = records[at + 2].decode("utf-8", "replace")
        if value in ("unspecified", "unset"):
            continue
        if attribute == "filter" and value.lower() in drivers:
            raise NeedsCheckout(f"{path}: `filter={value}` smudges it on checkout")
        if attribute == "ident":
            raise NeedsCheckout(f"{path}: `ident` expands its $Id$ on checkout")
        if attribute == "working-tree-encoding":
            raise NeedsCheckout(f"{path}: `working-tree-encoding` re-encodes it on checkout")
        if attribute == "eol" and value == "crlf":
            raise NeedsCheckout(f"{path}: `eol=crlf` writes CRLF line endings on checkout")
        if attribute in ("text", "crlf") and value != "input" and crlf:
            raise NeedsCheckout(f"{path}: marked text, written with CRLF line endings")


# --- symlinks at a revision ----------------------------------------------------------------------
# A checkout writes a symlink (mode 120000) whose blob holds its target path. What the walk and
# `read_raw` make of it is decided by that target as the system resolves it: from the link's
# folder, through every link on the way (a link in the target too), each `..` going to the
# parent of the folder reached, not of the path as written (path_resolution(7)). Inside the
# repository all of that is the revision's tree, read here; a target that leaves the repository
# (an absolute one, or `..` past its top) names the disk, and the revision is checked out.

# Linux follows at most 40 links in one path (MAXSYMLINKS) and fails with ELOOP past them;
# macOS and the BSDs at most 32. A loop is past both; a chain of 33 to 40 links opens on Linux
# alone, and is left to a checkout.
_MOST_FOLLOWED = 40
_FOLLOWED_EVERYWHERE = 32
# A name longer than NAME_MAX, or a target longer than every system keeps, fails in a way the
# system words (ENAMETOOLONG, or a checkout git cannot make): left to a checkout.
_LONGEST_NAME = 255
_LONGEST_TARGET = 1024
# `os.path.realpath` resolves each link once, recursively (Python 3.11 and 3.12): as many links
# on one path as the recursion allows; fewer here, the rest to a checkout.
_MOST_RESOLVED = 200
_FILE, _FOLDER, _LINK = "file", "folder", "link"


class _Undecided(Exception):
    """What a checkout makes of a symlink depends on more than the revision's tree: the
    message says what."""


@dataclass(frozen=True)
class _Link:
    """A symlink of the revision as a checkout shows it: whether the walk meets a folder there
    (``os.walk`` lists a link to a folder among the folders and does not enter it; any other
    link is a file), what ``read_raw`` gives (the blob of the file it leads to, or why it is not
    read) and that file's path from the top (None when none is read)."""

    folder: bool
    read: _Blob | LoadProblem
    target: str | None = None


class _Tree:
    """A revision's tree, for resolving its symlinks as a checkout's file system would: entries
    by path from the work tree's top. Those under the corpus folder (``inside``) come listed;
    the rest of the repository is listed the first time a target leaves the folder. All paths
    here are from the top, "" the top itself."""

    def __init__(
        self,
        top: Path,
        commit: str,
        inside: str,
        entries: dict[str, tuple[str, str, str, int]],
        ignorecase: bool,
    ) -> None:
        self._top, self._commit, self.inside = top, commit, inside
        self._entries = dict(entries)
        self._folders: set[str] = set()
        self._complete = not inside
        self._ignorecase = ignorecase
        self._folded: set[str] | None = None
        self._targets: dict[str, str] = {}  # link path -> target
        self._added(self._entries)

    def _added(self, entries: dict[str, tuple[str, str, str, int]]) -> None:
        for path in entries:
            folder = path.rpartition("/")[0]
            while folder and folder not in self._folders:
                self._folders.add(folder)
                folder = folder.rpartition("/")[0]
        self._folded = None
        wanted = {entry[2] for entry in entries.values() if entry[0] == _SYMLINK_MODE}
        if not wanted:
            return
        found = _cat_blobs(self._top, sorted(wanted))
        if found is None:
            raise _Undecided("git cannot read the symlinks' targets")
        for path, entry in entries.items():
            if entry[0] == _SYMLINK_MODE:
                self._targets[path] = os.fsdecode(found[entry[2]])

    def _listed_whole(self) -> None:
        """List the rest of the repository: a target left the corpus folder."""
        self._complete = True
        records = _records(self._top, "ls-tree", "-r", "-z", "-l", "--full-tree", self._commit)
        if records is None:
            raise _Undecided("git cannot list the repository at the revision")
        more = {path: entry for path, entry in _entries(records, "").items()
                if path not in self._entries}  # fmt: skip
        self._entries.update(more)
        self._added(more)

    def kind(self, path: str) -> str | None:
        """What ``lstat`` finds at ``path``: a file, a folder (a submodule is an empty one), a
        link, or nothing (None)."""
        if not self._complete and not path.startswith(self.inside) and path not in self._folders:
            self._listed_whole()
        entry = self._entries.get(path)
        if entry is not None:
            if entry[0] == _SYMLINK_MODE:
                return _LINK
            return _FOLDER if entry[0] in ("160000", "040000") else _FILE
        if path in self._folders:
            return _FOLDER
        if self._ignorecase and _folded(path) in self._all_folded():
            # A file system that ignores case finds a name git spells otherwise (on macOS, one
            # written in another Unicode normal form too).
            raise _Undecided(f"{path}: found on a file system that ignores case only")
        return None

    def _all_folded(self) -> set[str]:
        if self._folded is None:
            self._folded = {_folded(path) for path in (*self._entries, *self._folders)}
        return self._folded

    def target(self, path: str) -> str:
        """The target of the link at ``path``, as ``readlink`` gives it in a checkout."""
        target = self._targets[path]
        if not target or "\0" in target or len(os.fsencode(target)) > _LONGEST_TARGET:
            raise _Undecided(f"{path}: a symlink git cannot check out alike everywhere")
        if target.startswith("/"):
            raise _Undecided(f"{path}: a symlink to {target}, outside the repository")
        return target

    def opened(self, folder: str, path: str) -> tuple[str, str] | int:
        """Where ``open`` of ``path`` from ``folder`` (a folder) arrives: (_FILE or _FOLDER,
        its path), or the ``errno`` it fails with. Every link on the way is followed."""
        followed, reached = self._opened(folder, path)
        if followed > _FOLLOWED_EVERYWHERE and reached != errno.ELOOP:
            raise _Undecided(f"{path}: more links than some systems follow")
        return reached

    def _opened(self, folder: str, path: str) -> tuple[int, tuple[str, str] | int]:
        """The links followed, and where ``open`` arrives (:meth:`opened`)."""
        current = folder.split("/") if folder else []
        pending = path.split("/")[::-1]
        followed = 0
        while pending:
            name = pending.pop()
            if name in ("", "."):
                continue
            if name == "..":
                if not current:
                    raise _Undecided(f"{path}: `..` leaves the repository")
                current.pop()
                continue
            if len(os.fsencode(name)) > _LONGEST_NAME or name.lower() == ".git":
                # A checkout's `.git` is a file, the repository's a folder.
                raise _Undecided(f"{path}: a name the system or git decides")
            candidate = "/".join((*current, name))
            kind = self.kind(candidate)
            if kind == _LINK:
                followed += 1
                if followed > _MOST_FOLLOWED:
                    return followed, errno.ELOOP
                pending += self.target(candidate).split("/")[::-1]
                continue
            if kind is None:
                return followed, errno.ENOENT
            if kind == _FILE:
                # Anything after a file, even `/` or `/.`, needs a folder.
                return followed, errno.ENOTDIR if pending else (_FILE, candidate)
            current.append(name)
        return followed, (_FOLDER, "/".join(current))

    def realpath(self, folder: str, path: str) -> str:
        """``os.path.realpath`` of ``path`` from ``folder`` (a folder reached without a link),
        as Python 3.11 and 3.12 compute it (``posixpath._joinrealpath``): a name that is no
        link is kept as written (also a missing one, after which `..` is taken as written),
        each link is replaced by its target, and a link met again while it is resolved (a
        loop) ends the resolution there, the rest kept as written. Python 3.13 goes on
        resolving the rest: a loop with a rest is left to a checkout."""
        resolved, rest = self._joined(folder.split("/") if folder else [], path, {})
        if rest is not None and any(name not in ("", ".") for name in rest.split("/")):
            raise _Undecided(f"{path}: a symlink loop, which Python versions resolve apart")
        return "/".join(resolved)

    def _joined(
        self, resolved: list[str], rest: str, seen: dict[str, list[str] | None]
    ) -> tuple[list[str], str | None]:
        names = rest.split("/")
        for at, name in enumerate(names):
            if not name or name == ".":
                continue
            if name == "..":
                if not resolved:
                    raise _Undecided(f"{rest}: `..` leaves the repository")
                resolved = resolved[:-1]
                continue
            if name.lower() == ".git":
                raise _Undecided(f"{rest}: a name git decides")
            newpath = [*resolved, name]
            key = "/".join(newpath)
            if self.kind(key) != _LINK:
                resolved = newpath
                continue
            after = "/".join(names[at + 1 :])
            if key in seen:
                known = seen[key]
                if known is None:  # a loop: what is left stays as written
                    return newpath, after
                resolved = known
                continue
            if len(seen) > _MOST_RESOLVED:
                raise _Undecided(f"{key}: more links on the way than speclint follows")
            seen[key] = None
            resolved, left = self._joined(resolved, self.target(key), seen)
            if left is not None:
                return resolved, f"{left}/{after}"
            seen[key] = resolved
        return resolved, None

    def read(self, root: str, path: str) -> tuple[bool, _Blob | LoadProblem, str | None]:
        """What a checkout's walk and ``read_raw(root, path)`` make of ``path`` (from the
        corpus folder ``root``): whether it is a folder to the walk (``stat``), what reading it
        gives, and the path of the file read."""
        reached = self.opened(root, path)
        folder = not isinstance(reached, int) and reached[0] == _FOLDER
        parent, _, name = path.rpartition("/")
        above = self.opened(root, parent)
        # `os.path.islink`: an lstat, which follows the folders on the way, not the name.
        if (
            not isinstance(above, int)
            and above[0] == _FOLDER
            and self.kind("/".join(filter(None, (above[1], name)))) == _LINK
        ):
            real = self.realpath(root, path)
            if root and real != root and not real.startswith(root + "/"):
                return folder, outside_root_problem(), None
        if isinstance(reached, int):
            return folder, open_problem(reached), None
        if folder:
            return folder, not_regular_problem("a folder"), None
        _, _, oid, size = self._entries[reached[1]]
        return folder, _Blob(oid, size), reached[1]

    def link(self, path: str) -> _Link | str:
        """The corpus's symlink at ``path`` (from the corpus folder) as a checkout shows it, or
        why a checkout must say (:class:`_Undecided`)."""
        try:
            folder, read, target = self.read(self.inside.rstrip("/"), path)
        except _Undecided as why:
            return str(why)
        return _Link(folder, read, target)


def _folded(path: str) -> str:
    return unicodedata.normalize("NFC", path).casefold()


def _cat_blobs(top: Path, oids: list[str]) -> dict[str, bytes] | None:
    """The contents of the blobs ``oids``, in one ``git cat-file --batch``; None when git
    cannot give every one (a damaged or partial clone)."""
    asked = "".join(f"{oid}\n" for oid in oids).encode("ascii")
    batch = ("cat-file", "--batch", "--buffer")
    done = _run(top, batch, {**_environment(), "GIT_NO_LAZY_FETCH": "1"}, asked)
    if done is None:
        return None
    found: dict[str, bytes] = {}
    out, at = done.stdout, 0
    for oid in oids:
        end = out.find(b"\n", at)
        header = out[at:end].split() if end >= 0 else []
        if len(header) != 3 or header[0].decode("ascii", "replace") != oid:
            return None
        if header[1] != b"blob" or not header[2].isdigit():
            return None
        size = int(header[2])
        found[oid] = out[end + 1 : end + 1 + size]
        at = end + 1 + size + 1
    return found if done.returncode == 0 else None


class RevisionFiles:
    """A revision's files under the corpus folder, read from git's object store: ``names``,
    every file listed (root-relative, in the walk's order: ``walk_order``), and :meth:`read`,
    each file's bytes as :func:`~speclint.parsing.reading.read_raw` gives a checkout's. The
    bytes of many files come from one ``git cat-file --batch`` (:meth:`fetch`); a file read
    later, from one long-running ``git cat-file --batch`` per process that reads (the rules run
    in forked workers: none shares another's pipe), stopped when this object is let go."""

    def __init__(
        self,
        top: Path,
        commit: str,
        blobs: dict[str, _Blob],
        names: list[str],
        links: dict[str, _Link | str] | None = None,
        tree: _Tree | None = None,
        listed: str = "",
        replaced: bool = True,
    ) -> None:
        self.top = top
        self.commit = commit
        self.names = names
        # A digest of git's listing of the revision and the settings read with it (see
        # :func:`revision_files`): two revisions with the same one hold the same files by object
        # id, and, while no object is replaced (:meth:`replaces_nothing`), the same bytes.
        self.listed = listed
        self._replaced = replaced  # a replace ref was there when the revision was listed
        self._blobs = blobs
        # The symlinks as a checkout shows them, or why a checkout must say (`is_folder`).
        self._links = links or {}
        self._tree = tree
        self._fetched: dict[str, bytes] = {}  # object id -> bytes
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = 0  # the process that started ``_process``

    def replaces_nothing(self) -> bool:
        """Whether git reads every object as the one its id names: no replace ref
        (git-replace(1)) under ``refs/replace/`` (the base git reads them from: speclint's git
        runs without ``GIT_REPLACE_REF_BASE``), whatever ``core.useReplaceRefs`` says. Only then
        does an object id name the bytes ``git cat-file`` gives for it; False when git cannot
        say (as git said when :func:`revision_files` listed the revision)."""
        return not self._replaced

    def is_folder(self, path: str) -> bool:
        """Whether the walk of a checkout meets a folder at ``path``, a name of :attr:`names`:
        a symlink to a folder, which ``os.walk`` lists among the folders and does not enter
        (``speclint.model.corpus.revision_listing`` asks of the folders it walks).
        :class:`NeedsCheckout` when a checkout must say (a target outside the repository)."""
        found = self._links.get(path)
        if isinstance(found, str):
            raise NeedsCheckout(found)
        return found is not None and found.folder

    def fetch(self, paths: Iterable[str]) -> None:
        """Read the bytes of ``paths`` (those not over the size limit) in one ``git cat-file``;
        :class:`NeedsCheckout` when git cannot give every one (a damaged or partial clone)."""
        wanted = sorted(
            {
                blob.oid
                for blob in (self._blob(path) for path in paths)
                if blob is not None and blob.size <= MAX_FILE_BYTES
            }
            - self._fetched.keys()
        )
        if not wanted:
            return
        found = _cat_blobs(self.top, wanted)
        if found is None:
            raise NeedsCheckout("git cannot read the files' objects")
        self._fetched.update(found)

    def _blob(self, path: str) -> _Blob | None:
        """The blob a checkout's ``path`` reads: its own, or the one its link leads to."""
        blob = self._blobs.get(path)
        if blob is None:
            found = self._links.get(path)
            if isinstance(found, _Link) and isinstance(found.read, _Blob):
                return found.read
        return blob

    def forget(self) -> None:
        """Let go of the bytes :meth:`fetch` read (the corpus keeps its documents' texts); a
        file read again is read through this process's ``git cat-file``."""
        self._fetched.clear()

    def read(
        self, path: str, limit: int = MAX_FILE_BYTES, *, head: bool = False
    ) -> bytes | LoadProblem:
        """The file's bytes, or why it is not read, as ``read_raw`` says it of a checkout."""
        refused = name_problem(path)
        if refused is not None:
            return refused
        blob = self._blobs.get(path)
        if blob is None:
            found = self._unlisted(path)
            if isinstance(found, LoadProblem):
                return found
            blob = found
        if blob.size > limit and not head:
            return size_problem(blob.size, limit)
        raw = self._fetched.get(blob.oid)
        if raw is None:
            raw = self._read_one(blob, limit if head else blob.size)
            if raw is None:
                return LoadProblem(
                    "cannot read the file: git cannot read it at the base revision", unread=True
                )
        return raw[:limit] if head else raw

    def _unlisted(self, path: str) -> _Blob | LoadProblem:
        """What reading ``path``, no file of the revision, gives: a symlink's target, or why
        nothing is read (a folder, a missing file, a path through a link)."""
        found = self._links.get(path)
        if isinstance(found, _Link):
            return found.read
        if self._tree is None:  # no symlink: a folder, a path through a file, or nothing
            if any(name.startswith(path.rstrip("/") + "/") for name in self._blobs):
                return not_regular_problem("a folder")
            parts = path.split("/")
            if any("/".join(parts[:end]) in self._blobs for end in range(1, len(parts))):
                return open_problem(errno.ENOTDIR)
            return open_problem(errno.ENOENT)
        try:
            return self._tree.read(self._tree.inside.rstrip("/"), path)[1]
        except _Undecided:
            # Only a listed file is read (every reader of the corpus reads one), and a listed
            # link a checkout must resolve has made the revision be checked out.
            return LoadProblem(
                "cannot read the file: git cannot read it at the base revision", unread=True
            )

    def _read_one(self, blob: _Blob, keep: int) -> bytes | None:
        """The first ``keep`` bytes of ``blob``, through this process's ``git cat-file``."""
        if self._owner != os.getpid():  # a forked worker: its own lock and its own git
            self._lock = threading.Lock()
            self._process, self._owner = None, os.getpid()
        with self._lock:
            process = self._process or self._started()
            if process is None or process.stdin is None or process.stdout is None:
                return None
            try:
                process.stdin.write(f"{blob.oid}\n".encode("ascii"))
                process.stdin.flush()
                header = process.stdout.readline().split()
                if len(header) != 3 or header[1] != b"blob" or not header[2].isdigit():
                    raise OSError("no blob")
                kept = _read_exactly(process.stdout, int(header[2]), keep)
                process.stdout.read(1)  # the line feed after the contents
            except (OSError, ValueError):
                _stop(process, self._owner)  # out of step: the next read starts another
                self._process = None
                return None
        if blob.size <= MAX_FILE_BYTES and len(kept) == blob.size:
            self._fetched[blob.oid] = kept
        return kept

    def _started(self) -> subprocess.Popen[bytes] | None:
        try:
            process = subprocess.Popen(
                ["git", *_GIT_SAFETY, "cat-file", "--batch"],
                cwd=self.top,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env={**_environment(), "GIT_NO_LAZY_FETCH": "1"},
            )
        except OSError:
            return None
        self._process = process
        weakref.finalize(self, _stop, process, os.getpid())
        return process

    def close(self) -> None:
        """Stop this process's ``git cat-file``, if it started one."""
        if self._process is not None and self._owner == os.getpid():
            _stop(self._process, self._owner)
        self._process = None


def _read_exactly(stream: IO[bytes], size: int, keep: int) -> bytes:
    """``size`` bytes of ``stream``, of which the first ``keep`` are kept (the rest read past:
    a file read only for its head need not be held whole)."""
    kept: list[bytes] = []
    remaining, wanted = size, keep
    while remaining > 0:
        chunk = stream.read(min(remaining, 1 << 20))
        if not chunk:
            raise OSError("git stopped")
        remaining -= len(chunk)
        if wanted > 0:
            kept.append(chunk[:wanted])
            wanted -= len(chunk)
    return b"".join(kept)


def _stop(process: subprocess.Popen[bytes], owner: int) -> None:
    """End a ``git cat-file`` this process started (a forked worker's copy of the object
    leaves its parent's alone)."""
    if os.getpid() != owner or process.poll() is not None:
        return
    with contextlib.suppress(OSError):
        process.kill()
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        process.wait(timeout=5)

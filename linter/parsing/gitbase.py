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
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from shlex import quote

from speclint.common.lifecycle import process_alive, signals_deferred

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


def ignored(root: Path) -> GitIgnored:
    """What git ignores under ``root`` and does not track: (files, folders ending in ``/``),
    relative to ``root``. Empty when ``root`` is not in a git work tree or git cannot say (a
    missing git, a repository git refuses): discovery then reads every file, and says nothing
    more is hidden. Tracked files are never in it, even where a ``.gitignore`` matches them."""
    if _git_folder(root.resolve()) is None:
        return frozenset(), ()
    try:
        done = subprocess.run(
            ["git", *_GIT_SAFETY, "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
             "--directory"],
            cwd=root,
            capture_output=True,
            check=False,
            timeout=60,
            env=_environment(),
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return frozenset(), ()
    if done.returncode != 0:
        return frozenset(), ()
    names = [
        os.fsdecode(name)
        for name in done.stdout.split(b"\0")
        if name and not name.startswith(b"../")
    ]
    folders = tuple(sorted(name for name in names if name.endswith("/")))
    return frozenset(name for name in names if not name.endswith("/")), folders


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


def _index_records(folder: Path, *command: str) -> list[bytes] | None:
    """The NUL-separated records a git command prints on the index (run in ``folder``, with the
    calling git's index), or None when git cannot say."""
    try:
        done = subprocess.run(
            ["git", *_GIT_SAFETY, *command],
            cwd=folder,
            capture_output=True,
            check=False,
            timeout=60,
            env=_environment(index=True),
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
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


def tracked_named(top: Path, names: tuple[str, ...]) -> list[str]:
    """The files of the index under ``top`` whose base name is one of ``names``, relative to
    ``top`` (empty when git cannot say)."""
    records = _index_records(top, "ls-files", "-z", "--cached", "--")
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
        if os.path.lexists(root / relative) and not (root / relative).is_dir():
            found.add(relative)
    return sorted(found, key=walk_order)


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


@contextmanager
def base_checkout(corpus: Path, ref: str) -> Iterator[Path]:
    """The corpus folder as it is at ``ref``, in a temporary worktree."""
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
    relative = corpus.relative_to(top)
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

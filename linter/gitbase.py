"""Lint the same corpus at a base revision, in a temporary git worktree, for ``--diff-base``.

The pull-request gate asks what a change *introduces*. ``git worktree add --detach`` checks the base
revision out beside the working tree without touching it; the corpus folder is found at the same
path relative to the repository root; both sides are linted with the head's configuration, so a
configuration change cannot masquerade as new findings. The worktree is removed afterwards, even
when linting fails.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class GitError(Exception):
    """The base revision cannot be checked out; the message says why and what to do."""


def _git(cwd: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=120
        )
    except FileNotFoundError:
        raise GitError("git is not installed, and --diff-base needs it") from None
    if done.returncode != 0:
        raise GitError(done.stderr.strip() or f"git {' '.join(args)} failed")
    return done.stdout.strip()


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
        raise GitError(
            f"unknown revision {ref!r}: fetch it first (in a shallow CI clone: "
            f"`git fetch --depth=1 origin {ref}`)"
        ) from None
    relative = corpus.relative_to(top)
    with tempfile.TemporaryDirectory(prefix="speclint-base-") as scratch:
        worktree = Path(scratch) / "base"
        _git(top, "worktree", "add", "--detach", str(worktree), commit)
        try:
            yield worktree / relative
        finally:
            try:
                _git(top, "worktree", "remove", "--force", str(worktree))
            except GitError:
                _git(top, "worktree", "prune")
